package io.github.latencylab.report;

import java.util.Arrays;
import java.util.List;

/** The median of a few repeated measurements, which one slow run on a shared machine cannot move. */
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
}
