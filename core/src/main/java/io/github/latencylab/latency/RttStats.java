package io.github.latencylab.latency;

import java.util.Arrays;

/** Round-trip times of a series of probes, in milliseconds. */
public record RttStats(int samples, double meanMs, double p50Ms, double p99Ms, double minMs,
    double maxMs) {

  public static RttStats of(double[] millis) {
    if (millis.length == 0) {
      throw new IllegalArgumentException("no samples");
    }
    double[] sorted = millis.clone();
    Arrays.sort(sorted);
    return new RttStats(sorted.length, Arrays.stream(sorted).average().orElseThrow(),
        percentile(sorted, 50), percentile(sorted, 99), sorted[0], sorted[sorted.length - 1]);
  }

  // nearest rank: a value that was really observed
  private static double percentile(double[] sorted, double p) {
    int rank = (int) Math.ceil(p / 100.0 * sorted.length);
    return sorted[Math.max(0, rank - 1)];
  }
}
