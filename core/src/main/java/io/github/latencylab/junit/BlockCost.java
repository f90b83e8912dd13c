package io.github.latencylab.junit;

import io.github.latencylab.latency.Rtt;
import io.github.latencylab.report.Cell;
import io.github.latencylab.report.Format;
import io.github.latencylab.report.LatencyModel;
import io.github.latencylab.report.Series;
import io.github.latencylab.wire.Overhead;
import io.github.latencylab.wire.WireCounter;
import io.github.latencylab.wire.WireRead;
import io.github.latencylab.wire.WireStatement;
import io.github.latencylab.wire.WireStats;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.junit.jupiter.api.function.ThrowingSupplier;

/**
 * What a block cost at the wire, counted while it ran with the counter tracing (call sites,
 * {@link Overhead}) and its Lab's counting lock held: everything, the overhead by kind, the
 * statements with their call sites, and the block's time.
 */
final class BlockCost {

  /** How long a block waits for another test's counted block on the same Lab. */
  static final long LOCK_WAIT_SECONDS = 120;

  /** The RTTs every failure message and report prices a block at. */
  static final List<Rtt> PRICED_AT = List.of(Rtt.parse("0.5ms"), Rtt.parse("20ms"),
      Rtt.parse("320ms"));

  final WireStats total;
  final Map<Overhead, WireStats> overhead;
  final List<WireStatement> statements;
  final List<WireRead> reads;
  final double timeMs;
  final Rtt measuredAt;
  final boolean includeOverhead;

  private BlockCost(WireStats total, Map<Overhead, WireStats> overhead,
      List<WireStatement> statements, List<WireRead> reads, double timeMs, Rtt measuredAt,
      boolean includeOverhead) {
    this.total = total;
    this.overhead = overhead;
    this.statements = statements;
    this.reads = reads;
    this.timeMs = timeMs;
    this.measuredAt = measuredAt;
    this.includeOverhead = includeOverhead;
  }

  /** A block's value and what it cost. */
  record Measured<T>(T value, BlockCost cost) {
  }

  /** Runs {@code code}, counting on {@code counter} at the Lab's added RTT {@code at}. */
  static <T> Measured<T> run(WireCounter counter, Rtt at, boolean includeOverhead,
      ThrowingSupplier<T> code) throws Throwable {
    ReentrantLock lock = counter.countingLock();
    if (!lock.tryLock(LOCK_WAIT_SECONDS, TimeUnit.SECONDS)) {
      throw new IllegalStateException("Waited " + LOCK_WAIT_SECONDS + " s for another counted"
          + " block on the same Lab: a thread of a counted block (an executor's task) cannot"
          + " start a counted block of its own; count on the test's thread, around the tasks");
    }
    counter.trace();
    try {
      WireCounter.Totals before = counter.totals();
      long start = System.nanoTime();
      T value = code.get();
      double ms = (System.nanoTime() - start) / 1e6;
      WireCounter.Totals after = counter.totals();
      WireStats total = after.stats().minus(before.stats());
      Map<Overhead, WireStats> overhead = new EnumMap<>(after.overhead());
      overhead.replaceAll((kind, now) -> now.minus(before.overhead().get(kind)));
      List<WireStatement> statements = counter.statementsSince(before.stats());
      return new Measured<>(value, new BlockCost(total, overhead, statements,
          counter.readsOf(statements), ms, at, includeOverhead));
    } finally {
      lock.unlock();
    }
  }

  /** The rows the statements that count got back, reply by reply. */
  List<WireRead> countedReads() {
    return includeOverhead ? reads
        : reads.stream().filter(r -> r.statement().counted()).toList();
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
    return includeOverhead ? statements
        : statements.stream().filter(WireStatement::counted).toList();
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

  /** This block as a measured cell of {@code series}, at the RTT it ran at. */
  Cell cell(Series series) {
    WireStats c = counted();
    return Cell.measured(series, measuredAt, measuredAt.millis(), Double.NaN, timeMs,
        Double.NaN, c.roundTrips(), c.statements(), Double.NaN)
        .withWindowRoundTrips(c.windowRoundTrips());
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

  /** "102 round trips, 103 SQL statements, 5.1 kB sent, 20 kB received". */
  String countsLine() {
    WireStats c = counted();
    return String.format(Locale.ROOT, "%s, %s, %s sent, %s received, %s measured at %s",
        RoundTrips.plural(c.roundTrips(), "round trip"),
        RoundTrips.plural(c.statements(), "SQL statement"), Format.bytes(c.bytesSent()),
        Format.bytes(c.bytesReceived()), Format.duration(timeMs), measuredAt);
  }
}
