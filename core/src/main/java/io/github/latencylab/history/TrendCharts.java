package io.github.latencylab.history;

import static io.github.latencylab.report.SvgCharts.COLORS;
import static io.github.latencylab.report.SvgCharts.GRID;
import static io.github.latencylab.report.SvgCharts.INK;
import static io.github.latencylab.report.SvgCharts.MUTED;

import io.github.latencylab.report.Cell;
import io.github.latencylab.report.Format;
import io.github.latencylab.report.SvgCharts;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.TreeMap;

/**
 * A history's charts, in {@link SvgCharts}' style: the x-axis the compared runs in order, each
 * labelled with its short commit (a failed gate's in red, with a cross), steps as vertical
 * lines labelled with their first commit (dashed and green when intended).
 * <ul>
 *   <li>per cell: its time per operation at each run, the level between steps dashed;</li>
 *   <li>the overview: every cell's time over its own median, the cells with a step in
 *   colour, the others grey.</li>
 * </ul>
 */
final class TrendCharts {

  private static final int W = 980;
  private static final int LEFT = 84;
  private static final int TOP = 92;
  private static final int BOTTOM = 96;
  private static final String STEP = "#D55E00";
  private static final String INTENDED = "#009E73";
  private static final String FAILED = "#c62828";

  private TrendCharts() {
  }

  /** "InsertBenchmark-executeBatch-rows-1000-0.5ms-history.svg". */
  static String fileName(HistoryAnalysis.Trend t) {
    Cell c = t.cells().get(0);
    return SvgCharts.fileName(c.suite() + "-" + c.strategy(), c.params()) + "-" + c.rtt()
        + "-history.svg";
  }

  /** One cell's time per operation over the runs, its steps marked. */
  static String cell(HistoryAnalysis a, HistoryAnalysis.Trend t) {
    String title = t.key() + ": time per operation over " + a.compared().size() + " runs";
    int height = 500;
    double right = W - 40;
    double bottom = height - BOTTOM;
    SvgCharts.Svg svg = new SvgCharts.Svg(W, height, title);
    svg.text(24, 30, "start", 18, "bold", INK, title);
    svg.text(24, 52, "start", 12.5, "normal", MUTED, "Mean time per operation (JMH) at each"
        + " run, oldest first; dashed: the level between steps. Vertical lines: a step, at its"
        + " first commit.");
    svg.text(24, 68, "start", 12.5, "normal", MUTED, "Steps by Otava's method (E-divisive"
        + " means, t-test p \u2264 " + Format.number(ChangePoints.MAX_P_VALUE) + "); a count"
        + " that moves is a step by itself.");
    double max = t.cells().stream().mapToDouble(Cell::timeMs).max().orElse(1);
    double step = SvgCharts.niceStep(max * 1.15 / 5);
    double top = Math.ceil(max * 1.15 / step) * step;
    Axis x = axis(svg, a, right, bottom);
    for (double v = 0; v <= top + step / 2; v += step) {
      double py = y(v, top, bottom);
      svg.line(LEFT, py, right, py, GRID, 1, null);
      svg.text(LEFT - 8, py + 4, "end", 12, "normal", INK, Format.tick(v));
    }
    svg.verticalText(20, (TOP + bottom) / 2, 13, INK, "time per operation");
    steps(svg, a, t.steps(), x, bottom, true);
    // the levels between steps (time steps and marks), dashed
    List<Integer> cuts = new ArrayList<>();
    t.steps().stream().filter(s -> s.kind() == HistoryAnalysis.Kind.TIME)
        .forEach(s -> cuts.add(s.run()));
    cuts.add(Integer.MAX_VALUE);
    int from = 0;
    for (int cut : cuts) {
      double sum = 0;
      int n = 0;
      double x0 = Double.NaN;
      double x1 = Double.NaN;
      for (int i = 0; i < t.runs().size(); i++) {
        int run = t.runs().get(i);
        if (run >= from && run < cut) {
          sum += t.cells().get(i).timeMs();
          n++;
          x0 = Double.isNaN(x0) ? x.at(run) : x0;
          x1 = x.at(run);
        }
      }
      if (n > 0) {
        double py = y(sum / n, top, bottom);
        svg.line(x0 - 6, py, x1 + 6, py, MUTED, 1.2, "5 4");
      }
      from = cut;
    }
    StringBuilder path = new StringBuilder();
    for (int i = 0; i < t.runs().size(); i++) {
      path.append(i == 0 ? "M" : " L").append(String.format(Locale.ROOT, "%.1f %.1f",
          x.at(t.runs().get(i)), y(t.cells().get(i).timeMs(), top, bottom)));
    }
    svg.open("g", "class", "series", "data-cell", t.key());
    svg.path(path.toString(), COLORS[0], 2, null);
    for (int i = 0; i < t.runs().size(); i++) {
      History.Run run = a.compared().get(t.runs().get(i));
      Cell c = t.cells().get(i);
      svg.marker(0, x.at(t.runs().get(i)), y(c.timeMs(), top, bottom), 4.5, false,
          run.shortCommit() + ": " + Format.duration(c.timeMs()) + ", "
              + Format.count(c.roundTripsPerOp()) + " round trips/op");
    }
    svg.close("g");
    return svg.end();
  }

