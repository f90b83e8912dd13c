package io.github.latencylab.gate;

/**
 * The standard normal distribution's upper tail, for the time gate's threshold: {@code
 * probability(z)} = P(Z > z) and its inverse. Integrated numerically (Simpson's rule over the
 * density, which is negligible ten beyond z): plain, exact to far more digits than a
 * false-alarm rate needs, and no library on a user's test classpath for it.
 */
final class NormalTail {

  private static final int STEPS = 4_000;
  private static final double WIDTH = 10;

  private NormalTail() {}

  /** P(Z > z) for z of at least 0. */
  static double probability(double z) {
    if (!(z >= 0)) {
      throw new IllegalArgumentException("z must be at least 0, got " + z);
    }
    double h = WIDTH / STEPS;
    double sum = density(z) + density(z + WIDTH);
    for (int i = 1; i < STEPS; i++) {
      sum += (i % 2 == 1 ? 4 : 2) * density(z + i * h);
    }
    return sum * h / 3;
  }

  /** The z with P(Z > z) = p, for 0 < p <= 0.5, by bisection. */
  static double quantile(double p) {
    if (!(p > 0 && p <= 0.5)) {
      throw new IllegalArgumentException("p must be in (0, 0.5], got " + p);
    }
    double lo = 0;
    double hi = 40;
    for (int i = 0; i < 60; i++) {
      double mid = (lo + hi) / 2;
      if (probability(mid) > p) {
        lo = mid;
      } else {
        hi = mid;
      }
    }
    return (lo + hi) / 2;
  }

  private static double density(double x) {
    return Math.exp(-x * x / 2) / Math.sqrt(2 * Math.PI);
  }
}
