package io.github.latencylab.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.UnaryOperator;

/** Fixed cells for the report tests, built in code so that each test shows its numbers. */
final class Cells {

  private Cells() {
  }

  /** A measured cell of InsertBenchmark with rows=1000. */
  static Measurement measured(String strategy, String rtt, double addedMs, double timeMs,
      double roundTrips, double statements) {
    return measured("InsertBenchmark", strategy, Map.of("rows", "1000"), rtt, addedMs, timeMs,
        roundTrips, statements);
  }

  static Measurement measured(String suite, String strategy, Map<String, String> params,
      String rtt, double addedMs, double timeMs, double roundTrips, double statements) {
    return new Measurement(suite, strategy, params, rtt, rttMs(rtt), addedMs, 0.13, timeMs,
        timeMs * 0.05, roundTrips, statements, 1000 / (timeMs / 1000), false, "measured");
  }

  /** {@code from} moved to {@code rtt} by the model, as the bench runner does. */
  static Measurement predicted(Measurement from, String rtt, double addedMs) {
    return from.predictAt(rtt, rttMs(rtt), addedMs, 0.13);
  }

  static double rttMs(String rtt) {
    return Double.parseDouble(rtt.replace("ms", ""));
  }

  /**
   * A small run: executeBatch measured at 0.5 and 20 ms (4 round trips, 1,000 statements),
   * executeEach measured at 0.5 ms (1,000 round trips) and predicted at 20 ms.
   */
  static List<Measurement> run() {
    Measurement each = measured("executeEach", "0.5ms", 0.5, 586, 1000, 1000);
    return List.of(
        measured("executeBatch", "0.5ms", 0.5, 14, 4, 1000),
        measured("executeBatch", "20ms", 20, 94, 4, 1000),
        each,
        predicted(each, "20ms", 20));
  }

  static Results results(List<Measurement> cells) {
    return new Results("bench", "2026-11-22T15:00:00Z", "quick", null, cells);
  }

  /** {@link #run()} with the cell {@code key} replaced by {@code change} of it. */
  static Results runWith(String key, UnaryOperator<Measurement> change) {
    List<Measurement> cells = new ArrayList<>();
    boolean found = false;
    for (Measurement m : run()) {
      if (Baseline.key(m).equals(key)) {
        found = true;
        Measurement changed = change.apply(m);
        if (changed != null) {
          cells.add(changed);
        }
      } else {
        cells.add(m);
      }
    }
    if (!found) {
      throw new AssertionError("no cell " + key);
    }
    return results(cells);
  }

  static Measurement withTime(Measurement m, double timeMs) {
    return new Measurement(m.benchmark(), m.strategy(), m.params(), m.rtt(), m.rttMs(),
        m.addedRttMs(), m.baselineRttMs(), timeMs, m.timeErrorMs(), m.roundTripsPerOp(),
        m.statementsPerOp(), m.rowsPerSecond(), m.predicted(), m.note());
  }

  static Measurement withCounts(Measurement m, double roundTrips, double statements) {
    return new Measurement(m.benchmark(), m.strategy(), m.params(), m.rtt(), m.rttMs(),
        m.addedRttMs(), m.baselineRttMs(), m.timeMs(), m.timeErrorMs(), roundTrips, statements,
        m.rowsPerSecond(), m.predicted(), m.note());
  }

  static Measurement withNote(Measurement m, boolean predicted, String note) {
    return new Measurement(m.benchmark(), m.strategy(), m.params(), m.rtt(), m.rttMs(),
        m.addedRttMs(), m.baselineRttMs(), m.timeMs(), m.timeErrorMs(), m.roundTripsPerOp(),
        m.statementsPerOp(), m.rowsPerSecond(), predicted, note);
  }

  static String fmt(String format, Object... args) {
    return String.format(Locale.ROOT, format, args);
  }
}