  /** Every cell's time over its own median, the cells with a step in colour. */
  static String overview(HistoryAnalysis a) {
    String title = "All cells: time per operation over each cell's median, "
        + a.compared().size() + " runs";
    List<HistoryAnalysis.Trend> stepped = a.trends().stream()
        .filter(t -> !t.steps().isEmpty()).toList();
    int legend = Math.min(stepped.size(), 12);
    int height = Math.max(500, TOP + 40 + 18 * legend + BOTTOM);
    double right = W - 300;
    double bottom = height - BOTTOM;
    SvgCharts.Svg svg = new SvgCharts.Svg(W, height, title);
    svg.text(24, 30, "start", 18, "bold", INK, title);
    svg.text(24, 52, "start", 12.5, "normal", MUTED, "Each line a measured cell, 1 = its"
        + " median over these runs; grey: no step, in colour: a step (vertical lines: where"
        + " one starts).");
    svg.text(24, 68, "start", 12.5, "normal", MUTED, a.trends().size() + " cells, "
        + stepped.size() + " with a step; one chart per cell with a step beside this one.");
    List<double[]> ratios = new ArrayList<>();
    double max = 1.2;
    for (HistoryAnalysis.Trend t : a.trends()) {
      double median = median(t.cells().stream().mapToDouble(Cell::timeMs).toArray());
      double[] r = t.cells().stream().mapToDouble(c -> median > 0 ? c.timeMs() / median : 1)
          .toArray();
      ratios.add(r);
      max = Math.max(max, Arrays.stream(r).max().orElse(1));
    }
    double step = SvgCharts.niceStep(max * 1.1 / 5);
    double top = Math.ceil(max * 1.1 / step) * step;
    Axis x = axis(svg, a, right, bottom);
    for (double v = 0; v <= top + step / 2; v += step) {
      double py = y(v, top, bottom);
      svg.line(LEFT, py, right, py, v == 1 ? MUTED : GRID, 1, null);
      svg.text(LEFT - 8, py + 4, "end", 12, "normal", INK, Format.number(v) + "\u00d7");
    }
    svg.verticalText(20, (TOP + bottom) / 2, 13, INK, "time / the cell's median");
    TreeMap<Integer, HistoryAnalysis.Step> firstAt = new TreeMap<>();
    a.steps().forEach(s -> firstAt.merge(s.run(), s, (p, q) -> p.intended() != null ? p : q));
    steps(svg, a, new ArrayList<>(firstAt.values()), x, bottom, false);
    int colour = 0;
    double ly = TOP + 4;
    svg.text(right + 24, ly, "start", 12, "bold", INK, "cells with a step");
    ly += 20;
    // grey first, so the coloured lines are on top
    for (boolean coloured : new boolean[] {false, true}) {
      for (int k = 0; k < a.trends().size(); k++) {
        HistoryAnalysis.Trend t = a.trends().get(k);
        if (t.steps().isEmpty() == coloured) {
          continue;
        }
        StringBuilder path = new StringBuilder();
        for (int i = 0; i < t.runs().size(); i++) {
          path.append(i == 0 ? "M" : " L").append(String.format(Locale.ROOT, "%.1f %.1f",
              x.at(t.runs().get(i)), y(ratios.get(k)[i], top, bottom)));
        }
        String color = coloured ? COLORS[colour % COLORS.length] : "#c8c8c8";
        svg.open("g", "class", "series", "data-cell", t.key());
        svg.path(path.toString(), color, coloured ? 2 : 1, null);
        svg.close("g");
        if (coloured && colour < legend) {
          svg.line(right + 24, ly - 4, right + 46, ly - 4, color, 2, null);
          svg.text(right + 52, ly, "start", 11, "normal", INK, shorten(t.key(), 38));
          ly += 18;
        }
        colour += coloured ? 1 : 0;
      }
    }
    if (stepped.size() > legend) {
      svg.text(right + 24, ly, "start", 11, "normal", MUTED, "and " + (stepped.size() - legend)
          + " more (history.md)");
    }
    return svg.end();
  }

