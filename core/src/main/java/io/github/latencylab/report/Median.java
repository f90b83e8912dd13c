package io.github.latencylab.report;

import java.util.Arrays;
import java.util.List;

/**
 * The median of a few repeated measurements, which one slow run on a shared machine cannot
 * move, and the other quantiles.
 */
public final class Median {

  private Median() {
  }

  /** The middle value, or the mean of the two middle values of an even count. */
  public static double of(double[] values) {
    if (values.length == 0) {
      throw new IllegalArgumentException("no values");
    }
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    int n = sorted.length;
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  }

  /** The same of a list. */
  public static double of(List<Double> values) {
    return of(values.stream().mapToDouble(Double::doubleValue).toArray());
  }

  /** The p-quantile of sorted values, interpolated linearly (type 7); NaN of none. */
  public static double quantile(double[] sorted, double p) {
    if (sorted.length == 0) {
      return Double.NaN;
    }
    double h = (sorted.length - 1) * p;
    int lo = (int) Math.floor(h);
    int hi = Math.min(lo + 1, sorted.length - 1);
    return sorted[lo] + (h - lo) * (sorted[hi] - sorted[lo]);
  }
}
