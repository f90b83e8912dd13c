package io.github.latencylab.report;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
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
  /**
   * A cell's server counters in a few words: "1 commit, 412 B WAL, 1 WAL flush, 99.8% hit"
   * (with the temp bytes and blocks read when there are any); "-" without counters.
   */
  public static String serverCounters(Map<String, Double> server) {
    if (server.isEmpty()) {
      return "-";
    }
    List<String> parts = new ArrayList<>();
    Double commits = server.get("commitsPerOp");
    if (commits != null) {
      parts.add(count(commits) + (Math.abs(commits - 1) < 0.005 ? " commit" : " commits"));
    }
    Double wal = server.get("walBytesPerOp");
    if (wal != null) {
      parts.add(bytes(wal) + " WAL");
    }
    Double flushes = server.get("walSyncsPerOp");
    if (flushes != null && flushes >= 0.005) {
      parts.add(count(flushes) + " WAL flush" + (Math.abs(flushes - 1) < 0.005 ? "" : "es"));
    }
    Double temp = server.get("tempBytesPerOp");
    if (temp != null && temp > 0) {
      parts.add(bytes(temp) + " temp");
    }
    Double read = server.get("blocksReadPerOp");
    if (read != null && read >= 0.005) {
      parts.add(count(read) + " blocks read");
    }
    Double hit = server.get("cacheHitRatio");
    if (hit != null) {
      parts.add(fixed(100 * hit, 1) + "% hit");
    }
    return String.join(", ", parts);
  }

  /** Bytes in the unit that reads best: 412 B, 8.2 kB, 3.1 MB. */
  public static String bytes(double b) {
    if (b < 1024) {
      return fixed(b, 0) + " B";
    }
    if (b < 1024 * 1024) {
      return fixed(b / 1024, 1) + " kB";
    }
    return fixed(b / (1024 * 1024), 1) + " MB";
  }

  // String.format(Locale.ROOT, "%,.<decimals>f", v), as it rounds (half up, from the shortest
  // decimal that is v), without parsing a format for every number: a suite's report writes
  // thousands
  static String fixed(double v, int decimals) {
    return fixed(v, decimals, true);
  }

  /** String.format(Locale.ROOT, "%.<decimals>f", v): {@link #fixed} without the grouping. */
  static String plain(double v, int decimals) {
    return fixed(v, decimals, false);
  }

  private static String fixed(double v, int decimals, boolean grouped) {
    if (!Double.isFinite(v)) {
      return Double.isNaN(v) ? "NaN" : v > 0 ? "Infinity" : "-Infinity";
    }
    String digits = new BigDecimal(Double.toString(v)).setScale(decimals, RoundingMode.HALF_UP)
        .abs().toPlainString();
    int point = digits.indexOf('.');
    int whole = point < 0 ? digits.length() : point;
    StringBuilder out = new StringBuilder(digits.length() + whole / 3 + 1);
    if (v < 0 && digits.chars().anyMatch(c -> c >= '1' && c <= '9')) {
      out.append('-'); // -0.001 prints "0.00", not "-0.00"
    }
    for (int i = 0; i < whole; i++) {
      if (grouped && i > 0 && (whole - i) % 3 == 0) {
        out.append(',');
      }
      out.append(digits.charAt(i));
    }
    return out.append(digits, whole, digits.length()).toString();
  }
}
