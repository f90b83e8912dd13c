package io.github.latencylab.report;

import io.github.latencylab.latency.RttStats;
import io.github.latencylab.report.SvgCharts.Svg;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * A histogram of the added round-trip time at one RTT setting, as standalone SVG: each series
 * (e.g. whole-millisecond toxics before, latency_us toxics after) as the share of its samples
 * per bin, outlined, over one axis in milliseconds, with the setting marked. The axis covers
 * every series' p1 to p99; samples beyond (load spikes, mostly) are counted in the legend, not
 * drawn.
 */
public final class AddedRttHistogram {

  /** One series: its name and its samples of the added RTT in milliseconds. */
  public record Series(String name, List<Double> addedMs) {
  }

  private static final int W = 980;
  private static final int H = 460;
  private static final int LEFT = 84;
  private static final int LEGEND = 330;
  private static final int TOP = 84;
  private static final int BOTTOM = 62;
  private static final int BINS = 80;

  private AddedRttHistogram() {
  }

  /** The chart for the setting {@code settingMs}; series drawn in order, the last in blue. */
  public static String svg(String title, double settingMs, List<Series> series) {
    Svg svg = new Svg(W, H, title);
    svg.text(24, 30, "start", 18, "bold", SvgCharts.INK, title);
    svg.text(24, 52, "start", 12.5, "normal", SvgCharts.MUTED, "Each sample: one probe's round"
        + " trip through the toxic proxy minus the probe through its toxic-free twin right"
        + " before it. Bars: share of the samples.");
    double plotRight = W - LEGEND;
    double plotBottom = H - BOTTOM;

    double[] range = range(settingMs, series);
    double lo = range[0];
    double hi = range[1];
    double width = (hi - lo) / BINS;

    double[][] shares = new double[series.size()][BINS];
    double top = 0;
    for (int k = 0; k < series.size(); k++) {
      List<Double> values = series.get(k).addedMs();
      for (double v : values) {
        int bin = (int) Math.floor((v - lo) / width);
        if (bin >= 0 && bin < BINS) {
          shares[k][bin] += 100.0 / values.size();
        }
      }
      top = Math.max(top, Arrays.stream(shares[k]).max().orElse(0));
    }
    double yStep = SvgCharts.niceStep(Math.max(top, 1) / 5);
    double yMax = Math.ceil(Math.max(top, 1) / yStep) * yStep;

    // grid and axes
    for (double v = 0; v <= yMax + 1e-9; v += yStep) {
      double py = plotBottom - v / yMax * (plotBottom - TOP);
      svg.line(LEFT, py, plotRight, py, SvgCharts.GRID, 1, null);
      svg.text(LEFT - 8, py + 4, "end", 12, "normal", SvgCharts.INK, Format.number(v) + "%");
    }
    double xStep = SvgCharts.niceStep((hi - lo) / 8);
    for (double t = Math.ceil(lo / xStep) * xStep; t <= hi + 1e-9; t += xStep) {
      double px = x(t, lo, hi, plotRight);
      svg.line(px, plotBottom, px, plotBottom + 5, SvgCharts.INK, 1, null);
      svg.text(px, plotBottom + 19, "middle", 12, "normal", SvgCharts.INK,
          Format.number(Math.round(t / xStep) * xStep));
    }
    svg.line(LEFT, plotBottom, plotRight, plotBottom, SvgCharts.INK, 1.2, null);
    svg.line(LEFT, TOP, LEFT, plotBottom, SvgCharts.INK, 1.2, null);
    svg.text((LEFT + plotRight) / 2, H - 16, "middle", 13, "normal", SvgCharts.INK,
        "added round-trip time (ms)");
    svg.verticalText(20, (TOP + plotBottom) / 2, 13, SvgCharts.INK, "share of round trips");

    // the series as outlined steps, lightly filled
    for (int k = 0; k < series.size(); k++) {
      String color = color(k, series.size());
      StringBuilder d = new StringBuilder(String.format(Locale.ROOT, "M%.1f %.1f", LEFT * 1.0,
          plotBottom));
      for (int b = 0; b < BINS; b++) {
        double py = plotBottom - shares[k][b] / yMax * (plotBottom - TOP);
        d.append(String.format(Locale.ROOT, " L%.1f %.1f L%.1f %.1f",
            x(lo + b * width, lo, hi, plotRight), py, x(lo + (b + 1) * width, lo, hi, plotRight),
            py));
      }
      d.append(String.format(Locale.ROOT, " L%.1f %.1f Z", plotRight, plotBottom));
      svg.open("g", "class", "series", "data-series", series.get(k).name());
      svg.area(d.toString(), color, 0.18, 1.6);
      svg.close("g");
    }
    double setting = x(settingMs, lo, hi, plotRight);
    svg.line(setting, TOP - 6, setting, plotBottom, SvgCharts.INK, 1.4, "5 4");
    svg.text(setting, TOP - 10, "middle", 12, "bold", SvgCharts.INK,
        "setting " + Format.number(settingMs) + " ms");

    // legend: name, then mean, p50, p99 and what lies off the axis
    double lx = plotRight + 28;
    double ly = TOP + 4;
    for (int k = 0; k < series.size(); k++) {
      String color = color(k, series.size());
      List<Double> values = series.get(k).addedMs();
      svg.rect(lx, ly - 11, 22, 12, color, color, null, series.get(k).name());
      svg.text(lx + 30, ly, "start", 12.5, "bold", SvgCharts.INK, series.get(k).name());
      if (!values.isEmpty()) {
        RttStats stats = stats(series.get(k));
        long off = values.stream().filter(v -> v < lo || v >= lo + BINS * width).count();
        svg.text(lx + 30, ly + 17, "start", 11.5, "normal", SvgCharts.MUTED, String.format(
            Locale.ROOT, "mean %.3f, p50 %.3f, p99 %.3f ms", stats.meanMs(), stats.p50Ms(),
            stats.p99Ms()));
        svg.text(lx + 30, ly + 32, "start", 11.5, "normal", SvgCharts.MUTED, String.format(
            Locale.ROOT, "%,d samples%s", values.size(),
            off == 0 ? "" : String.format(Locale.ROOT, ", %,d off the axis", off)));
      }
      ly += 56;
    }
    return svg.end();
  }

  // the last series (this run) in blue, an earlier one in orange
  private static String color(int k, int n) {
    return SvgCharts.COLORS[(n - 1 - k) % SvgCharts.COLORS.length];
  }

  /** The axis: every series' p1 to p99 and the setting, padded by 5%. */
  private static double[] range(double settingMs, List<Series> series) {
    double lo = settingMs;
    double hi = settingMs;
    for (Series s : series) {
      if (!s.addedMs().isEmpty()) {
        RttStats stats = stats(s);
        lo = Math.min(lo, stats.p1Ms());
        hi = Math.max(hi, stats.p99Ms());
      }
    }
    double pad = Math.max(0.02, (hi - lo) * 0.05);
    return new double[] {lo - pad, hi + pad};
  }

  private static double x(double v, double lo, double hi, double plotRight) {
    return LEFT + (v - lo) / (hi - lo) * (plotRight - LEFT);
  }

  private static RttStats stats(Series s) {
    return RttStats.of(s.addedMs().stream().mapToDouble(Double::doubleValue).toArray());
  }
}