  private record Axis(int runs, double left, double right) {
    double at(int run) {
      return runs == 1 ? (left + right) / 2 : left + 16 + run * (right - left - 32) / (runs - 1);
    }
  }

  /** The x-axis: the compared runs in order, each labelled with its short commit. */
  private static Axis axis(SvgCharts.Svg svg, HistoryAnalysis a, double right, double bottom) {
    Axis x = new Axis(a.compared().size(), LEFT, right);
    int every = Math.max(1, (int) Math.ceil(a.compared().size() / 40.0));
    for (int i = 0; i < a.compared().size(); i++) {
      History.Run run = a.compared().get(i);
      double px = x.at(i);
      svg.line(px, bottom, px, bottom + 5, INK, 1, null);
      if (i % every == 0 || i == a.compared().size() - 1) {
        svg.verticalText(px + 4, bottom + 40, 11, run.failed() ? FAILED : INK,
            run.shortCommit() + (run.failed() ? " \u2717" : ""));
      }
    }
    svg.line(LEFT, bottom, right, bottom, INK, 1.2, null);
    svg.line(LEFT, TOP, LEFT, bottom, INK, 1.2, null);
    svg.text((LEFT + right) / 2, bottom + 86, "middle", 13, "normal", INK, "runs, oldest"
        + " first (commit; \u2717 the gate failed)");
    return x;
  }

  /**
   * A vertical line before each step's first run, labelled with its commit, and with what
   * moved when {@code detail} (one cell's chart).
   */
  private static void steps(SvgCharts.Svg svg, HistoryAnalysis a,
      List<HistoryAnalysis.Step> steps, Axis x, double bottom, boolean detail) {
    TreeMap<Integer, List<HistoryAnalysis.Step>> byRun = new TreeMap<>();
    steps.forEach(s -> byRun.computeIfAbsent(s.run(), k -> new ArrayList<>()).add(s));
    byRun.forEach((run, at) -> {
      boolean intended = at.stream().allMatch(s -> s.intended() != null);
      String color = intended ? INTENDED : STEP;
      double px = run == 0 ? x.at(0) : (x.at(run - 1) + x.at(run)) / 2;
      svg.line(px, TOP - 8, px, bottom, color, 1.6, intended ? "6 4" : null);
      List<String> what = new ArrayList<>();
      for (HistoryAnalysis.Step s : at) {
        what.add(s.kind() == HistoryAnalysis.Kind.TIME ? HistoryAnalysis.percent(s.change())
            : (s.kind() == HistoryAnalysis.Kind.ROUND_TRIPS ? "RT " : "stmts ")
                + Format.count(s.before()) + "\u2192" + Format.count(s.after()));
      }
      svg.text(px + 4, TOP - 10, "start", 11.5, "bold", color,
          a.compared().get(run).shortCommit() + (intended ? " intended" : "")
              + (detail ? " " + String.join(", ", what) : ""));
    });
  }

  private static double y(double v, double top, double bottom) {
    return bottom - v / top * (bottom - TOP);
  }

  private static double median(double[] xs) {
    double[] s = xs.clone();
    Arrays.sort(s);
    return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  }

  private static String shorten(String s, int max) {
    return s.length() <= max ? s : s.substring(0, max - 1) + "\u2026";
  }
}
