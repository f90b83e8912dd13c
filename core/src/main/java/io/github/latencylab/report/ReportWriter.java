package io.github.latencylab.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

/**
 * Writes a run's report files, and its compact console table.
 *
 * <pre>
 * DIR/results.json              the cells with their environment ({@link Results})
 * DIR/report.md                 {@link MarkdownReport}
 * DIR/report.html               {@link HtmlReport}: one self-contained page, charts inlined
 * DIR/charts/*.svg              {@link SvgCharts}: per suite and parameters, time vs RTT and
 *                               round trips per operation
 * DIR/baseline-comparison.txt   with a comparison: its summary and findings
 * </pre>
 */
public final class ReportWriter {

  private ReportWriter() {
  }

  /** Writes the report files into {@code dir} (created if needed); returns them. */
  public static List<Path> write(Results results, Path dir) throws IOException {
    return write(results, dir, null);
  }

  /**
   * Writes the report files into {@code dir}, with the baseline check in the Markdown and HTML
   * pages and in {@code baseline-comparison.txt} when {@code comparison} is not null.
   */
  public static List<Path> write(Results results, Path dir, BaselineComparison comparison)
      throws IOException {
    Path charts = dir.resolve("charts");
    Files.createDirectories(charts);
    List<Path> written = new ArrayList<>();
    Path json = dir.resolve("results.json");
    results.write(json);
    written.add(json);
    Path md = dir.resolve("report.md");
    Files.writeString(md, MarkdownReport.render(results, comparison));
    written.add(md);
    List<SvgCharts.Chart> all = SvgCharts.all(results);
    Path html = dir.resolve("report.html");
    Files.writeString(html, HtmlReport.render(results, comparison, all));
    written.add(html);
    for (SvgCharts.Chart c : all) {
      Path svg = charts.resolve(c.fileName());
      Files.writeString(svg, c.svg());
      written.add(svg);
    }
    if (comparison != null) {
      Path txt = dir.resolve("baseline-comparison.txt");
      Files.writeString(txt, comparison.report());
      written.add(txt);
    }
    return written;
  }

  /**
   * A compact fixed-width table: per suite, strategy and parameters, the round trips per
   * operation and the time per operation at each RTT, predicted times marked with '*'.
   */
  public static String consoleTable(Results results) {
    TreeSet<Measurement> rttColumns =
        new TreeSet<>(Comparator.comparingDouble(Measurement::rttMs));
    rttColumns.addAll(results.measurements());
    List<String> rtts = rttColumns.stream().map(Measurement::rtt).toList();

    Map<String, Integer> suiteOrder = new LinkedHashMap<>();
    results.measurements().forEach(m -> suiteOrder.putIfAbsent(m.benchmark(),
        suiteOrder.size()));
    List<Measurement> sorted = new ArrayList<>(results.measurements());
    sorted.sort(Comparator.comparing((Measurement m) -> suiteOrder.get(m.benchmark()))
        .thenComparing(Baseline.Cell::of, Baseline.ORDER));
    Map<String, Map<String, Measurement>> rows = new LinkedHashMap<>();
    for (Measurement m : sorted) {
      rows.computeIfAbsent(m.series(), k -> new LinkedHashMap<>()).put(m.rtt(), m);
    }

    List<String[]> lines = new ArrayList<>();
    List<String> header = new ArrayList<>(List.of("suite", "strategy", "params", "RT/op"));
    rtts.forEach(r -> header.add(r + " ")); // room for the '*' of predicted cells
    lines.add(header.toArray(String[]::new));
    boolean anyPredicted = false;
    for (Map<String, Measurement> byRtt : rows.values()) {
      Measurement any = byRtt.values().stream().filter(m -> !m.predicted()).findFirst()
          .orElse(byRtt.values().iterator().next());
      List<String> line = new ArrayList<>();
      line.add(any.benchmark());
      line.add(any.strategy());
      StringBuilder params = new StringBuilder();
      any.params().forEach((k, v) -> params.append(params.length() == 0 ? "" : " ").append(k)
          .append('=').append(v));
      line.add(params.toString());
      line.add((any.predicted() ? "~" : "") + count(any.roundTripsPerOp()));
      for (String rtt : rtts) {
        Measurement cell = byRtt.get(rtt);
        if (cell == null) {
          line.add("- ");
        } else {
          anyPredicted |= cell.predicted();
          line.add(MarkdownReport.duration(cell.timeMs()) + (cell.predicted() ? "*" : " "));
        }
      }
      lines.add(line.toArray(String[]::new));
    }

    int columns = header.size();
    int[] width = new int[columns];
    for (String[] line : lines) {
      for (int i = 0; i < columns; i++) {
        width[i] = Math.max(width[i], line[i].length());
      }
    }
    StringBuilder t = new StringBuilder();
    for (int l = 0; l < lines.size(); l++) {
      String[] line = lines.get(l);
      StringBuilder row = new StringBuilder();
      for (int i = 0; i < columns; i++) {
        boolean left = i < 3;
        String cell = line[i];
        row.append(i == 0 ? "" : "  ").append(left
            ? String.format(Locale.ROOT, "%-" + width[i] + "s", cell)
            : String.format(Locale.ROOT, "%" + width[i] + "s", cell));
      }
      t.append(row.toString().stripTrailing()).append('\n');
      if (l == 0) {
        t.append("-".repeat(row.toString().stripTrailing().length())).append('\n');
      }
    }
    t.append("time per operation (JMH mean) at each added RTT; RT/op: round trips per"
        + " operation, counted at the socket");
    if (anyPredicted) {
      t.append("\n* predicted by the model T(L) = T(L0) + round trips x (L - L0), not measured;"
          + " ~ an estimate scaled from a smaller size");
    }
    return t.append('\n').toString();
  }

  private static String count(double v) {
    if (!Double.isFinite(v)) {
      return "-";
    }
    return v == Math.rint(v) ? String.format(Locale.ROOT, "%,.0f", v)
        : String.format(Locale.ROOT, "%,.2f", v);
  }
}
