package io.github.latencylab.junit;

import io.github.latencylab.env.watch.ServerWork;
import io.github.latencylab.report.Format;
import io.github.latencylab.server.StatementStatistics;
import java.lang.reflect.Method;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.ToLongFunction;
import java.util.stream.Collectors;

/** {@link ExpectWork}'s limits; -1: none. */
record WorkBudget(long maxRows, long maxRowBytes, long maxBlocks, long maxWalBytes,
    long maxTempBytes, long maxAllocatedBytes, long noSeqScanOver) {

  static WorkBudget of(ExpectWork w, Method method) {
    WorkBudget b = new WorkBudget(w.maxRows(), w.maxRowBytes(), w.maxBlocks(),
        w.maxWalBytes(), w.maxTempBytes(), w.maxAllocatedBytes(), w.noSeqScanOver());
    if (b.maxRows < 0 && b.maxRowBytes < 0 && b.maxBlocks < 0 && b.maxWalBytes < 0
        && b.maxTempBytes < 0 && b.maxAllocatedBytes < 0 && b.noSeqScanOver < 0) {
      throw new IllegalArgumentException(method + ": set at least one limit on its"
          + " @ExpectWork");
    }
    return b;
  }

  /** The first limit the block broke, said with the statements that did the most; or null. */
  String violation(BlockCost m) {
    if (maxRows >= 0 && m.rows() > maxRows) {
      return "expected at most " + RoundTrips.plural(maxRows, "row") + " returned, but the"
          + " statements got " + Format.count(m.rows()) + " (at the wire)";
    }
    if (maxRowBytes >= 0 && m.rowBytes() > maxRowBytes) {
      return "expected at most " + Format.bytes(maxRowBytes) + " of rows received, but the"
          + " statements' rows came to " + Format.bytes(m.rowBytes()) + " (at the wire)";
    }
    String server = server(m);
    if (server != null) {
      return server;
    }
    if (maxAllocatedBytes >= 0) {
      if (m.allocatedBytes < 0) {
        return "cannot check maxAllocatedBytes: this JVM does not count a thread's"
            + " allocations";
      }
      if (m.allocatedBytes > maxAllocatedBytes) {
        return "expected at most " + Format.bytes(maxAllocatedBytes) + " allocated on the"
            + " test's thread, but it allocated " + Format.bytes(m.allocatedBytes);
      }
    }
    if (noSeqScanOver >= 0 && m.work != null) {
      for (ServerWork.Statement s : m.work) {
        if (s.plan() == null) {
          continue;
        }
        for (Map.Entry<String, Long> t : s.plan().seqScanned().entrySet()) {
          if (t.getValue() > noSeqScanOver) {
            return "expected no Seq Scan over " + RoundTrips.plural(noSeqScanOver, "row")
                + ", but " + BlockCost.named(s) + " reads " + t.getKey() + " ("
                + RoundTrips.plural(t.getValue(), "row") + ") whole: plan " + s.plan()
                + (s.work() == null ? "" : "; " + Format.count(s.work().blocks())
                + " buffers touched");
          }
        }
      }
    }
    return null;
  }

  private String server(BlockCost m) {
    String[][] limits = {{"maxBlocks", "shared buffers touched"},
        {"maxWalBytes", "WAL written"}, {"maxTempBytes", "temp bytes written"}};
    long[] max = {maxBlocks, maxWalBytes, maxTempBytes};
    List<ToLongFunction<StatementStatistics.Work>> of = List.of(
        StatementStatistics.Work::blocks, StatementStatistics.Work::walBytes,
        StatementStatistics.Work::tempBytes);
    StatementStatistics.Work total = m.serverWork();
    for (int i = 0; i < max.length; i++) {
      if (max[i] < 0) {
        continue;
      }
      if (total == null) {
        return "cannot check " + limits[i][0] + ": " + (m.workUnavailable != null
            ? m.workUnavailable : "the server's work was not read (no Lab)");
      }
      ToLongFunction<StatementStatistics.Work> f = of.get(i);
      long actual = f.applyAsLong(total);
      if (actual > max[i]) {
        boolean blocks = i == 0;
        return "expected at most " + (blocks ? Format.count(max[i]) : Format.bytes(max[i]))
            + " " + limits[i][1] + ", but the statements did " + (blocks
            ? Format.count(actual) : Format.bytes(actual)) + ": " + m.work.stream()
            .filter(s -> s.work() != null && f.applyAsLong(s.work()) > 0)
            .sorted(Comparator.comparingLong((ServerWork.Statement s) ->
                f.applyAsLong(s.work())).reversed()).limit(3)
            .map(s -> BlockCost.named(s) + ": " + (blocks ? Format.count(f.applyAsLong(
                s.work())) : Format.bytes(f.applyAsLong(s.work()))) + (s.plan() == null ? ""
                : " (" + s.plan() + ")"))
            .collect(Collectors.joining("; "));
      }
    }
    return null;
  }
}
