package io.github.latencylab.demo;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A small log-log line chart, time against added RTT, written as SVG by hand: one line per
 * strategy, solid through measured points, dashed where predicted.
 */
final class SvgChart {

  /** A point of a series: measured, or predicted by the model. */
  record Point(double rttMs, double timeMs, boolean measured) {
  }

  record Series(String label, List<Point> points) {
  }

  private static final String[] COLORS = {"#d62728", "#1f77b4", "#2ca02c", "#ff7f0e",
      "#9467bd", "#8c564b", "#e377c2", "#17becf", "#7f7f7f", "#bcbd22"};
  private static final double[] X_TICKS = {0.5, 1, 2, 5, 10, 20, 40, 80, 160, 320};

  private static final int WIDTH = 960;
  private static final int HEIGHT = 560;
  private static final int LEFT = 80;
  private static final int RIGHT = 250;
  private static final int TOP = 70;
  private static final int BOTTOM = 60;

  private SvgChart() {
  }

  static String render(String title, String subtitle, String legendNote, List<Series> series) {
    double xMin = 0.5;
    double xMax = 320;
    double yMin = Double.MAX_VALUE;
    double yMax = 0;
    for (Series s : series) {
      for (Point p : s.points()) {
        xMin = Math.min(xMin, p.rttMs());
        xMax = Math.max(xMax, p.rttMs());
        yMin = Math.min(yMin, p.timeMs());
        yMax = Math.max(yMax, p.timeMs());
      }
    }
    if (yMax <= 0) {
      yMin = 1;
      yMax = 10;
    }
    double lyMin = Math.floor(Math.log10(Math.max(yMin, 0.01)));
    double lyMax = Math.ceil(Math.log10(yMax));
    if (lyMax <= lyMin) {
      lyMax = lyMin + 1;
    }
    Scale x = new Scale(Math.log10(xMin), Math.log10(xMax), LEFT, WIDTH - RIGHT);
    Scale y = new Scale(lyMin, lyMax, HEIGHT - BOTTOM, TOP);

    StringBuilder svg = new StringBuilder();
    svg.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\""
        + " height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"Helvetica, Arial, sans-serif\""
        + " font-size=\"13\">%n", WIDTH, HEIGHT, WIDTH, HEIGHT));
    svg.append(String.format(Locale.ROOT,
        "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>%n", WIDTH, HEIGHT));
    text(svg, LEFT, 28, "start", "font-size=\"18\" font-weight=\"bold\"", title);
    text(svg, LEFT, 50, "start", "fill=\"#555\"", subtitle);

    // grid and axes
    for (double ly = lyMin; ly <= lyMax + 1e-9; ly++) {
      double py = y.at(ly);
      line(svg, LEFT, py, WIDTH - RIGHT, py, "#ddd", 1, false);
      text(svg, LEFT - 8, py + 4, "end", "", timeLabel(Math.pow(10, ly)));
    }
    for (double t : X_TICKS) {
      if (t < xMin || t > xMax) {
        continue;
      }
      double px = x.at(Math.log10(t));
      line(svg, px, TOP, px, HEIGHT - BOTTOM, "#eee", 1, false);
      text(svg, px, HEIGHT - BOTTOM + 18, "middle", "", (t < 1 ? "0.5" : fmt(t)) + "");
    }
    line(svg, LEFT, HEIGHT - BOTTOM, WIDTH - RIGHT, HEIGHT - BOTTOM, "#333", 1, false);
    line(svg, LEFT, TOP, LEFT, HEIGHT - BOTTOM, "#333", 1, false);
    text(svg, (LEFT + WIDTH - RIGHT) / 2.0, HEIGHT - 18, "middle", "",
        "added round-trip time (ms, log scale)");
    svg.append(String.format(Locale.ROOT, "<text x=\"20\" y=\"%.1f\" text-anchor=\"middle\""
        + " transform=\"rotate(-90 20 %.1f)\">time (log scale)</text>%n",
        (TOP + HEIGHT - BOTTOM) / 2.0, (TOP + HEIGHT - BOTTOM) / 2.0));

    // series, legend sorted by the slowest end
    List<Series> ordered = new ArrayList<>(series);
    ordered.sort((a, b) -> Double.compare(last(b), last(a)));
    double legendY = TOP + 6;
    for (int i = 0; i < ordered.size(); i++) {
      Series s = ordered.get(i);
      String color = COLORS[i % COLORS.length];
      List<Point> points = s.points().stream().filter(p -> p.timeMs() > 0).toList();
      for (int k = 1; k < points.size(); k++) {
        Point a = points.get(k - 1);
        Point b = points.get(k);
        line(svg, x.at(Math.log10(a.rttMs())), y.at(Math.log10(a.timeMs())),
            x.at(Math.log10(b.rttMs())), y.at(Math.log10(b.timeMs())), color, 2,
            !(a.measured() && b.measured()));
      }
      for (Point p : points) {
        if (p.measured()) {
          svg.append(String.format(Locale.ROOT,
              "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"%s\"/>%n",
              x.at(Math.log10(p.rttMs())), y.at(Math.log10(p.timeMs())), color));
        }
      }
      line(svg, WIDTH - RIGHT + 20, legendY, WIDTH - RIGHT + 44, legendY, color, 3, false);
      text(svg, WIDTH - RIGHT + 50, legendY + 4, "start", "", s.label() + "  "
          + timeLabel(last(s)));
      legendY += 20;
    }
    text(svg, WIDTH - RIGHT + 20, legendY + 10, "start", "fill=\"#555\" font-size=\"11\"",
        legendNote);
    svg.append("</svg>\n");
    return svg.toString();
  }

  private static double last(Series s) {
    return s.points().isEmpty() ? 0 : s.points().get(s.points().size() - 1).timeMs();
  }

  private record Scale(double from, double to, double pixelFrom, double pixelTo) {
    double at(double v) {
      return pixelFrom + (v - from) / (to - from) * (pixelTo - pixelFrom);
    }
  }

  private static void line(StringBuilder svg, double x1, double y1, double x2, double y2,
      String color, double width, boolean dashed) {
    svg.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\""
        + " y2=\"%.1f\" stroke=\"%s\" stroke-width=\"%s\"%s/>%n", x1, y1, x2, y2, color,
        fmt(width), dashed ? " stroke-dasharray=\"6 4\"" : ""));
  }

  private static void text(StringBuilder svg, double x, double y, String anchor, String attrs,
      String content) {
    svg.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\"%s>%s"
        + "</text>%n", x, y, anchor, attrs.isEmpty() ? "" : " " + attrs, escape(content)));
  }

  static String timeLabel(double ms) {
    if (ms >= 1000) {
      return fmt(ms / 1000) + " s";
    }
    return fmt(ms) + " ms";
  }

  private static String fmt(double v) {
    if (v >= 100 || v == Math.rint(v)) {
      return String.format(Locale.ROOT, "%.0f", v);
    }
    return String.format(Locale.ROOT, v >= 10 ? "%.1f" : "%.2f", v).replaceAll("0+$", "")
        .replaceAll("\\.$", "");
  }

  static String escape(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }
}
