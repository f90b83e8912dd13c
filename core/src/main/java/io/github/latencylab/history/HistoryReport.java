package io.github.latencylab.history;

import io.github.latencylab.report.Cell;
import io.github.latencylab.report.Format;
import io.github.latencylab.report.HtmlReport;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A history's report: its steps, one line each, and the files
 * <pre>
 * DIR/history.md                      steps, cells (current level, since which commit), runs
 * DIR/history.html                    the same on one page, the charts inlined
 * DIR/charts/history-overview.svg     every cell over its own median
 * DIR/charts/*-history.svg            one per cell with a step
 * </pre>
 */
public final class HistoryReport {

  private HistoryReport() {
  }

  /**
   * What the console says: one line per step ({@link HistoryAnalysis.Step#line}), the runs
   * not compared in one line, and a summary.
   */
  public static String console(HistoryAnalysis a) {
    StringBuilder s = new StringBuilder();
    for (HistoryAnalysis.Step step : a.steps()) {
      s.append(step.line(a.compared().size())).append('\n');
    }
    if (a.excludedLine() != null) {
      s.append(a.excludedLine()).append('\n');
    }
    for (History.Mark m : a.unmatchedMarks()) {
      s.append("mark at ").append(m.commit()).append(" (").append(m.reason())
          .append("): no compared run has this commit\n");
    }
    return s.append(summary(a)).append('\n').append(driftLine(a)).append('\n').toString();
  }

  /** "12 runs compared (a000000 to a00000b), 67 measured cells, 2 steps (1 intended)". */
  static String summary(HistoryAnalysis a) {
    List<HistoryAnalysis.Step> steps = a.steps();
    long intended = steps.stream().filter(st -> st.intended() != null).count();
    return a.compared().size() + " run" + (a.compared().size() == 1 ? "" : "s")
        + " compared (" + a.compared().get(0).shortCommit() + " to "
        + a.compared().get(a.compared().size() - 1).shortCommit() + "), "
        + a.trends().size() + " measured cell" + (a.trends().size() == 1 ? "" : "s") + ", "
        + steps.size() + " step"
        + (steps.size() == 1 ? "" : "s") + (intended > 0 ? " (" + intended + " intended)" : "");
  }

  /** Writes the report files into {@code dir} (created if needed); returns them. */
  public static List<Path> write(HistoryAnalysis a, Path dir) throws IOException {
    Path charts = dir.resolve("charts");
    Files.createDirectories(charts);
    List<Path> written = new ArrayList<>();
    List<String[]> svgs = new ArrayList<>(); // file name, svg
    svgs.add(new String[] {"history-overview.svg", TrendCharts.overview(a)});
    for (HistoryAnalysis.Trend t : a.trends()) {
      if (!t.steps().isEmpty()) {
        svgs.add(new String[] {TrendCharts.fileName(t), TrendCharts.cell(a, t)});
      }
    }
    Path md = dir.resolve("history.md");
    Files.writeString(md, markdown(a));
    written.add(md);
    Path html = dir.resolve("history.html");
    Files.writeString(html, html(a, svgs));
    written.add(html);
    for (String[] svg : svgs) {
      Path file = charts.resolve(svg[0]);
      Files.writeString(file, svg[1]);
      written.add(file);
    }
    return written;
  }

  private static final String METHOD = "Steps in time per operation are change points found"
      + " by Apache Otava's method: E-divisive means with a two-sided Student t-test, max"
      + " p-value " + Format.number(ChangePoints.MAX_P_VALUE) + ", min magnitude "
      + Format.number(ChangePoints.MIN_MAGNITUDE) + ", windows of " + ChangePoints.WINDOW
      + " runs (Otava's defaults); measured cells only. Round trips and statements per"
      + " operation are counted, not timed: a move between two runs is a step by itself. A"
      + " mark makes the step at its commit intended, and each cell's level starts again from"
      + " it. Only runs of one machine and database are compared. A run of ten cells or more is"
      + " read over its drift (the median over its cells of time / the cell's median: a busier"
      + " machine moves every cell alike), so a step's levels are drift-corrected times.";

  /** "drift per run: 1.02x, 0.97x, ...": what the analysis divided each run's times by. */
  static String driftLine(HistoryAnalysis a) {
    return "drift per run (each run's times divided by it before the search): " + String.join(
        ", ", a.drift().stream().map(d -> String.format(java.util.Locale.ROOT, "%.2fx", d))
            .toList());
  }

