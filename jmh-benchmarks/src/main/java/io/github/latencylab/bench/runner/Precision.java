package io.github.latencylab.bench.runner;

import io.github.latencylab.report.TimeSpread;
import java.time.Duration;
import org.apache.commons.math3.distribution.TDistribution;

/**
 * What a profile asks of a measured cell's time: its 99.9% interval (JMH's) within
 * {@code widest} of its mean. A cell wider after its iterations is measured again in another
 * fork, with the iterations its spread says it lacks, while its budget allows, at most
 * {@code rounds} times; the forks' iterations are pooled as JMH pools its own forks'. A cell
 * still wider is marked noisy and says why ({@link TimeSpread}).
 */
record Precision(double widest, int rounds) {

  /**
   * The measurement iterations to add to {@code n} samples whose interval is {@code relative}
   * of the mean for it to narrow to {@link #widest}, their scatter staying what it is: the
   * fewest m for which t(m - 1) x CV / sqrt(m) is within it, CV read back from the interval
   * (relative x sqrt(n) / t(n - 1)); at least 2, and 2 where n gives no interval.
   */
  int more(int n, double relative) {
    if (n < 2 || !Double.isFinite(relative)) {
      return 2;
    }
    double cv = relative * Math.sqrt(n) / t(n - 1);
    int m = n + 2;
    while (t(m - 1) * cv / Math.sqrt(m) > widest && m < MOST) {
      m++;
    }
    return m - n;
  }

  /** Samples a cell is never planned beyond: its budget stops it long before. */
  private static final int MOST = 10_000;

  /** Student's t at the interval's level, two-sided, as JMH computes its error. */
  private static double t(int degreesOfFreedom) {
    return new TDistribution(degreesOfFreedom)
        .inverseCumulativeProbability(1 - (1 - TimeSpread.CONFIDENCE) / 2);
  }

  /**
   * How many of {@code wanted} more iterations fit in what is left of {@code limit} after
   * {@code spent}: another fork starts and warms up first, each iteration lasts at least an
   * operation.
   */
  static int fitting(int wanted, Iterations its, double opMs, Duration limit, Duration spent) {
    double left = limit.toMillis() - spent.toMillis() - Shard.FORK_START_MS
        - its.warmups() * Math.max(opMs, its.warmupTime().toMillis());
    double each = Math.max(opMs, its.measurementTime().toMillis());
    return (int) Math.max(0, Math.min(wanted, Math.floor(left / each)));
  }
}
