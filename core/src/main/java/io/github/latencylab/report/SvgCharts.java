package io.github.latencylab.report;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Charts of a run as standalone SVG, written by hand: per suite and parameters (e.g.
 * InsertBenchmark rows=1000)
 * <ul>
 *   <li>time per operation against the added RTT, log-log, one line per strategy: measured
 *   points filled, predicted ones hollow on dashed segments;</li>
 *   <li>round trips per operation per strategy, horizontal bars, on a log scale when the
 *   values span more than {@value #LOG_SPAN}x.</li>
 * </ul>
 * Colours are the Okabe-Ito palette (colour-blind safe; its yellow left out, too light on
 * white) followed by three of Paul Tol's muted colours, each strategy with its own marker
 * shape too, the same colour for a strategy in every chart of its suite.
 */
public final class SvgCharts {

  /** One chart: what it shows, where it goes, its SVG. */
  record Chart(String suite, Map<String, String> params, Kind kind, String fileName,
      String title, String svg) {
  }

  /** The kinds of chart. */
  enum Kind { TIME_VS_RTT, ROUND_TRIPS }

  /** Round trips go on a log scale when the largest is more than this many times the least. */
  static final int LOG_SPAN = 20;

  public static final String[] COLORS = {"#0072B2", "#D55E00", "#009E73", "#CC79A7",
      "#E69F00", "#56B4E9", "#000000", "#882255", "#999933", "#332288"};
  private static final int SHAPES = 5;
  private static final double[] X_TICKS = {0.5, 1, 2, 5, 10, 20, 50, 100, 200, 320};
  static final String FONT = "system-ui, -apple-system, 'Segoe UI', Roboto,"
      + " 'Helvetica Neue', Arial, sans-serif";
  /** The tests a test report's charts draw, the costliest: report.md lists every one. */
  static final int TESTS_CHARTED = 12;
  public static final String INK = "#222";
  public static final String MUTED = "#666";
  public static final String GRID = "#e4e4e4";
  private static final String GRID_MINOR = "#f2f2f2";
  private static final String JMH_TIME = "Mean time per operation (JMH)";
  private static final String STRATEGY = "strategy";

  private SvgCharts() {
  }

  /** Every chart of the results: per suite and parameters, time against RTT then round trips. */
  static List<Chart> all(Results results) {
    boolean tests = MarkdownReport.isTests(results);
    String timeIs = tests ? "Test time at 0 ms, priced by the model at other RTTs" : JMH_TIME;
    List<Chart> charts = new ArrayList<>();
    ReportWriter.bySuite(results).forEach((suite, cells) -> {
      // a strategy keeps its color across a suite's charts; a test report's chart colors its own
      Map<String, Integer> suiteColors = colors(cells);
      Map<Map<String, String>, List<Cell>> byParams =
          new TreeMap<>(Series::compareParams);
      cells.forEach(m -> byParams.computeIfAbsent(m.params(), k -> new ArrayList<>()).add(m));
      byParams.forEach((params, all) -> {
        List<Cell> group = tests ? costliest(all, TESTS_CHARTED) : all;
        Map<String, Integer> colors = tests ? colors(group) : suiteColors;
        String of = group.size() == all.size() ? "" : " (" + strategies(group)
            + " costliest of " + strategies(all) + " tests)";
        // a test class by its simple name: a package would push the title off the chart
        String shown = tests ? suite.substring(suite.lastIndexOf('.') + 1) : suite;
        String name = fileName(suite, params);
        String timeTitle = timeTitle(shown, params) + of;
        String tripsTitle = roundTripsTitle(shown, params) + of;
        charts.add(new Chart(suite, params, Kind.TIME_VS_RTT, name + "-time.svg", timeTitle,
            timeVsRtt(timeTitle, group, colors, timeIs, tests ? "test" : STRATEGY)));
        charts.add(new Chart(suite, params, Kind.ROUND_TRIPS, name + "-round-trips.svg",
            tripsTitle, roundTrips(tripsTitle, group, colors)));
      });
    });
    return charts;
  }

  /**
   * The cells of the {@code n} tests that cost most at the largest RTT priced: a chart of a
   * suite's hundreds of tests, a line or bar each, is read by nobody (report.md lists them all).
   */
  static List<Cell> costliest(List<Cell> cells, int n) {
    Map<String, Double> cost = new HashMap<>();
    for (Cell c : cells) {
      double t = Double.isFinite(c.timeMs()) ? c.timeMs() : 0;
      cost.merge(c.strategy(), t, Math::max);
    }
    if (cost.size() <= n) {
      return cells;
    }
    Set<String> kept = cost.entrySet().stream()
        .sorted(Map.Entry.<String, Double>comparingByValue().reversed()
            .thenComparing(Map.Entry.comparingByKey()))
        .limit(n).map(Map.Entry::getKey).collect(Collectors.toSet());
    return cells.stream().filter(c -> kept.contains(c.strategy())).toList();
  }

  private static long strategies(List<Cell> cells) {
    return cells.stream().map(Cell::strategy).distinct().count();
  }

  /** Time per operation against RTT for one suite and parameters, one line per strategy. */
  static String timeVsRtt(String suite, Map<String, String> params, List<Cell> cells) {
    return timeVsRtt(timeTitle(suite, params), cells, colors(cells), JMH_TIME, STRATEGY);
  }

  /** The same, for times not measured by JMH: {@code timeIs} says what they are. */
  static String timeVsRtt(String suite, Map<String, String> params,
      List<Cell> cells, String timeIs) {
    return timeVsRtt(timeTitle(suite, params), cells, colors(cells), timeIs, STRATEGY);
  }

  /** Round trips per operation for one suite and parameters, one bar per strategy. */
  static String roundTrips(String suite, Map<String, String> params, List<Cell> cells) {
    return roundTrips(roundTripsTitle(suite, params), cells, colors(cells));
  }

  // ---------------------------------------------------------------- time against RTT

  private static final int W = 980;
  private static final int H = 560;
  private static final int LEFT = 84;
  private static final int LEGEND = 300;
  private static final int TOP = 92;
  private static final int BOTTOM = 62;

  private record Line(String strategy, int color, List<Cell> points) {
    Cell last() {
      return points.get(points.size() - 1);
    }
  }

  // what a line is, for the legend: a benchmark's strategy, a test report's test
  private static String timeVsRtt(String title, List<Cell> cells, Map<String, Integer> colors,
      String timeIs, String lineIs) {
    Map<String, List<Cell>> byStrategy = new TreeMap<>();
    for (Cell m : cells) {
      if (m.rtt().millis() > 0 && m.timeMs() > 0 && Double.isFinite(m.timeMs())) {
        byStrategy.computeIfAbsent(m.strategy(), k -> new ArrayList<>()).add(m);
      }
    }
    List<Line> series = new ArrayList<>();
    byStrategy.forEach((strategy, points) -> {
      points.sort(Comparator.comparing(Cell::rtt));
      series.add(new Line(strategy, colors.getOrDefault(strategy, 0), points));
    });
    // legend in the order the lines end, slowest first
    series.sort(Comparator.comparing((Line s) -> s.last().rtt()).reversed()
        .thenComparing(Comparator.comparingDouble((Line s) -> s.last().timeMs()).reversed()));

    // taller when the legend needs it: 36 px per strategy, its title and the marker key
    int height = Math.max(H, TOP + 26 + 36 * series.size() + 30 + BOTTOM);
    Svg svg = new Svg(W, height, title);
    svg.text(LEFT - 60, 30, "start", 18, "bold", INK, title);
    svg.text(LEFT - 60, 52, "start", 12.5, "normal", MUTED, timeIs
        + " against the added round-trip time, both on log scales.");
    svg.text(LEFT - 60, 68, "start", 12.5, "normal", MUTED, "Filled markers: measured."
        + " Hollow markers on dashed lines: predicted, T(L) = T(L0) + round trips \u00d7"
        + " (L \u2212 L0).");

    double plotRight = W - LEGEND;
    double plotBottom = height - BOTTOM;
    if (series.isEmpty()) {
      svg.text((LEFT + plotRight) / 2, (TOP + plotBottom) / 2, "middle", 14, "normal", MUTED,
          "no time per operation to plot");
      return svg.end();
    }
    double xMin = 0.5;
    double xMax = 320;
    double yMin = Double.MAX_VALUE;
    double yMax = 0;
    for (Line s : series) {
      for (Cell m : s.points()) {
        xMin = Math.min(xMin, m.rtt().millis());
        xMax = Math.max(xMax, m.rtt().millis());
        yMin = Math.min(yMin, m.timeMs());
        yMax = Math.max(yMax, m.timeMs());
      }
    }
    double lxPad = (Math.log10(xMax) - Math.log10(xMin)) * 0.03;
    Scale x = new Scale(Math.log10(xMin) - lxPad, Math.log10(xMax) + lxPad, LEFT, plotRight);
    double lyMin = Math.floor(Math.log10(yMin) + 1e-9);
    double lyMax = Math.ceil(Math.log10(yMax) - 1e-9);
    if (lyMax <= lyMin) {
      lyMax = lyMin + 1;
    }
    Scale y = new Scale(lyMin, lyMax, plotBottom, TOP);

    // grid: decades labelled, 2 and 5 lighter (and labelled when there are few decades)
    boolean labelMinor = lyMax - lyMin <= 2;
    for (double d = lyMin; d <= lyMax + 1e-9; d++) {
      double py = y.at(d);
      svg.line(LEFT, py, plotRight, py, GRID, 1, null);
      svg.text(LEFT - 8, py + 4, "end", 12, "normal", INK, Format.tick(Math.pow(10, d)));
      for (double f : new double[] {2, 5}) {
        double v = Math.log10(f) + d;
        if (v < lyMax) {
          double pm = y.at(v);
          svg.line(LEFT, pm, plotRight, pm, GRID_MINOR, 1, null);
          if (labelMinor) {
            svg.text(LEFT - 8, pm + 4, "end", 11, "normal", MUTED, Format.tick(Math.pow(10, v)));
          }
        }
      }
    }
    for (double t : X_TICKS) {
      if (t < xMin || t > xMax) {
        continue;
      }
      double px = x.at(Math.log10(t));
      svg.line(px, TOP, px, plotBottom, GRID, 1, null);
      svg.line(px, plotBottom, px, plotBottom + 5, INK, 1, null);
      svg.text(px, plotBottom + 19, "middle", 12, "normal", INK, Format.number(t));
    }
    svg.line(LEFT, plotBottom, plotRight, plotBottom, INK, 1.2, null);
    svg.line(LEFT, TOP, LEFT, plotBottom, INK, 1.2, null);
    svg.text((LEFT + plotRight) / 2, height - 16, "middle", 13, "normal", INK,
        "added round-trip time L (ms, log scale)");
    svg.verticalText(20, (TOP + plotBottom) / 2, 13, INK, "time per operation (log scale)");

    // lines, then markers on top
    for (Line s : series) {
      String color = COLORS[s.color() % COLORS.length];
      StringBuilder solid = new StringBuilder();
      List<double[]> dashed = new ArrayList<>();
      for (int k = 1; k < s.points().size(); k++) {
        Cell a = s.points().get(k - 1);
        Cell b = s.points().get(k);
        double[] seg = {x.at(Math.log10(a.rtt().millis())), y.at(Math.log10(a.timeMs())),
            x.at(Math.log10(b.rtt().millis())), y.at(Math.log10(b.timeMs()))};
        if (a.predicted() || b.predicted()) {
          dashed.add(seg);
        } else {
          solid.append(solid.length() == 0 ? String.format(Locale.ROOT, "M%.1f %.1f", seg[0],
              seg[1]) : "").append(String.format(Locale.ROOT, " L%.1f %.1f", seg[2], seg[3]));
        }
      }
      svg.open("g", "class", "series", "data-strategy", s.strategy());
      if (solid.length() > 0) {
        svg.path(solid.toString(), color, 2.2, null);
      }
      for (double[] seg : dashed) {
        svg.line(seg[0], seg[1], seg[2], seg[3], color, 2, "6 4");
      }
      for (Cell m : s.points()) {
        svg.marker(s.color(), x.at(Math.log10(m.rtt().millis())), y.at(Math.log10(m.timeMs())), 4.5,
            m.predicted(), tooltip(m));
      }
      svg.close("g");
    }

    // legend
    double lx = plotRight + 24;
    double ly = TOP + 4;
    svg.text(lx, ly, "start", 12, "bold", INK, lineIs + " (slowest first)");
    ly += 22;
    for (Line s : series) {
      String color = COLORS[s.color() % COLORS.length];
      svg.line(lx, ly - 4, lx + 26, ly - 4, color, 2.2, null);
      svg.marker(s.color(), lx + 13, ly - 4, 4.5, false, null);
      svg.text(lx + 34, ly, "start", 12.5, "normal", INK, s.strategy());
      Cell last = s.last();
      svg.text(lx + 34, ly + 15, "start", 11, "normal", MUTED,
          roundTripsOf(s.points()) + " RT/op \u00b7 " + Format.duration(last.timeMs())
              + " at " + last.rtt() + (last.predicted() ? " (model)" : ""));
      ly += 36;
    }
    ly += 4;
    svg.marker(0, lx + 6, ly - 4, 4.5, false, null, "#555");
    svg.text(lx + 16, ly, "start", 11, "normal", MUTED, "measured");
    svg.marker(0, lx + 86, ly - 4, 4.5, true, null, "#555");
    svg.text(lx + 96, ly, "start", 11, "normal", MUTED, "predicted (model)");
    return svg.end();
  }

  /** Round trips per operation of a series, from a measured cell when there is one. */
  private static String roundTripsOf(List<Cell> points) {
    Cell any = points.stream().filter(m -> !m.predicted()).findFirst()
        .orElse(points.get(0));
    return (any.predicted() ? "\u2248" : "") + Format.count(any.roundTripsPerOp());
  }

  // ---------------------------------------------------------------- round trips

  private record Bar(String strategy, int color, double roundTrips, double statements,
      boolean predicted) {
  }

  private static String roundTrips(String title, List<Cell> cells,
      Map<String, Integer> colors) {
    Map<String, Cell> byStrategy = new TreeMap<>();
    for (Cell m : cells) {
      byStrategy.merge(m.strategy(), m, (a, b) -> better(a, b) ? a : b);
    }
    List<Bar> bars = new ArrayList<>();
    byStrategy.forEach((strategy, m) -> {
      if (Double.isFinite(m.roundTripsPerOp())) {
        bars.add(new Bar(strategy, colors.getOrDefault(strategy, 0), m.roundTripsPerOp(),
            m.statementsPerOp(), m.predicted()));
      }
    });
    bars.sort(Comparator.comparingDouble(Bar::roundTrips).reversed()
        .thenComparing(Bar::strategy));

    int labelWidth = 40;
    for (Bar b : bars) {
      labelWidth = Math.max(labelWidth, (int) (b.strategy().length() * 7.2));
    }
    double left = Math.max(150, labelWidth + 28);
    double right = W - 290;
    double top = 92;
    double rowHeight = 30;
    double plotBottom = top + Math.max(1, bars.size()) * rowHeight;
    int height = (int) plotBottom + 64;
    Svg svg = new Svg(W, height, title);
    svg.text(24, 30, "start", 18, "bold", INK, title);

    double min = Double.MAX_VALUE;
    double max = 0;
    for (Bar b : bars) {
      if (b.roundTrips() > 0) {
        min = Math.min(min, b.roundTrips());
        max = Math.max(max, b.roundTrips());
      }
    }
    if (max == 0) {
      svg.text(24, 52, "start", 12.5, "normal", MUTED, "Counted at the socket.");
      svg.text(W / 2.0, (top + plotBottom) / 2, "middle", 14, "normal", MUTED,
          "no round-trip counts in these results");
      return svg.end();
    }
    boolean log = max / min > LOG_SPAN;
    svg.text(24, 52, "start", 12.5, "normal", MUTED, "Round trips per operation, counted at"
        + " the socket (the same at every RTT); "
        + (log ? "log scale: the values span " + Format.count(min) + " to "
            + Format.count(max) + "."
            : "linear scale."));
    svg.text(24, 68, "start", 12.5, "normal", MUTED, "Each round trip costs the whole added"
        + " RTT: at 20 ms, 100 round trips are 2 s on the wire.");

    Scale x;
    List<Double> ticks = new ArrayList<>();
    if (log) {
      double lo = Math.floor(Math.log10(min) - 0.3);
      double hi = Math.ceil(Math.log10(max) + 0.05);
      x = new Scale(lo, hi, left, right);
      for (double d = lo; d <= hi + 1e-9; d++) {
        ticks.add(d);
      }
    } else {
      double step = niceStep(max / 5);
      double hi = Math.ceil(max * 1.05 / step) * step;
      x = new Scale(0, hi, left, right);
      for (double v = 0; v <= hi + step / 2; v += step) {
        ticks.add(v);
      }
    }
    for (double t : ticks) {
      double px = x.at(t);
      svg.line(px, top - 6, px, plotBottom, GRID, 1, null);
      svg.text(px, plotBottom + 18, "middle", 12, "normal", INK, Format.number(log ? Math.pow(10, t)
          : t));
    }
    svg.line(left, plotBottom, right, plotBottom, INK, 1.2, null);
    svg.text((left + right) / 2, height - 20, "middle", 13, "normal", INK,
        "round trips per operation" + (log ? " (log scale)" : ""));

    double py = top;
    for (Bar b : bars) {
      String color = COLORS[b.color() % COLORS.length];
      double end = b.roundTrips() > 0 ? x.at(log ? Math.log10(b.roundTrips()) : b.roundTrips())
          : left;
      svg.open("g", "class", "series", "data-strategy", b.strategy());
      svg.text(left - 10, py + rowHeight / 2 + 4, "end", 12.5, "normal", INK, b.strategy());
      svg.rect(left, py + 6, Math.max(0, end - left), rowHeight - 12, b.predicted() ? "white"
          : color, color, b.predicted() ? "5 3" : null,
          b.strategy() + ": " + (b.predicted() ? "\u2248" : "") + Format.count(b.roundTrips())
              + " round trips/op" + (b.predicted() ? " (predicted)" : ""));
      String label = (b.predicted() ? "\u2248" : "") + Format.count(b.roundTrips()) + " round trip"
          + (b.roundTrips() == 1 ? "" : "s")
          + (Double.isFinite(b.statements()) ? "  \u00b7  " + Format.count(b.statements())
          + " statement" + (b.statements() == 1 ? "" : "s") : "")
          + (b.predicted() ? "  (predicted)" : "");
      svg.text(end + 8, py + rowHeight / 2 + 4, "start", 12, "normal", INK, label);
      svg.close("g");
      py += rowHeight;
    }
    svg.line(left, top - 6, left, plotBottom, INK, 1.2, null);
    return svg.end();
  }

  /** The cell whose counts a bar shows: measured before predicted, then the lowest RTT. */
  private static boolean better(Cell a, Cell b) {
    if (a.predicted() != b.predicted()) {
      return !a.predicted();
    }
    return a.rtt().millis() <= b.rtt().millis();
  }

  public static double niceStep(double raw) {
    double magnitude = Math.pow(10, Math.floor(Math.log10(raw)));
    for (double f : new double[] {1, 2, 5, 10}) {
      if (f * magnitude >= raw) {
        return f * magnitude;
      }
    }
    return 10 * magnitude;
  }

  // ---------------------------------------------------------------- shared

  static String timeTitle(String suite, Map<String, String> params) {
    return suite + params(params) + ": time per operation vs added RTT";
  }

  static String roundTripsTitle(String suite, Map<String, String> params) {
    return suite + params(params) + ": round trips per operation";
  }

  private static String params(Map<String, String> params) {
    return params.isEmpty() ? "" : " (" + Format.params(params) + ")";
  }

  /** A file name of letters, digits, '-', '.' and '_': {@code InsertBenchmark-rows-1000}. */
  public static String fileName(String suite, Map<String, String> params) {
    StringBuilder s = new StringBuilder(suite);
    params.forEach((k, v) -> s.append('-').append(k).append('-').append(v));
    return s.toString().replaceAll("[^A-Za-z0-9._-]+", "_");
  }

  /** Strategy -> colour index, by name, so a strategy keeps its colour across charts. */
  private static Map<String, Integer> colors(List<Cell> cells) {
    TreeSet<String> names = new TreeSet<>();
    cells.forEach(m -> names.add(m.strategy()));
    Map<String, Integer> colors = new LinkedHashMap<>();
    names.forEach(n -> colors.put(n, colors.size()));
    return colors;
  }

  private static String tooltip(Cell m) {
    return m.strategy() + " @ " + m.rtt() + ": " + Format.duration(m.timeMs())
        + (m.predicted() ? " (" + m.note() + ")" : " (measured)");
  }

  private record Scale(double from, double to, double pixelFrom, double pixelTo) {
    double at(double v) {
      return pixelFrom + (v - from) / (to - from) * (pixelTo - pixelFrom);
    }
  }

  /** XML text and attribute values: &amp;, &lt;, &gt;, quotes. */
  static String escape(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
        .replace("\"", "&quot;").replace("'", "&#39;");
  }

  /** A tiny SVG writer (also {@link AddedRttHistogram}'s). */
  public static final class Svg {
    private final StringBuilder out = new StringBuilder();

    public Svg(int width, int height, String title) {
      out.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\""
          + " width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\""
          + " aria-label=\"%s\" font-family=\"%s\">%n", width, height, width, height,
          escape(title), escape(FONT)));
      out.append("<title>").append(escape(title)).append("</title>\n");
      out.append(String.format(Locale.ROOT,
          "<rect width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>%n", width, height));
    }

    public void open(String element, String... attributes) {
      out.append('<').append(element);
      for (int i = 0; i + 1 < attributes.length; i += 2) {
        out.append(' ').append(attributes[i]).append("=\"").append(escape(attributes[i + 1]))
            .append('"');
      }
      out.append(">\n");
    }

    public void close(String element) {
      out.append("</").append(element).append(">\n");
    }

    public void line(double x1, double y1, double x2, double y2, String color, double width,
        String dash) {
      out.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\""
          + " y2=\"%.1f\" stroke=\"%s\" stroke-width=\"%s\"%s/>%n", x1, y1, x2, y2, color,
          Format.number(width), dash == null ? "" : " stroke-dasharray=\"" + dash + "\""));
    }

    public void path(String d, String color, double width, String dash) {
      out.append(String.format(Locale.ROOT, "<path d=\"%s\" fill=\"none\" stroke=\"%s\""
          + " stroke-width=\"%s\" stroke-linejoin=\"round\"%s/>%n", d, color, Format.number(width),
          dash == null ? "" : " stroke-dasharray=\"" + dash + "\""));
    }

    /** A closed path, filled at {@code opacity} and outlined in {@code color}. */
    void area(String d, String color, double opacity, double width) {
      out.append(String.format(Locale.ROOT, "<path d=\"%s\" fill=\"%s\" fill-opacity=\"%s\""
          + " stroke=\"%s\" stroke-width=\"%s\" stroke-linejoin=\"round\"/>%n", d, color,
          Format.number(opacity), color, Format.number(width)));
    }

    void rect(double x, double y, double w, double h, String fill, String stroke, String dash,
        String tooltip) {
      out.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\""
          + " height=\"%.1f\" rx=\"2\" fill=\"%s\" stroke=\"%s\" stroke-width=\"1.5\"%s>",
          x, y, w, h, fill, stroke, dash == null ? "" : " stroke-dasharray=\"" + dash + "\""));
      out.append("<title>").append(escape(tooltip)).append("</title></rect>\n");
    }

    public void marker(int index, double x, double y, double r, boolean hollow, String tooltip) {
      marker(index, x, y, r, hollow, tooltip, COLORS[index % COLORS.length]);
    }

    /** The strategy's marker shape: circle, square, triangle, diamond, inverted triangle. */
    void marker(int index, double x, double y, double r, boolean hollow, String tooltip,
        String color) {
      String style = hollow
          ? String.format(Locale.ROOT, "fill=\"#ffffff\" stroke=\"%s\" stroke-width=\"1.8\"",
              color)
          : String.format(Locale.ROOT, "fill=\"%s\" stroke=\"#ffffff\" stroke-width=\"1\"",
              color);
      // past the palette, colours repeat with the next shape: 50 distinct pairs
      String shape = switch ((index + index / COLORS.length) % SHAPES) {
        case 0 -> String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\"",
            x, y, r);
        case 1 -> String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\""
            + " height=\"%.1f\"", x - r * 0.9, y - r * 0.9, r * 1.8, r * 1.8);
        case 2 -> polygon(x, y, r * 1.25, new double[] {-90, 30, 150});
        case 3 -> polygon(x, y, r * 1.2, new double[] {-90, 0, 90, 180});
        default -> polygon(x, y, r * 1.25, new double[] {90, 210, 330});
      };
      out.append(shape).append(' ').append(style);
      if (tooltip == null) {
        out.append("/>\n");
      } else {
        int space = shape.indexOf(' ');
        out.append("><title>").append(escape(tooltip)).append("</title></")
            .append(shape, 1, space).append(">\n");
      }
    }

    private static String polygon(double x, double y, double r, double[] degrees) {
      StringBuilder points = new StringBuilder();
      for (double d : degrees) {
        double a = Math.toRadians(d);
        points.append(points.length() == 0 ? "" : " ").append(String.format(Locale.ROOT,
            "%.1f,%.1f", x + r * Math.cos(a), y + r * Math.sin(a)));
      }
      return "<polygon points=\"" + points + "\"";
    }

    public void text(double x, double y, String anchor, double size, String weight, String color,
        String content) {
      out.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\""
          + " font-size=\"%s\"%s fill=\"%s\">%s</text>%n", x, y, anchor, Format.number(size),
          "normal".equals(weight) ? "" : " font-weight=\"" + weight + "\"", color,
          escape(content)));
    }

    public void verticalText(double x, double y, double size, String color, String content) {
      out.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\""
          + " font-size=\"%s\" fill=\"%s\" transform=\"rotate(-90 %.1f %.1f)\">%s</text>%n",
          x, y, Format.number(size), color, x, y, escape(content)));
    }

    public String end() {
      return out.append("</svg>\n").toString();
    }
  }
}
