package io.github.latencylab.junit;

import io.github.latencylab.env.Allocations;
import io.github.latencylab.env.watch.ServerWork;
import io.github.latencylab.env.watch.StretchWatch;
import io.github.latencylab.gate.StatementPlan;
import io.github.latencylab.gate.WorkGate;
import io.github.latencylab.latency.Rtt;
import io.github.latencylab.report.Cell;
import io.github.latencylab.report.Format;
import io.github.latencylab.report.LatencyModel;
import io.github.latencylab.report.Series;
import io.github.latencylab.server.StatementStatistics;
import io.github.latencylab.wire.AssemblySites;
import io.github.latencylab.wire.Overhead;
import io.github.latencylab.wire.SqlShape;
import io.github.latencylab.wire.WireCounter;
import io.github.latencylab.wire.WireRead;
import io.github.latencylab.wire.WireScope;
import io.github.latencylab.wire.WireStatement;
import io.github.latencylab.wire.WireStats;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.function.ThrowingSupplier;

/**
 * What a block cost at the wire, counted in a scope of its own ({@link WireScope}: what its
 * threads sent, not other tests') with the counter tracing (call sites, {@link Overhead}):
 * everything, the overhead by kind, the statements with their call sites, the block's time and
 * how much of it was spent waiting on the database.
 *
 * <p>Its price at an RTT L, what {@link ExpectWireCost} checks and the report shows, is the
 * one model ({@link LatencyModel}) fitted on what the block waited on the database, not on its
 * wall time:
 *
 * <pre>T(L) = (round trips + window flights) x L + waited on the server</pre>
 *
 * where "waited on the server" is the time its reads were blocked on the counted connections
 * ({@link WireCounter#waitNanos()}) less the added RTT they were measured at (each round trip
 * and window flight waited it once). The rest of the wall time is the code's own (JIT, class
 * loading, the framework, the test's CPU): it moves from one JVM to the next and does not grow
 * with the latency, so it is shown, never priced.
 */
final class BlockCost {

  /** Why the server's work is not counted for a block that ran beside another test's. */
  static final String OVERLAPPED = "the server's work per statement is not counted: other"
      + " tests ran SQL at the same time (JUnit's parallel mode), and the server's statistics"
      + " do not tell tests apart";

  /** The RTTs every failure message and report prices a block at. */
  static final List<Rtt> PRICED_AT = List.of(Rtt.parse("0.5ms"), Rtt.parse("20ms"),
      Rtt.parse("320ms"));

  final WireStats total;
  final Map<Overhead, WireStats> overhead;
  final List<WireStatement> statements;
  final List<WireRead> reads;
  /** The block's wall time. */
  final double timeMs;
  /** How long its reads were blocked on the server, overhead's included or not as counted. */
  final double waitedMs;
  final Rtt measuredAt;
  final boolean includeOverhead;
  /** Bytes allocated on the block's thread, or -1 where the JVM does not count them. */
  final long allocatedBytes;
  /** The server's plan and work per statement shape, or null where not read. */
  final List<ServerWork.Statement> work;
  /** Why the server's work is not counted, or null. */
  final String workUnavailable;
  /** What began on threads no test owns while tests ran in parallel, one line; or null. */
  final String unattributed;
  // what counts of the statements and reads, made once: a report asks for them several times
  private List<WireStatement> countedStatements;
  private List<WireRead> countedReads;

  private BlockCost(WireStats total, Map<Overhead, WireStats> overhead,
      List<WireStatement> statements, List<WireRead> reads, double timeMs, double waitedMs,
      Rtt measuredAt, boolean includeOverhead, long allocatedBytes,
      List<ServerWork.Statement> work, String workUnavailable, String unattributed) {
    this.total = total;
    this.overhead = overhead;
    this.statements = statements;
    this.reads = reads;
    this.timeMs = timeMs;
    this.waitedMs = waitedMs;
    this.measuredAt = measuredAt;
    this.includeOverhead = includeOverhead;
    this.allocatedBytes = allocatedBytes;
    this.work = work;
    this.workUnavailable = workUnavailable;
    this.unattributed = unattributed;
  }

