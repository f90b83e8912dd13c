package io.github.latencylab.report;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * How a measured cell's time per operation spread over its samples: JMH's measurement
 * iterations of every fork (one operation each where an operation outlasts an iteration). Their
 * median and interquartile range say more than the mean's interval when a few samples are far
 * out; a cell whose interval stayed wider than its run asked says why.
 *
 * @param samples the iterations behind the mean
 * @param medianMs their median
 * @param q1Ms their first quartile
 * @param q3Ms their third quartile
 * @param noisy why the mean's interval is wider than the run asked, or null when it is not (or
 *     the run asked nothing)
 */
public record TimeSpread(int samples, double medianMs, double q1Ms, double q3Ms, String noisy) {

  /** The level of the mean's interval: JMH's. */
  public static final double CONFIDENCE = 0.999;

  /** A later half's median this far from the earlier half's is a drift, not scatter. */
  private static final double DRIFT = 1.10;

  /**
   * The spread of {@code samplesMs}, whose mean's half-width at {@link #CONFIDENCE} is
   * {@code errorMs}; where that is wider than {@code widest} of the mean (0: nothing asked),
   * why: samples far out (beyond Tukey's outer fences, Q1 - 3 IQR and Q3 + 3 IQR), a drift
   * (the later half's median against the earlier half's), the few samples a budget held
   * ({@code budgetSpent}), or else their scatter.
   */
  public static TimeSpread of(double[] samplesMs, double meanMs, double errorMs, double widest,
      boolean budgetSpent) {
    if (samplesMs.length == 0) {
      throw new IllegalArgumentException("no samples");
    }
    double[] sorted = samplesMs.clone();
    Arrays.sort(sorted);
    double median = Median.quantile(sorted, 0.5);
    double q1 = Median.quantile(sorted, 0.25);
    double q3 = Median.quantile(sorted, 0.75);
    double relative = errorMs / meanMs;
    String noisy = null;
    if (widest > 0 && !(relative <= widest)) {
      noisy = String.format(Locale.ROOT, "\u00b1 %s of the mean (asked: %s): %s",
          percent(relative), percent(widest), String.join("; ",
              why(samplesMs, sorted, median, q1, q3, meanMs, budgetSpent)));
    }
    return new TimeSpread(sorted.length, median, q1, q3, noisy);
  }

  private static List<String> why(double[] inOrder, double[] sorted, double median, double q1,
      double q3, double mean, boolean budgetSpent) {
    List<String> why = new ArrayList<>();
    int n = sorted.length;
    double iqr = q3 - q1;
    long far = Arrays.stream(sorted).filter(x -> x > q3 + 3 * iqr || x < q1 - 3 * iqr).count();
    if (far > 0) {
      why.add(String.format(Locale.ROOT, "%d of %d samples far out (the slowest %.2fx the"
          + " median): the median and IQR say more", far, n, sorted[n - 1] / median));
    }
    if (n >= 6) {
      double earlier = Median.of(Arrays.copyOfRange(inOrder, 0, n / 2));
      double later = Median.of(Arrays.copyOfRange(inOrder, n - n / 2, n));
      double drift = later / earlier;
      if (drift > DRIFT || drift < 1 / DRIFT) {
        why.add(String.format(Locale.ROOT, "a drift: the later samples' median %.2fx the"
            + " earlier's", drift));
      }
    }
    if (budgetSpent) {
      why.add(n + " samples, what the cell's budget held");
    }
    if (why.isEmpty()) {
      double squares = 0;
      for (double x : sorted) {
        squares += (x - mean) * (x - mean);
      }
      double sd = n < 2 ? Double.NaN : Math.sqrt(squares / (n - 1));
      why.add(String.format(Locale.ROOT, "the samples scatter (CV %s over %d)",
          percent(sd / mean), n));
    }
    return why;
  }

  /** "10.1%", "10%", "154%": up to the next tenth, so that 10.03% never reads as the 10% asked. */
  static String percent(double fraction) {
    String text = fraction < 1
        ? String.format(Locale.ROOT, "%.1f", Math.ceil(fraction * 1000 - 1e-9) / 10)
        : String.format(Locale.ROOT, "%.0f", fraction * 100);
    return (text.endsWith(".0") ? text.substring(0, text.length() - 2) : text) + "%";
  }

  /** "median 12.1 ms (IQR 11.8 ms-12.6 ms, 12 samples)". */
  public String describe() {
    return "median " + Format.duration(medianMs) + " (IQR " + Format.duration(q1Ms) + "\u2013"
        + Format.duration(q3Ms) + ", " + samples + " samples)";
  }
}
