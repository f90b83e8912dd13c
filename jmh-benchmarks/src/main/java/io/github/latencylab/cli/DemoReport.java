package io.github.latencylab.cli;

import io.github.latencylab.env.LabEnvironment;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What {@code ./latency-lab demo} measured, as written to {@code --json}: every number was
 * measured in the run, except those under {@code predictedMs}.
 *
 * @param rtts one entry per RTT the strategies ran at
 * @param nPlusOne the SQL the N+1 strategy sent, read at the wire (null if it did not run)
 */
public record DemoReport(String kind, String measuredAt, LabEnvironment environment,
    String hibernateVersion, int parents, int children, String method, List<AtRtt> rtts,
    NPlusOneSql nPlusOne, List<String> notes) {

  /** Latencies the text output and the JSON predict times at. */
  public static final Map<String, Double> PREDICTED_AT = predictedAt();

  private static Map<String, Double> predictedAt() {
    Map<String, Double> at = new LinkedHashMap<>();
    at.put("LAN 0.5 ms", 0.5);
    at.put("cross-region 20 ms", 20.0);
    at.put("intercontinental 320 ms", 320.0);
    return at;
  }

  /**
   * The strategies at one RTT.
   *
   * @param rtt the configured added RTT, e.g. "20ms"
   * @param addedMeanMs what the Lab measured it adds per round trip (0 at 0 ms)
   * @param probes how many probe round trips measured it (0 at 0 ms)
   */
  public record AtRtt(String rtt, double rttMs, double addedMeanMs, double addedP50Ms,
      double addedP99Ms, int probes, double baselineMeanMs, List<Row> strategies) {
  }

  /**
   * One strategy at one RTT.
   *
   * @param sqlStatements SQL statements it ran, read at the wire, BEGIN and COMMIT excluded
   * @param roundTrips round trips on the wire, everything included (the COMMIT is one)
   * @param timeMs the median of {@code runsMs}
   * @param slowerThanBest {@code timeMs} over the best time among its question's strategies
   * @param baseMs T(0) estimated: timeMs minus roundTrips x the measured added RTT
   * @param predictedMs T(L) = baseMs + roundTrips x L at {@link #PREDICTED_AT}: predicted,
   *     not measured
   */
  public record Row(String strategy, String question, String fetch, long sqlStatements,
      long roundTrips, double timeMs, List<Double> runsMs, double slowerThanBest,
      double baseMs, Map<String, Double> predictedMs) {
  }

  /** The first statements the N+1 sent, and how many there were. */
  public record NPlusOneSql(String strategy, long statements, List<String> first,
      long moreLikeTheLast, long moreOthers) {
  }
}
