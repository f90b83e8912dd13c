package io.github.latencylab.latency;

import java.util.List;

/**
 * What a latency setting really did, from paired probes: each probe through the proxy with the
 * toxics right after one through its twin without them. {@code added} is the distribution of
 * the pairs' differences (so its p50 and p99 are real round trips' added time, and p50 {@literal <=} p99),
 * {@code baseline} and {@code withToxics} the two series on their own.
 *
 * @param configured the RTT asked for
 * @param plan the toxics that realised it
 * @param baseline round trips through the proxy without toxics
 * @param withToxics round trips through the proxy with the toxics
 * @param added each pair's difference, with toxics minus without
 * @param addedSamplesMs those differences in the order they were measured
 */
public record RttMeasurement(Rtt configured, ToxicPlan plan, RttStats baseline,
    RttStats withToxics, RttStats added, List<Double> addedSamplesMs) {

  public RttMeasurement {
    addedSamplesMs = List.copyOf(addedSamplesMs);
  }

  /** From paired series: {@code withToxicsMs[i]} was measured right after {@code baselineMs[i]}. */
  public static RttMeasurement paired(Rtt configured, ToxicPlan plan, double[] baselineMs,
      double[] withToxicsMs) {
    if (baselineMs.length != withToxicsMs.length) {
      throw new IllegalArgumentException("paired series of different lengths: "
          + baselineMs.length + " and " + withToxicsMs.length);
    }
    double[] added = new double[baselineMs.length];
    Double[] boxed = new Double[added.length];
    for (int i = 0; i < added.length; i++) {
      added[i] = withToxicsMs[i] - baselineMs[i];
      boxed[i] = added[i];
    }
    return new RttMeasurement(configured, plan, RttStats.of(baselineMs),
        RttStats.of(withToxicsMs), RttStats.of(added), List.of(boxed));
  }

  public double addedMeanMs() {
    return added.meanMs();
  }

  public double addedP50Ms() {
    return added.p50Ms();
  }

  public double addedP99Ms() {
    return added.p99Ms();
  }

  /** Measured added mean relative to the configured RTT: 0.03 is 3% too slow. */
  public double relativeError() {
    return configured.micros() == 0 ? 0 : addedMeanMs() / configured.millis() - 1;
  }
}