  /** A block's value and what it cost. */
  record Measured<T>(T value, BlockCost cost) {
  }

  /**
   * Runs {@code code}, counting on {@code counter} at the Lab's added RTT {@code at}; {@code
   * server}, started before it, reads the server's work after it, where it reads it (null:
   * nothing read); {@code allocations}: what the block's thread allocated is read (for the
   * report and a work budget; else -1).
   */
  static <T> Measured<T> run(WireCounter counter, Rtt at, boolean includeOverhead,
      StretchWatch server, boolean allocations, ThrowingSupplier<T> code) throws Throwable {
    counter.trace();
    T value;
    double ms;
    long allocated;
    WireScope scope = WireScope.open(counter);
    try {
      long allocatedBefore = allocations ? Allocations.onThisThread() : -1;
      long ownBefore = allocations ? AssemblySites.allocatedHere() : 0;
      long start = System.nanoTime();
      value = code.get();
      ms = (System.nanoTime() - start) / 1e6;
      // tracing reactive pipelines allocates on the test's thread: latency-lab's, not the test's
      allocated = allocatedBefore < 0 ? -1 : Allocations.onThisThread() - allocatedBefore
          - (AssemblySites.allocatedHere() - ownBefore);
    } finally {
      scope.close();
    }
    WireCounter.Totals t = scope.counter().totals();
    long waited = t.waitNanos();
    if (!includeOverhead) {
      for (Overhead kind : Overhead.values()) {
        waited -= t.overheadWaitNanos().get(kind);
      }
    }
    List<WireStatement> statements = scope.counter().statementsSince(WireStats.ZERO);
    // the server's work is read for the report and a work budget, not for every budget
    List<ServerWork.Statement> serverWork = server == null || server.work().isEmpty() ? null
        : server.finish(statements.stream().filter(WireStatement::counted).toList())
            .orElse(null);
    String workUnavailable = server == null ? null
        : server.work().flatMap(ServerWork::unavailable).orElse(null);
    if (serverWork != null && scope.overlapped()) {
      // the plans are this block's; the server's counters are every test's of that time
      serverWork = serverWork.stream().map(s -> new ServerWork.Statement(s.shape(), s.sql(),
          s.callSite(), s.executions(), s.plan(), s.why(), null)).toList();
      workUnavailable = OVERLAPPED;
    }
    return new Measured<>(value, new BlockCost(t.stats(), t.overhead(), statements,
        scope.counter().readsOf(statements), ms, waited / 1e6, at, includeOverhead, allocated,
        serverWork, workUnavailable, scope.unattributed()));
  }

  /** The rows the statements that count got back, at the wire. */
  long rows() {
    long sum = 0;
    for (WireRead r : countedReads()) {
      sum += r.rows();
    }
    return sum;
  }

  /** The values of the rows the statements that count got back (rows x columns). */
  long values() {
    long sum = 0;
    for (WireRead r : countedReads()) {
      sum += r.values();
    }
    return sum;
  }

  /** The bytes of the rows the statements that count got back (their DataRow messages). */
  long rowBytes() {
    long sum = 0;
    for (WireRead r : countedReads()) {
      sum += r.bytes();
    }
    return sum;
  }

  /** The bytes of the values the statements that count sent (parameters, simple queries). */
  long valueBytes() {
    long sum = 0;
    for (WireStatement w : countedStatements()) {
      sum += w.valueBytes();
    }
    return sum;
  }

  /** The server's work of every statement shape, added up; null where it was not counted. */
  StatementStatistics.Work serverWork() {
    if (work == null || workUnavailable != null) {
      return null;
    }
    StatementStatistics.Work sum = StatementStatistics.Work.NONE;
    for (ServerWork.Statement s : work) {
      sum = sum.plus(s.work());
    }
    return sum;
  }

