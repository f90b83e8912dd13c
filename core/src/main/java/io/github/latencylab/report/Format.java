package io.github.latencylab.report;

import java.util.Locale;
import java.util.Map;

/**
 * How every table, chart, finding and console line writes numbers: durations in the unit a
 * reader expects, counts with thousands separators, parameters as {@code k=v}.
 */
public final class Format {

  private static final double MINUTE = 60_000;
  private static final double HOUR = 60 * MINUTE;
  private static final double DAY = 24 * HOUR;

  private Format() {
  }

  /**
   * A time in the unit that reads best: 612 µs, 20.40 ms, 612 ms, 5.31 s, 5.3 min, 3.2 h,
   * 3.7 days; "-" when unknown. Never "-0.00 ms": what rounds to zero is zero.
   */
  public static String duration(double ms) {
    if (!Double.isFinite(ms)) {
      return "-";
    }
    // each unit until its rounded value would reach the next unit's threshold
    double abs = Math.abs(ms);
    if (abs < 0.9995) {
      return fixed(ms * 1000, 0) + " µs";
    }
    if (abs < 99.995) {
      return fixed(ms, 2) + " ms";
    }
    if (abs < 999.5) {
      return fixed(ms, 0) + " ms";
    }
    if (abs < 2 * MINUTE - 5) {
      return fixed(ms / 1000, 2) + " s";
    }
    if (abs < 2 * HOUR - 0.05 * MINUTE) {
      return fixed(ms / MINUTE, 1) + " min";
    }
    if (abs < 2 * DAY - 0.05 * HOUR) {
      return fixed(ms / HOUR, 1) + " h";
    }
    return fixed(ms / DAY, 1) + " days";
  }

  /** A round time for an axis: 1 µs, 100 µs, 1 ms, 20 ms, 1 s, 100 s. */
  public static String tick(double ms) {
    if (ms < 1) {
      return number(ms * 1000) + " µs";
    }
    if (ms < 1000) {
      return number(ms) + " ms";
    }
    return number(ms / 1000) + " s";
  }

  /** A count per operation: "1,000" when whole, "2.50" when an average, "-" when unknown. */
  public static String count(double v) {
    if (!Double.isFinite(v)) {
      return "-";
    }
    return v == Math.rint(v) ? fixed(v, 0) : fixed(v, 2);
  }

  /** A plain number, three decimals at most, no trailing zeros: 3, 0.01, 2.5, 1,000. */
  public static String number(double v) {
    if (!Double.isFinite(v)) {
      return String.valueOf(v);
    }
    double r = Math.round(v * 1000) / 1000.0;
    if (r == Math.rint(r)) {
      return fixed(r, 0);
    }
    return fixed(r, 3).replaceAll("0+$", "");
  }

  /** Milliseconds with two decimals, e.g. a measured RTT: "20.64 ms". */
  public static String millis(double ms) {
    return fixed(ms, 2) + " ms";
  }

  /** "rows=1000, batch=100": parameters as the tables show them. */
  public static String params(Map<String, String> params) {
    StringBuilder s = new StringBuilder();
    params.forEach((k, v) -> s.append(s.length() == 0 ? "" : ", ").append(k).append('=')
        .append(v));
    return s.toString();
  }

  /** {@code v} with {@code decimals} decimals and thousands separators, never "-0". */
  private static String fixed(double v, int decimals) {
    double scale = Math.pow(10, decimals);
    if (Math.round(Math.abs(v) * scale) == 0) {
      v = 0; // -0.001 would print "-0.00"
    }
    return String.format(Locale.ROOT, "%,." + decimals + "f", v);
  }
}