  static String markdown(HistoryAnalysis a) {
    StringBuilder m = new StringBuilder("# Latency history\n\n");
    m.append(summary(a)).append(", measured on ")
        .append(History.describeEnvironment(a.compared().get(a.compared().size() - 1)))
        .append(".\n\n");
    if (a.excludedLine() != null) {
      m.append(a.excludedLine()).append(".\n\n");
    }
    m.append(driftLine(a)).append(".\n\n");
    m.append("![all cells](charts/history-overview.svg)\n\n## Steps\n\n");
    if (a.steps().isEmpty()) {
      m.append("None: no cell's time changed level, no count moved.\n");
    } else {
      m.append("| cell | what | before | after | change | first commit | run | p | intended |\n")
          .append("|---|---|---:|---:|---:|---|---:|---:|---|\n");
      for (HistoryAnalysis.Step s : a.steps()) {
        boolean time = s.kind() == HistoryAnalysis.Kind.TIME;
        m.append("| ").append(s.cell()).append(" | ").append(s.kind().label()).append(" | ")
            .append(time ? Format.duration(s.before()) : Format.count(s.before())).append(" | ")
            .append(time ? Format.duration(s.after()) : Format.count(s.after())).append(" | ")
            .append(HistoryAnalysis.percent(s.change())).append(" | `")
            .append(s.first().shortCommit()).append("` | ").append(s.run() + 1).append(" | ")
            .append(time ? HistoryAnalysis.p(s.pValue()).substring(4) : "-").append(" | ")
            .append(s.intended() == null ? "" : s.intended().reason()).append(" |\n");
      }
      m.append("\nCharts: ");
      List<String> links = new ArrayList<>();
      a.trends().stream().filter(t -> !t.steps().isEmpty()).forEach(t -> links.add("[" + t.key()
          + "](charts/" + TrendCharts.fileName(t) + ")"));
      m.append(String.join(", ", links)).append(".\n");
    }
    m.append("\n## Cells\n\n| cell | runs | time/op now | since | round trips/op | statements/op"
        + " | steps |\n|---|---:|---:|---|---:|---:|---:|\n");
    for (HistoryAnalysis.Trend t : a.trends()) {
      Cell last = t.cells().get(t.cells().size() - 1);
      m.append("| ").append(t.key()).append(" | ").append(t.runs().size()).append(" | ")
          .append(Format.duration(t.currentMs())).append(" | `")
          .append(a.compared().get(t.since()).shortCommit()).append("` (run ")
          .append(t.since() + 1).append(") | ").append(Format.count(last.roundTripsPerOp()))
          .append(" | ").append(Format.count(last.statementsPerOp())).append(" | ")
          .append(t.steps().size()).append(" |\n");
    }
    m.append("\n## Runs\n\n| run | commit | ref | created | gate | cells |\n")
        .append("|---:|---|---|---|---|---:|\n");
    for (int i = 0; i < a.compared().size(); i++) {
      History.Run r = a.compared().get(i);
      m.append("| ").append(i + 1).append(" | `").append(r.commit()).append("` | ")
          .append(r.ref() == null ? "" : r.ref()).append(" | ")
          .append(r.results().createdAt() == null ? "" : r.results().createdAt()).append(" | ")
          .append(gate(r)).append(" | ").append(r.results().cells().size()).append(" |\n");
    }
    if (!a.excluded().isEmpty()) {
      m.append("\nNot compared (another machine or environment):\n\n");
      for (History.Run r : a.excluded()) {
        m.append("- `").append(r.shortCommit()).append("` ")
            .append(History.describeEnvironment(r)).append('\n');
      }
    }
    return m.append("\n## Method\n\n").append(METHOD).append(" See docs/history.md.\n")
        .toString();
  }

  private static String gate(History.Run r) {
    return r.passed() == null ? "-" : r.passed() ? "passed" : "FAILED";
  }

  private static String html(HistoryAnalysis a, List<String[]> svgs) {
    StringBuilder h = new StringBuilder();
    h.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
        .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
        .append("<title>latency-lab history</title>\n<style>\n").append(HtmlReport.CSS)
        .append("</style>\n</head>\n<body>\n<main>\n<h1>Latency history</h1>\n")
        .append("<p class=\"meta\">").append(esc(summary(a))).append(" \u00b7 ")
        .append(esc(History.describeEnvironment(a.compared().get(a.compared().size() - 1))))
        .append("</p>\n<p class=\"note\">").append(esc(METHOD)).append("</p>\n");
    if (a.excludedLine() != null) {
      h.append("<p class=\"note\">").append(esc(a.excludedLine())).append("</p>\n");
    }
    h.append("<h2>Steps</h2>\n");
    if (a.steps().isEmpty()) {
      h.append("<p>None: no cell's time changed level, no count moved.</p>\n");
    } else {
      h.append("<ul class=\"findings\">\n");
      for (HistoryAnalysis.Step s : a.steps()) {
        h.append("<li class=\"").append(s.intended() == null ? "FAIL" : "INFO").append("\">")
            .append(esc(s.line(a.compared().size()))).append("</li>\n");
      }
      h.append("</ul>\n");
    }
    h.append("<div class=\"charts\">\n");
    for (String[] svg : svgs) {
      h.append("<figure>\n").append(svg[1]).append("<figcaption>file: <a href=\"charts/")
          .append(esc(svg[0])).append("\">charts/").append(esc(svg[0]))
          .append("</a></figcaption>\n</figure>\n");
    }
    h.append("</div>\n<h2>Runs</h2>\n<div class=\"scroll\"><table>\n<thead><tr><th class=\"n\">"
        + "run</th><th>commit</th><th>ref</th><th>created</th><th>gate</th>"
        + "<th class=\"n\">cells</th></tr></thead>\n<tbody>\n");
    for (int i = 0; i < a.compared().size(); i++) {
      History.Run r = a.compared().get(i);
      h.append("<tr><td class=\"n\">").append(i + 1).append("</td><td><code>")
          .append(esc(r.commit())).append("</code></td><td>").append(esc(r.ref()))
          .append("</td><td>").append(esc(r.results().createdAt())).append("</td><td>")
          .append(gate(r)).append("</td><td class=\"n\">").append(r.results().cells().size())
          .append("</td></tr>\n");
    }
    return h.append("</tbody>\n</table></div>\n</main>\n</body>\n</html>\n").toString();
  }

  private static String esc(String s) {
    return HtmlReport.esc(s);
  }
}
