package io.github.latencylab.latency;

/**
 * What a latency setting really did: the configured RTT, the toxics that realised it, the
 * baseline round trip through the proxy without toxics, and the round trip with them. The
 * added RTT is the difference: mean minus mean, p50 minus p50, p99 minus p99.
 */
public record RttMeasurement(Rtt configured, ToxicPlan plan, RttStats baseline,
    RttStats withToxics) {

  public double addedMeanMs() {
    return withToxics.meanMs() - baseline.meanMs();
  }

  public double addedP50Ms() {
    return withToxics.p50Ms() - baseline.p50Ms();
  }

  public double addedP99Ms() {
    return withToxics.p99Ms() - baseline.p99Ms();
  }

  /** Measured added mean relative to the configured RTT: 0.03 is 3% too slow. */
  public double relativeError() {
    return configured.micros() == 0 ? 0 : addedMeanMs() / configured.millis() - 1;
  }
}
