package io.github.latencylab.report;

import io.github.latencylab.latency.Rtt;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Writes a run's report files, and its compact console table.
 *
 * <pre>
 * DIR/results.json              the cells with their environment ({@link Results})
 * DIR/report.md                 the tables in Markdown
 * DIR/report.html               one self-contained page: tables, charts inlined, environment
 * DIR/charts/*.svg              per suite and parameters, time vs RTT and round trips per
 *                               operation (SvgCharts)
 * DIR/baseline-comparison.txt   with a comparison: its summary and findings
 * </pre>
 *
 * Every table has one row per {@link Series} (in its order) and one column per RTT.
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
  public static List<Path> write(Results results, Path dir, Check comparison)
      throws IOException {
    return write(results, dir, comparison, List.of());
  }

  /**
   * A titled block of preformatted text the pages show after the tables, e.g. where a test's
   * round trips come from; or, {@code leads}, before them: what a large suite is read from.
   */
  public record Section(String title, String text, boolean leads) {

    /** A section after the tables. */
    public Section(String title, String text) {
      this(title, text, false);
    }
  }

  /**
   * A check of the results, which the pages show before the tables and {@code
   * baseline-comparison.txt} holds: the gate's {@code BaselineComparison}. The report knows it
   * only by this, so that the gate depends on the report, never the reverse.
   */
  public interface Check {

    /** True when nothing failed: PASS on the page, else FAIL. */
    boolean passed();

    /** The line the pages show first. */
    String summary();

    /** The findings, failures first. */
    List<? extends Line> findings();

    /** The summary line, then one line per finding. */
    String report();

    /** One finding: its {@code toString()} is the line, its level (FAIL, INFO) its HTML class. */
    interface Line {
      Enum<?> level();
    }
  }

  /** The same, with {@code sections} after the tables of report.md and report.html. */
  public static List<Path> write(Results results, Path dir, Check comparison,
      List<Section> sections) throws IOException {
    Path charts = dir.resolve("charts");
    Files.createDirectories(charts);
    List<Path> written = new ArrayList<>();
    Path json = dir.resolve("results.json");
    results.write(json);
    written.add(json);
    Path md = dir.resolve("report.md");
    Files.writeString(md, MarkdownReport.render(results, comparison, sections));
    written.add(md);
    List<SvgCharts.Chart> all = SvgCharts.all(results);
    Path html = dir.resolve("report.html");
    Files.writeString(html, HtmlReport.render(results, comparison, all, sections));
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
    List<Rtt> rtts = rtts(results.cells());
    List<String[]> lines = new ArrayList<>();
    List<String> header = new ArrayList<>(List.of("suite", "strategy", "params", "RT/op"));
    rtts.forEach(r -> header.add(r + " ")); // room for the '*' of predicted cells
    lines.add(header.toArray(String[]::new));
    boolean anyPredicted = false;
    for (List<Cell> suite : bySuite(results).values()) {
      for (Map.Entry<Series, Map<Rtt, Cell>> row : rows(suite).entrySet()) {
        Cell any = countsOf(row.getValue().values());
        List<String> line = new ArrayList<>();
        line.add(row.getKey().suite());
        line.add(row.getKey().strategy());
        line.add(Format.params(row.getKey().params()));
        line.add((any.predicted() ? "~" : "") + Format.count(any.roundTripsPerOp()));
        for (Rtt rtt : rtts) {
          Cell cell = row.getValue().get(rtt);
          if (cell == null) {
            line.add("- ");
          } else {
            anyPredicted |= cell.predicted();
            line.add(Format.duration(cell.timeMs()) + (cell.predicted() ? "*" : " "));
          }
        }
        lines.add(line.toArray(String[]::new));
      }
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
      StringBuilder row = new StringBuilder();
      for (int i = 0; i < columns; i++) {
        String align = i < 3 ? "%-" : "%"; // names left, numbers right
        row.append(i == 0 ? "" : "  ")
            .append(String.format(Locale.ROOT, align + width[i] + "s", lines.get(l)[i]));
      }
      String text = row.toString().stripTrailing();
      t.append(text).append('\n');
      if (l == 0) {
        t.append("-".repeat(text.length())).append('\n');
      }
    }
    t.append("time per operation (JMH mean) at each added RTT; RT/op: round trips per"
        + " operation, counted at the socket");
    if (anyPredicted) {
      t.append("\n* predicted by the model T(L) = T0 + round trips x L, not measured;"
          + " ~ an estimate scaled from a smaller size");
    }
    return t.append('\n').toString();
  }

  /**
   * The reports' chart of time per operation against RTT, one line per strategy, for times
   * not measured by JMH (e.g. the demo's medians): {@code timeIs} says what they are.
   * Predicted cells are drawn hollow on dashed lines.
   */
  public static String timeChart(String suite, Map<String, String> params, List<Cell> cells,
      String timeIs) {
    return SvgCharts.timeVsRtt(suite, params, cells, timeIs);
  }

  // ---------------------------------------------------------------- shared by the pages

  /** The cells of each suite, suites in the order the results first name them. */
  static Map<String, List<Cell>> bySuite(Results results) {
    Map<String, List<Cell>> bySuite = new LinkedHashMap<>();
    results.cells().forEach(c -> bySuite.computeIfAbsent(c.suite(), k -> new ArrayList<>())
        .add(c));
    return bySuite;
  }

  /**
   * Each suite's shortest unambiguous name among {@code suites}: the fewest trailing parts of
   * its dotted name that no other suite ends with ("FooTests", or "a.FooTests" beside
   * "b.FooTests"). A benchmark's suite is one part and stays as it is.
   */
  static Map<String, String> shortNames(Collection<String> suites) {
    Map<String, String> shortest = new LinkedHashMap<>();
    for (String suite : suites) {
      String[] parts = suite.split("\\.");
      String name = suite;
      for (int k = 1; k < parts.length; k++) {
        String candidate = String.join(".", List.of(parts).subList(parts.length - k,
            parts.length));
        if (suites.stream().filter(s -> s.equals(candidate) || s.endsWith("." + candidate))
            .count() == 1) {
          name = candidate;
          break;
        }
      }
      shortest.put(suite, name);
    }
    return shortest;
  }

  /** Every RTT of {@code cells}, lowest first: the columns. */
  static List<Rtt> rtts(Collection<Cell> cells) {
    return cells.stream().map(Cell::rtt).distinct().sorted().toList();
  }

  /** What each RTT setting really added, measured: from its first cell that says. */
  static Map<Rtt, Double> addedRtts(Collection<Cell> cells) {
    Map<Rtt, Double> added = new TreeMap<>();
    cells.stream().filter(c -> Double.isFinite(c.addedRttMs()))
        .forEach(c -> added.putIfAbsent(c.rtt(), c.addedRttMs()));
    return added;
  }

  /** The rows: each series with its cells by RTT, in the series' order. */
  static Map<Series, Map<Rtt, Cell>> rows(Collection<Cell> cells) {
    Map<Series, Map<Rtt, Cell>> rows = new TreeMap<>();
    cells.forEach(c -> rows.computeIfAbsent(c.series(), k -> new TreeMap<>()).put(c.rtt(), c));
    return rows;
  }

  /** The cell whose counts a row shows: a measured one, the lowest RTT first. */
  /** The machines a row's cells ran on, by name: one for a row of a shard. */
  static String machines(Collection<Cell> row, Function<Cell, String> machine) {
    return row.stream().map(machine).distinct().sorted().collect(Collectors.joining(", "));
  }

  static Cell countsOf(Collection<Cell> row) {
    return row.stream().filter(c -> !c.predicted()).findFirst()
        .orElse(row.iterator().next());
  }

  /** Whether any of these cells carries the server's counters (a server/op column). */
  static boolean hasServerCounters(List<Cell> cells) {
    return cells.stream().anyMatch(c -> !c.server().isEmpty());
  }
}