  /**
   * "10 rows returned (10 values, 564 B), 120 B of values sent; the server: 30 buffers touched (10 read),
   * 0 B WAL, 0 B temp; 2.1 MB allocated on the test's thread", then a line per statement with
   * its plan.
   */
  String workLines() {
    StringBuilder s = new StringBuilder(RoundTrips.plural(rows(), "row") + " returned ("
        + RoundTrips.plural(values(), "value") + ", " + Format.bytes(rowBytes()) + "), "
        + Format.bytes(valueBytes()) + " of values sent");
    StatementStatistics.Work w = serverWork();
    if (w != null) {
      s.append("; the server: ").append(RoundTrips.plural(w.blocks(), "buffer"))
          .append(" touched (").append(Format.count(w.blocksRead())).append(" read), ")
          .append(Format.bytes(w.walBytes())).append(" WAL, ")
          .append(Format.bytes(w.tempBytes())).append(" temp");
    } else if (workUnavailable != null) {
      s.append("; ").append(workUnavailable);
    }
    if (allocatedBytes >= 0) {
      s.append("; ").append(Format.bytes(allocatedBytes)).append(" allocated on the test's"
          + " thread");
    }
    s.append('\n');
    if (work != null) {
      for (ServerWork.Statement st : work) {
        s.append("    ").append(named(st)).append(": ").append(st.plan() != null
            ? "plan " + st.plan() : "no plan, " + st.why());
        if (st.work() != null && st.work().calls() > 0) {
          s.append("; ").append(Format.number((double) st.work().blocks() / st.work().calls()))
              .append(" buffers/call");
        }
        s.append('\n');
      }
    }
    return s.toString();
  }

  /** "`select ... where id=?` x10 from `Owners.find(Owners.java:12)`". */
  static String named(ServerWork.Statement s) {
    return "`" + SqlShape.brief(s.shape()) + "`" + (s.executions() > 1 ? " x"
        + Format.count(s.executions()) : "") + (s.callSite() == null ? ""
        : " from `" + s.callSite() + "`");
  }

  /** The rows the statements that count got back, reply by reply. */
  List<WireRead> countedReads() {
    if (countedReads == null) {
      List<WireRead> counted = new ArrayList<>(reads.size());
      for (WireRead r : reads) {
        if (includeOverhead || r.statement().counted()) {
          counted.add(r);
        }
      }
      countedReads = List.copyOf(counted);
    }
    return countedReads;
  }

  /** Everything overhead cost. */
  WireStats overheadTotal() {
    WireStats sum = WireStats.ZERO;
    for (WireStats s : overhead.values()) {
      sum = sum.plus(s);
    }
    return sum;
  }

  /** What counts against the budget: everything, or everything but the overhead. */
  WireStats counted() {
    return includeOverhead ? total : total.minus(overheadTotal());
  }

  /** The statements that count, oldest first. */
  List<WireStatement> countedStatements() {
    if (countedStatements == null) {
      List<WireStatement> counted = new ArrayList<>(statements.size());
      for (WireStatement w : statements) {
        if (includeOverhead || w.counted()) {
          counted.add(w);
        }
      }
      countedStatements = List.copyOf(counted);
    }
    return countedStatements;
  }

  /** "not counted: connection set-up 4 round trips (...), ..." or "" without overhead. */
  String overheadLine() {
    List<String> parts = new ArrayList<>();
    overhead.forEach((kind, s) -> {
      if (s.roundTrips() > 0 || s.statements() > 0) {
        List<String> sql = statements.stream().filter(w -> w.overhead() == kind)
            .map(w -> w.sql().isEmpty() ? "an empty query" : w.sql()).distinct().limit(3)
            .toList();
        parts.add(kind.description() + " " + RoundTrips.plural(s.roundTrips(), "round trip")
            + (sql.isEmpty() ? "" : " (" + String.join("; ", sql) + ")"));
      }
    });
    if (parts.isEmpty()) {
      return "";
    }
    return (includeOverhead ? "counted, of which overhead: " : "not counted (overhead;"
        + " includeOverhead = true counts it): ") + String.join(", ", parts) + "\n";
  }

  /**
   * This block as a measured cell of {@code series}, at the RTT it ran at: its time is what it
   * waited on the database, at least the added RTT once per round trip and window flight (the
   * wait of a flight is never less: a shorter one is the timer's noise, and would price the
   * server's share below zero).
   */
  Cell cell(Series series) {
    WireStats c = counted();
    double rttsWaited = (c.roundTrips() + c.windowRoundTrips()) * measuredAt.millis();
    return new Cell(series, measuredAt, measuredAt.millis(), Double.NaN,
        Math.max(waitedMs, rttsWaited), Double.NaN, c.roundTrips(), c.statements(), Double.NaN,
        workCounted(), null, c.windowRoundTrips(), null);
  }

