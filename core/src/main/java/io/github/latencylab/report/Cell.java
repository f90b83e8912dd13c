package io.github.latencylab.report;

import io.github.latencylab.latency.Rtt;
import java.util.Comparator;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * One cell of the results: a {@link Series} (suite, strategy, parameters) at one RTT, with
 * what it cost. Measured by JMH, or predicted by the {@link LatencyModel} and then marked so,
 * {@code prediction} saying from what.
 *
 * <p>Built one way, by the canonical constructor: a cell without server counters, prediction,
 * window round trips or spread passes {@code Map.of(), null, 0, null} for them. {@link
 * #withSpread} and {@link #withTime} derive one cell from another.
 *
 * @param rtt the RTT setting
 * @param addedRttMs what the setting really added to a round trip, measured by the Lab
 * @param baselineRttMs a round trip through the proxy without toxics, measured by the Lab
 * @param timeMs mean time per operation
 * @param timeErrorMs JMH's 99.9% confidence half-width (NaN when not computable)
 * @param roundTripsPerOp round trips per operation, counted at the socket
 * @param statementsPerOp statements executed per operation, counted at the socket
 * @param rowsPerSecond rows moved per second of wall time
 * @param server the server's counters per operation by name (e.g. {@code walBytesPerOp}),
 *     empty when none were read
 * @param prediction how the model predicted this cell, or null when it was measured
 * @param windowRoundTripsPerOp the flights per operation its transfers needed beyond their
 *     first while the path's window grew, counted by the link's model (0 on a bare delay, or
 *     where nothing counted them)
 * @param spread how the time spread over its samples, or null (predicted, or not recorded)
 */
public record Cell(Series series, Rtt rtt, double addedRttMs, double baselineRttMs,
    double timeMs, double timeErrorMs, double roundTripsPerOp, double statementsPerOp,
    double rowsPerSecond, Map<String, Double> server, String prediction,
    double windowRoundTripsPerOp, TimeSpread spread) {

  /** This cell with how its time spread over its samples. */
  public Cell withSpread(TimeSpread newSpread) {
    return new Cell(series, rtt, addedRttMs, baselineRttMs, timeMs, timeErrorMs,
        roundTripsPerOp, statementsPerOp, rowsPerSecond, server, prediction,
        windowRoundTripsPerOp, newSpread);
  }

  /** Whether its time's interval is wider than its run asked (the spread says why). */
  public boolean noisy() {
    return spread != null && spread.noisy() != null;
  }

  /**
   * The RTTs an operation pays: its round trips and the flights its transfers waited for the
   * window (what the model multiplies by L).
   */
  public double rttsPerOp() {
    return roundTripsPerOp + (Double.isFinite(windowRoundTripsPerOp) ? windowRoundTripsPerOp : 0);
  }

  /** By series (suite, strategy, parameters with numbers as numbers), then RTT. */
  public static final Comparator<Cell> ORDER =
      Comparator.comparing(Cell::series).thenComparing(Cell::rtt);

  public Cell {
    server = Map.copyOf(server == null ? Map.of() : server);
  }

  /** "InsertBenchmark.executeBatch rows=1000 @ 20ms": the cell's key wherever one is needed. */
  public String key() {
    return series.keyAt(rtt);
  }

  public String suite() {
    return series.suite();
  }

  public String strategy() {
    return series.strategy();
  }

  public SortedMap<String, String> params() {
    return new TreeMap<>(series.params());
  }

  public boolean predicted() {
    return prediction != null;
  }

  /** "measured", or how it was predicted. */
  public String note() {
    return prediction == null ? "measured" : prediction;
  }

  /** This cell with another time per operation (rows per second follow; no spread). */
  public Cell withTime(double newTimeMs, double newErrorMs) {
    double rowsPerOp = rowsPerSecond * timeMs / 1000;
    return new Cell(series, rtt, addedRttMs, baselineRttMs, newTimeMs, newErrorMs,
        roundTripsPerOp, statementsPerOp, newTimeMs == 0 ? 0 : rowsPerOp / (newTimeMs / 1000),
        server, prediction, windowRoundTripsPerOp, null);
  }

  @Override
  public String toString() {
    return key() + ": " + Format.duration(timeMs) + ", " + Format.count(roundTripsPerOp)
        + " round trips/op" + (predicted() ? " (" + prediction + ")" : "");
  }
}
