package io.github.latencylab.report;

import io.github.latencylab.latency.Rtt;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * Fixed cells for the report, gate and history tests, built in code so that each test shows its
 * numbers.
 */
public final class Cells {

  private Cells() {
  }

  /** A measured cell of InsertBenchmark with rows=1000. */
  public static Cell measured(String strategy, String rtt, double addedMs, double timeMs,
      double roundTrips, double statements) {
    return measured("InsertBenchmark", strategy, Map.of("rows", "1000"), rtt, addedMs, timeMs,
        roundTrips, statements);
  }

  public static Cell measured(String suite, String strategy, Map<String, String> params,
      String rtt, double addedMs, double timeMs, double roundTrips, double statements) {
    return new Cell(Series.of(suite, strategy, params), Rtt.parse(rtt), addedMs, 0.13,
        timeMs, timeMs * 0.05, roundTrips, statements, 1000 / (timeMs / 1000), Map.of(), null, 0,
        null);
  }

  /** {@code from} moved to {@code rtt} by the model, as the bench runner does. */
  public static Cell predicted(Cell from, String rtt, double addedMs) {
    return LatencyModel.fit(List.of(from)).predict(Rtt.parse(rtt), addedMs, 0.13);
  }

  /**
   * A small run: executeBatch measured at 0.5 and 20 ms (4 round trips, 1,000 statements),
   * executeEach measured at 0.5 ms (1,000 round trips) and predicted at 20 ms.
   */
  public static List<Cell> run() {
    Cell each = measured("executeEach", "0.5ms", 0.5, 586, 1000, 1000);
    return List.of(
        measured("executeBatch", "0.5ms", 0.5, 14, 4, 1000),
        measured("executeBatch", "20ms", 20, 94, 4, 1000),
        each,
        predicted(each, "20ms", 20));
  }

  public static Results results(List<Cell> cells) {
    return new Results("bench", "2026-11-22T15:00:00Z", "quick", null, cells);
  }

  /** {@link #run()} with the cell {@code key} replaced by {@code change} of it. */
  public static Results runWith(String key, UnaryOperator<Cell> change) {
    List<Cell> cells = new ArrayList<>();
    boolean found = false;
    for (Cell c : run()) {
      if (c.key().equals(key)) {
        found = true;
        Cell changed = change.apply(c);
        if (changed != null) {
          cells.add(changed);
        }
      } else {
        cells.add(c);
      }
    }
    if (!found) {
      throw new AssertionError("no cell " + key);
    }
    return results(cells);
  }

  public static Cell withTime(Cell c, double timeMs) {
    return new Cell(c.series(), c.rtt(), c.addedRttMs(), c.baselineRttMs(), timeMs,
        c.timeErrorMs(), c.roundTripsPerOp(), c.statementsPerOp(), c.rowsPerSecond(),
        c.server(), c.prediction(), 0, null);
  }

  public static Cell withCounts(Cell c, double roundTrips, double statements) {
    return new Cell(c.series(), c.rtt(), c.addedRttMs(), c.baselineRttMs(), c.timeMs(),
        c.timeErrorMs(), roundTrips, statements, c.rowsPerSecond(), c.server(),
        c.prediction(), 0, null);
  }

  public static Cell withPrediction(Cell c, String prediction) {
    return new Cell(c.series(), c.rtt(), c.addedRttMs(), c.baselineRttMs(), c.timeMs(),
        c.timeErrorMs(), c.roundTripsPerOp(), c.statementsPerOp(), c.rowsPerSecond(),
        c.server(), prediction, 0, null);
  }

  /** A results.json of the test resources: real runs, rendered by ./latency-lab report. */
  public static Results fixture(String name) {
    return Results.read(java.nio.file.Path.of("src/test/resources/report", name));
  }

  public static String fmt(String format, Object... args) {
    return String.format(Locale.ROOT, format, args);
  }
}