  /** The block's counted work by the gate's names ({@link WorkGate}): what was counted. */
  Map<String, Double> workCounted() {
    Map<String, Double> out = new LinkedHashMap<>();
    WireStats c = counted();
    out.put(WorkGate.ROWS, (double) rows());
    out.put(WorkGate.VALUE_BYTES, (double) valueBytes());
    out.put(WorkGate.VALUES, (double) values());
    StatementStatistics.Work w = serverWork();
    if (w != null) {
      out.put(WorkGate.BLOCKS, (double) w.blocks());
      out.put(WorkGate.WAL, (double) w.walBytes());
      out.put(WorkGate.TEMP, (double) w.tempBytes());
      out.put(WorkGate.SERVER_MS, w.serverMs());
    }
    if (allocatedBytes >= 0) {
      out.put(WorkGate.ALLOCATED, (double) allocatedBytes);
    }
    return out;
  }

  /** The plan of each statement shape the block ran, by shape; empty where none was read. */
  Map<String, StatementPlan> plans() {
    Map<String, StatementPlan> out = new LinkedHashMap<>();
    if (work != null) {
      for (ServerWork.Statement s : work) {
        if (s.plan() != null) {
          boolean counted = s.work() != null && s.work().calls() > 0;
          out.put(s.shape(), new StatementPlan(s.callSite(), s.plan().fingerprint(),
              counted ? (double) s.work().blocks() / s.work().calls() : Double.NaN,
              s.plan().largestTableRows(), counted ? s.work().serverMs() / s.work().calls()
              : Double.NaN));
        }
      }
    }
    return out;
  }

  /**
   * "86.4 ms = 4 round trips x 20ms + 6.4 ms waiting on the server (measured at 0ms); the
   * code's own time 912 ms not priced": the price at {@code rtt} and its parts.
   */
  String priceLine(LatencyModel model, Rtt rtt) {
    WireStats c = counted();
    String flights = RoundTrips.plural(c.roundTrips(), "round trip");
    if (c.windowRoundTrips() > 0) {
      flights = "(" + flights + " + " + RoundTrips.plural(c.windowRoundTrips(), "window flight")
          + ")";
    }
    return Format.duration(model.timeMs(rtt.millis())) + " = " + flights + " x " + rtt + " + "
        + Format.duration(model.t0Ms()) + " waiting on the server (measured at " + measuredAt
        + "); the code's own time " + Format.duration(ownMs()) + " not priced";
  }

  /**
   * The block's wall time less what it waited on the database: not priced (0 where waits on
   * several threads add up to more than the wall time).
   */
  double ownMs() {
    return Math.max(0, timeMs - waitedMs);
  }

  /** The one time model, fitted on this block. */
  LatencyModel model(Series series) {
    return LatencyModel.fit(List.of(cell(series)));
  }

  /** "at 0.5ms: 96.2 ms; at 20ms: 2,085 ms; at 320ms: 32.7 s". */
  String pricedLine(LatencyModel model) {
    List<String> parts = new ArrayList<>();
    for (Rtt r : PRICED_AT) {
      parts.add("at " + r + ": " + Format.duration(model.timeMs(r.millis())));
    }
    return String.join("; ", parts);
  }

  /**
   * "102 round trips, 103 SQL statements, 5.1 kB sent, 20 kB received, 31.2 ms waited on the
   * database of 412 ms measured at 0ms".
   */
  String countsLine() {
    WireStats c = counted();
    return RoundTrips.plural(c.roundTrips(), "round trip") + ", "
        + RoundTrips.plural(c.statements(), "SQL statement") + ", "
        + Format.bytes(c.bytesSent()) + " sent, " + Format.bytes(c.bytesReceived())
        + " received, " + Format.duration(waitedMs) + " waited on the database of "
        + Format.duration(timeMs) + " measured at " + measuredAt;
  }
}
