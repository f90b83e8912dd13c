package io.github.latencylab.cli;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import com.fasterxml.jackson.databind.ser.std.ToStringSerializer;
import io.github.latencylab.env.LabEnvironment;
import io.github.latencylab.latency.Rtt;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What {@code ./latency-lab demo} measured, as written to {@code --json}: every number was
 * measured in the run, except those under {@code predictions}.
 *
 * @param rtts one entry per RTT the strategies ran at
 * @param predictions per strategy, the model fitted on its runs and its times at
 *     {@link #PREDICTED_AT}
 * @param nPlusOne the SQL the N+1 strategy sent, read at the wire (null if it did not run)
 */
public record DemoReport(String kind, String measuredAt, LabEnvironment environment,
    String hibernateVersion, int parents, int children, String method, List<AtRtt> rtts,
    List<Prediction> predictions, NPlusOneSql nPlusOne, List<String> notes) {

  /** Latencies the text output and the JSON predict times at. */
  public static final Map<String, Rtt> PREDICTED_AT = predictedAt();

  private static Map<String, Rtt> predictedAt() {
    Map<String, Rtt> at = new LinkedHashMap<>();
    at.put("LAN 0.5 ms", Rtt.parse("0.5ms"));
    at.put("cross-region 20 ms", Rtt.parse("20ms"));
    at.put("intercontinental 320 ms", Rtt.parse("320ms"));
    return at;
  }

  /**
   * The strategies at one RTT.
   *
   * @param rtt the configured added RTT, e.g. "20ms"
   * @param addedMeanMs what the Lab measured it adds per round trip (0 at 0 ms)
   * @param probes how many probe round trips measured it (0 at 0 ms)
   */
  public record AtRtt(@JsonSerialize(using = ToStringSerializer.class) Rtt rtt,
      double addedMeanMs, double addedP50Ms, double addedP99Ms, int probes,
      double baselineMeanMs, List<Row> strategies) {

    @JsonProperty("rttMs")
    public double rttMs() {
      return rtt.millis();
    }
  }

  /**
   * One strategy at one RTT.
   *
   * @param sqlStatements SQL statements it ran, read at the wire, BEGIN and COMMIT excluded
   * @param roundTrips round trips on the wire, everything included (the COMMIT is one)
   * @param timeMs the median of {@code runsMs}
   * @param slowerThanBest {@code timeMs} over the best time among its question's strategies
   */
  public record Row(String strategy, String question, String fetch, long sqlStatements,
      long roundTrips, long windowFlights, double timeMs, List<Double> runsMs,
      double slowerThanBest) {
  }

  /**
   * A strategy's time model, T(L) = T0 + (round trips + window flights) x L, fitted on its runs (the
   * {@link io.github.latencylab.report.LatencyModel}), and its times at {@link #PREDICTED_AT}.
   *
   * @param fittedSlope the least-squares slope of its runs' times against the added RTT, for
   *     comparison with its round trips (NaN from one RTT)
   * @param fittedOn the RTTs of the runs it was fitted on
   * @param predictedMs its time at each of {@link #PREDICTED_AT}: predicted, not measured
   * @param uncertain the latencies far below {@code fittedOn}, where a prediction is the small
   *     difference of two large times
   */
  public record Prediction(String strategy, double t0Ms, double roundTrips, double fittedSlope,
      @JsonSerialize(contentUsing = ToStringSerializer.class) List<Rtt> fittedOn,
      Map<String, Double> predictedMs, List<String> uncertain) {
  }

  /** The first statements the N+1 sent, and how many there were. */
  public record NPlusOneSql(String strategy, long statements, List<String> first,
      long moreLikeTheLast, long moreOthers) {
  }
}
