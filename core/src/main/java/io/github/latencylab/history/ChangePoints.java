package io.github.latencylab.history;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * Change points in a series of times, found as Apache Otava (formerly DataStax's Hunter) finds
 * them: E-divisive means (Matteson and James, 2014) whose splits are accepted by a two-sided
 * Student t-test instead of permutations, in Otava's two steps (Fleming et al., "Hunter: Using
 * Change Point Detection to Hunt for Performance Regressions", ICPE 2023):
 * <ol>
 *   <li>split: in sliding windows of {@value #WINDOW} points (half a window apart), E-divisive
 *   picks the split that maximises the energy statistic Q among the current intervals and
 *   keeps it while the t-test of the interval's two sides gives p &le; 10 &times;
 *   {@value #MAX_P_VALUE} (the "weak" change points);</li>
 *   <li>merge: the weakest point (largest p, or with every p below {@value #MAX_P_VALUE} the
 *   smallest relative change, when not above {@value #MIN_MAGNITUDE}) is dropped and its
 *   neighbours re-tested against their new intervals, until all pass.</li>
 * </ol>
 * These are Otava's defaults (window 50, max p-value 0.001, min magnitude 0). Its t-test is
 * reproduced as it is: the two sides' standard deviations are population ones (n, not n - 1),
 * pooled as Student's equal-variance test pools them. Written here in plain Java: core depends
 * on no statistics library.
 */
public final class ChangePoints {

  /** Otava's window: the split step looks at this many points at a time. */
  public static final int WINDOW = 50;
  /** Otava's default: a change point's t-test must give p at most this. */
  public static final double MAX_P_VALUE = 0.001;
  /** Otava's default: a change point's relative change must be above this. */
  public static final double MIN_MAGNITUDE = 0.0;

  private ChangePoints() {
  }

  /**
   * A change point: the series is different from {@code index} on.
   *
   * @param index the first point of the new level
   * @param meanBefore the mean of the points from the previous change point (or the start)
   * @param meanAfter the mean of the points up to the next change point (or the end)
   * @param pValue the two-sided t-test's p-value of those two sides
   */
  public record Point(int index, double meanBefore, double meanAfter, double pValue) {

    /** The relative change, after over before, minus one: +0.54 for +54%. */
    public double change() {
      return meanBefore == 0 ? 0 : meanAfter / meanBefore - 1;
    }

    /** Otava's magnitude: the larger of the relative changes forwards and backwards. */
    double magnitude() {
      double backward = meanAfter == 0 ? 0 : meanBefore / meanAfter - 1;
      return Math.max(Math.abs(change()), Math.abs(backward));
    }
  }

  /** The change points of {@code series} with Otava's defaults, in order. */
  public static List<Point> of(double[] series) {
    return of(series, WINDOW, MAX_P_VALUE, MIN_MAGNITUDE);
  }

  /** The change points of {@code series}, in order. */
  public static List<Point> of(double[] series, int window, double maxPValue,
      double minMagnitude) {
    if (window < 2) {
      throw new IllegalArgumentException("Invalid change point window " + window
          + ": at least 2");
    }
    // the split step is lenient, as Otava's: the merge step applies maxPValue
    double firstPass = maxPValue < 0.05 ? maxPValue * 10
        : maxPValue < 0.5 ? maxPValue * 2 : maxPValue;
    List<Integer> weak = split(series, window, firstPass);
    return merge(series, weak, maxPValue, minMagnitude);
  }

  private static List<Integer> split(double[] series, int window, double maxPValue) {
    List<Integer> found = new ArrayList<>();
    int step = window / 2;
    int start = 0;
    while (start < series.length) {
      int end = Math.min(start + window, series.length);
      List<Integer> inWindow = divisive(Arrays.copyOfRange(series, start, end), maxPValue);
      int last = 0;
      for (int index : inWindow) {
        last = index + start;
        if (!found.contains(last)) {
          found.add(last);
        }
      }
      start = Math.max(last, start + step);
    }
    found.sort(Comparator.naturalOrder());
    return found;
  }

  /** E-divisive on one window: the best split of the current intervals while significant. */
  private static List<Integer> divisive(double[] xs, double maxPValue) {
    List<Integer> points = new ArrayList<>();
    while (true) {
      int[] bounds = bounds(points, xs.length);
      int best = -1;
      double bestQ = Double.NEGATIVE_INFINITY;
      int from = 0;
      int to = 0;
      for (int i = 0; i + 1 < bounds.length; i++) {
        if (bounds[i + 1] - bounds[i] < 2) {
          continue;
        }
        double[] candidate = candidate(xs, bounds[i], bounds[i + 1]);
        if (candidate[1] > bestQ) {
          bestQ = candidate[1];
          best = (int) candidate[0];
          from = bounds[i];
          to = bounds[i + 1];
        }
      }
      if (best < 0 || tTest(xs, from, best, to).pValue() > maxPValue) {
        return points;
      }
      points.add(best);
      points.sort(Comparator.naturalOrder());
    }
  }

  /**
   * The split tau of xs[start, end) and the Q(tau, kappa) it maximises over start < tau <
   * kappa <= end: the energy distance between X = xs[start, tau) and Y = xs[tau, kappa),
   * Q = 2/(m+n) sum|X-Y| - 2m/((m+n)(n-1)) sum|Xi-Xk| - 2n/((m+n)(m-1)) sum|Yj-Yk|
   * (a within-sum's term is 0 when its side has one point). The first maximum wins.
   */
  private static double[] candidate(double[] xs, int start, int end) {
    int bestTau = -1;
    double bestQ = Double.NEGATIVE_INFINITY;
    double withinX = 0; // sum over start <= i < k < tau of |xi - xk|
    for (int tau = start + 1; tau < end; tau++) {
      for (int i = start; i < tau - 1; i++) {
        withinX += Math.abs(xs[i] - xs[tau - 1]);
      }
      int n = tau - start;
      double between = 0;
      double withinY = 0;
      for (int kappa = tau + 1; kappa <= end; kappa++) {
        int y = kappa - 1; // the point kappa adds to Y
        for (int i = start; i < tau; i++) {
          between += Math.abs(xs[i] - xs[y]);
        }
        for (int j = tau; j < y; j++) {
          withinY += Math.abs(xs[j] - xs[y]);
        }
        int m = kappa - tau;
        double q = 2.0 / (m + n) * between
            - (n > 1 ? 2.0 * m / (m + n) / (n - 1) * withinX : 0)
            - (m > 1 ? 2.0 * n / (m + n) / (m - 1) * withinY : 0);
        if (q > bestQ) {
          bestQ = q;
          bestTau = tau;
        }
      }
    }
    return new double[] {bestTau, bestQ};
  }

  private static List<Point> merge(double[] series, List<Integer> weak, double maxPValue,
      double minMagnitude) {
    List<Integer> indexes = new ArrayList<>(weak);
    while (!indexes.isEmpty()) {
      List<Point> points = points(series, indexes);
      Point weakest = points.stream().max(Comparator.comparingDouble(Point::pValue))
          .orElseThrow();
      if (weakest.pValue() < maxPValue) {
        weakest = points.stream().min(Comparator.comparingDouble(Point::magnitude))
            .orElseThrow();
        if (weakest.magnitude() > minMagnitude) {
          return points;
        }
      }
      indexes.remove(Integer.valueOf(weakest.index()));
    }
    return List.of();
  }

  /** Each index tested between its neighbours (or the series' ends). */
  private static List<Point> points(double[] series, List<Integer> indexes) {
    int[] bounds = bounds(indexes, series.length);
    List<Point> points = new ArrayList<>();
    for (int i = 1; i + 1 < bounds.length; i++) {
      points.add(tTest(series, bounds[i - 1], bounds[i], bounds[i + 1]));
    }
    return points;
  }

  private static int[] bounds(List<Integer> points, int length) {
    int[] bounds = new int[points.size() + 2];
    for (int i = 0; i < points.size(); i++) {
      bounds[i + 1] = points.get(i);
    }
    bounds[bounds.length - 1] = length;
    return bounds;
  }

  /** Student's two-sided t-test of xs[from, at) against xs[at, to), as Otava computes it. */
  static Point tTest(double[] xs, int from, int at, int to) {
    int n1 = at - from;
    int n2 = to - at;
    double m1 = mean(xs, from, at);
    double m2 = mean(xs, at, to);
    if (n1 + n2 <= 2) {
      return new Point(at, m1, m2, 1);
    }
    double v1 = n1 >= 2 ? populationVariance(xs, from, at, m1) : 0;
    double v2 = n2 >= 2 ? populationVariance(xs, at, to, m2) : 0;
    int df = n1 + n2 - 2;
    double pooled = ((n1 - 1) * v1 + (n2 - 1) * v2) / df;
    double se = Math.sqrt(pooled * (1.0 / n1 + 1.0 / n2));
    double p;
    if (se == 0) {
      p = m1 == m2 ? 1 : 0; // no spread: any difference is certain, none is none
    } else {
      double t = (m2 - m1) / se;
      p = Student.twoSidedP(t, df);
    }
    return new Point(at, m1, m2, p);
  }

  static double mean(double[] xs, int from, int to) {
    double sum = 0;
    for (int i = from; i < to; i++) {
      sum += xs[i];
    }
    return sum / (to - from);
  }

  private static double populationVariance(double[] xs, int from, int to, double mean) {
    double ss = 0;
    for (int i = from; i < to; i++) {
      ss += (xs[i] - mean) * (xs[i] - mean);
    }
    return ss / (to - from);
  }

  /** Student's t distribution: its two-sided tail by the regularized incomplete beta. */
  static final class Student {

    private Student() {
    }

    /** P(|T| >= |t|) for T with {@code df} degrees of freedom. */
    static double twoSidedP(double t, double df) {
      if (Double.isNaN(t)) {
        return 1;
      }
      if (Double.isInfinite(t)) {
        return 0;
      }
      return incompleteBeta(df / (df + t * t), df / 2, 0.5);
    }

    /** I_x(a, b), by its continued fraction (Lentz), on the side where it converges fast. */
    static double incompleteBeta(double x, double a, double b) {
      if (x <= 0) {
        return 0;
      }
      if (x >= 1) {
        return 1;
      }
      double front = Math.exp(logGamma(a + b) - logGamma(a) - logGamma(b)
          + a * Math.log(x) + b * Math.log(1 - x));
      if (x < (a + 1) / (a + b + 2)) {
        return front * continuedFraction(x, a, b) / a;
      }
      return 1 - front * continuedFraction(1 - x, b, a) / b;
    }

    private static double continuedFraction(double x, double a, double b) {
      final double tiny = 1e-300;
      double c = 1;
      double d = 1 - (a + b) * x / (a + 1);
      d = 1 / (Math.abs(d) < tiny ? tiny : d);
      double h = d;
      for (int m = 1; m <= 300; m++) {
        int m2 = 2 * m;
        double aa = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
        d = 1 / nonZero(1 + aa * d, tiny);
        c = nonZero(1 + aa / c, tiny);
        h *= d * c;
        aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
        d = 1 / nonZero(1 + aa * d, tiny);
        c = nonZero(1 + aa / c, tiny);
        double delta = d * c;
        h *= delta;
        if (Math.abs(delta - 1) < 1e-15) {
          break;
        }
      }
      return h;
    }

    private static double nonZero(double v, double tiny) {
      return Math.abs(v) < tiny ? tiny : v;
    }

    /** ln Gamma(x) for x > 0 (Lanczos, g = 7, nine terms: 15 digits). */
    static double logGamma(double x) {
      if (x < 0.5) {
        return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - logGamma(1 - x);
      }
      double[] g = {0.99999999999980993, 676.5203681218851, -1259.1392167224028,
          771.32342877765313, -176.61502916214059, 12.507343278686905,
          -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7};
      x -= 1;
      double sum = g[0];
      for (int i = 1; i < g.length; i++) {
        sum += g[i] / (x + i);
      }
      double t = x + 7.5;
      return 0.5 * Math.log(2 * Math.PI) + (x + 0.5) * Math.log(t) - t + Math.log(sum);
    }
  }
}
