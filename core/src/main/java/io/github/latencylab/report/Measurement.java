package io.github.latencylab.report;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * One cell of a suite: a strategy with its parameters at one RTT. Either measured by JMH, or
 * predicted by the model T(L) = T(L0) + roundTrips x (L - L0) from a measured cell, and then
 * marked so, with {@code note} saying from what.
 *
 * @param benchmark the suite, e.g. {@code InsertBenchmark}
 * @param strategy the benchmark method, e.g. {@code executeBatch}
 * @param params the suite's parameters other than the RTT, e.g. {@code rows=1000}
 * @param rtt the RTT setting, e.g. {@code 20ms}
 * @param addedRttMs what the setting really added to a round trip, measured by the Lab
 * @param baselineRttMs a round trip through the proxy without toxics, measured by the Lab
 * @param timeMs mean time per operation
 * @param timeErrorMs JMH's 99.9% confidence half-width (NaN when not computable)
 * @param roundTripsPerOp round trips per operation, counted at the socket
 * @param statementsPerOp statements executed per operation, counted at the socket
 * @param rowsPerSecond rows moved per second of wall time
 * @param server the server's counters for the cell, by name: per operation
 *     ({@code walBytesPerOp}, {@code commitsPerOp}, {@code tempBytesPerOp}...) or ratios
 *     ({@code cacheHitRatio}); see {@link io.github.latencylab.server.ServerCounters}. Empty
 *     where they were not collected (older results, other tools)
 */
public record Measurement(String benchmark, String strategy, Map<String, String> params,
    String rtt, double rttMs, double addedRttMs, double baselineRttMs, double timeMs,
    double timeErrorMs, double roundTripsPerOp, double statementsPerOp, double rowsPerSecond,
    boolean predicted, String note, Map<String, Double> server) {

  public Measurement {
    params = new TreeMap<>(params);
    server = server == null ? Map.of() : Collections.unmodifiableMap(new TreeMap<>(server));
  }

  /** A cell without server counters. */
  public Measurement(String benchmark, String strategy, Map<String, String> params,
      String rtt, double rttMs, double addedRttMs, double baselineRttMs, double timeMs,
      double timeErrorMs, double roundTripsPerOp, double statementsPerOp, double rowsPerSecond,
      boolean predicted, String note) {
    this(benchmark, strategy, params, rtt, rttMs, addedRttMs, baselineRttMs, timeMs,
        timeErrorMs, roundTripsPerOp, statementsPerOp, rowsPerSecond, predicted, note, Map.of());
  }

  /** "InsertBenchmark.executeBatch rows=1000": the cell without its RTT. */
  public String series() {
    StringBuilder s = new StringBuilder(benchmark).append('.').append(strategy);
    params.forEach((k, v) -> s.append(' ').append(k).append('=').append(v));
    return s.toString();
  }

  /** This cell moved to {@code target}'s RTT by the model. */
  public Measurement predictAt(String targetRtt, double targetRttMs, double targetAddedMs,
      double targetBaselineMs) {
    double time = timeMs + roundTripsPerOp * (targetAddedMs - addedRttMs);
    double rowsPerOp = rowsPerSecond * timeMs / 1000;
    return new Measurement(benchmark, strategy, params, targetRtt, targetRttMs, targetAddedMs,
        targetBaselineMs, time, Double.NaN, roundTripsPerOp, statementsPerOp,
        time == 0 ? 0 : rowsPerOp / (time / 1000), true,
        String.format(java.util.Locale.ROOT, "predicted from %s at %s: %.3f ms + %.0f round trips"
            + " x (%.3f - %.3f) ms", strategy, rtt, timeMs, roundTripsPerOp, targetAddedMs,
            addedRttMs), server);
  }
}
