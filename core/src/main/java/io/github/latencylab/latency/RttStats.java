package io.github.latencylab.latency;

import java.util.Arrays;

/**
 * A series of round-trip times (or of added round-trip times), in milliseconds: mean, spread
 * (standard deviation, p1 to p99) and median. Percentiles are nearest-rank: values that were
 * really observed.
 */
public record RttStats(int samples, double meanMs, double stddevMs, double minMs, double p1Ms,
    double p50Ms, double p99Ms, double maxMs) {

  public static RttStats of(double[] millis) {
    if (millis.length == 0) {
      throw new IllegalArgumentException("no samples");
    }
    double[] sorted = millis.clone();
    Arrays.sort(sorted);
    double mean = Arrays.stream(sorted).average().orElseThrow();
    double squares = 0;
    for (double v : sorted) {
      squares += (v - mean) * (v - mean);
    }
    double stddev = sorted.length < 2 ? 0 : Math.sqrt(squares / (sorted.length - 1));
    return new RttStats(sorted.length, mean, stddev, sorted[0], percentile(sorted, 1),
        percentile(sorted, 50), percentile(sorted, 99), sorted[sorted.length - 1]);
  }

  private static double percentile(double[] sorted, double p) {
    int rank = (int) Math.ceil(p / 100.0 * sorted.length);
    return sorted[Math.max(0, rank - 1)];
  }
}
