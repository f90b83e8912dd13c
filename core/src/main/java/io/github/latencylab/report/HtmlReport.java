package io.github.latencylab.report;

import io.github.latencylab.env.LabEnvironment;
import io.github.latencylab.latency.Rtt;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.TreeMap;

/**
 * The report as one self-contained HTML page: inline CSS, the charts inlined as SVG (each also
 * linked to its file under {@code charts/}), per suite the table of {@link MarkdownReport}
 * (strategy, parameters, round trips and statements per operation, time at each RTT with
 * predicted cells marked), the baseline check when there is one, and the environment.
 */
public final class HtmlReport {

  private HtmlReport() {
  }

  public static final String CSS = """
      :root { color-scheme: light; }
      body { font: 15px/1.5 system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue',
        Arial, sans-serif; color: #222; background: #fafafa; margin: 0; }
      main { max-width: 1240px; margin: 0 auto; padding: 24px 28px 48px; background: #fff; }
      h1 { font-size: 26px; margin: 0 0 4px; }
      pre { white-space: pre-wrap; overflow-wrap: anywhere; }
      h2 { font-size: 21px; margin: 36px 0 10px; padding-top: 8px; border-top: 1px solid #ddd; }
      h3 { font-size: 16px; margin: 22px 0 8px; }
      .meta, .note { color: #555; }
      .note { font-size: 13.5px; max-width: 900px; }
      .scroll { overflow-x: auto; }
      table { border-collapse: collapse; margin: 8px 0 6px; font-size: 13.5px; }
      th, td { padding: 4px 8px; border-bottom: 1px solid #e6e6e6; text-align: left;
        vertical-align: top; }
      th { background: #f3f4f6; font-weight: 600; border-bottom: 2px solid #cfd3d9; }
      td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
      tbody tr:nth-child(even) { background: #fafbfc; }
      th small, td small { display: block; font-weight: normal; color: #666; font-size: 11.5px; }
      td.predicted { font-style: italic; color: #555; }
      .charts { display: flex; flex-direction: column; gap: 18px; margin: 14px 0; }
      figure { margin: 0; }
      figure svg { max-width: 100%; height: auto; border: 1px solid #e6e6e6; }
      figcaption { font-size: 12.5px; color: #666; }
      .status { display: inline-block; padding: 2px 10px; border-radius: 4px; color: #fff;
        font-weight: 600; }
      .pass { background: #1a7f37; } .fail { background: #c62828; }
      ul.findings { font: 12.5px/1.55 ui-monospace, SFMono-Regular, Menlo, Consolas,
        monospace; padding-left: 18px; }
      ul.findings li.FAIL { color: #b71c1c; } ul.findings li.INFO { color: #555; }
      dl { display: grid; grid-template-columns: max-content 1fr; gap: 3px 16px;
        font-size: 13.5px; }
      dt { color: #555; } dd { margin: 0; }
      code { font-size: 12.5px; background: #f3f4f6; padding: 0 3px; border-radius: 3px; }
      """;

  /** The page, without a baseline check, with every chart inlined. */
  static String render(Results results) {
    return render(results, null, SvgCharts.all(results));
  }

  /**
   * The page.
   *
   * @param comparison the baseline check, or null
   * @param charts the charts to inline (see {@link SvgCharts#all})
   */
  static String render(Results results, ReportWriter.Check comparison,
      List<SvgCharts.Chart> charts) {
    return render(results, comparison, charts, List.of());
  }

  /** The same, with {@code sections} after the tables. */
  static String render(Results results, ReportWriter.Check comparison,
      List<SvgCharts.Chart> charts, List<ReportWriter.Section> sections) {
    StringBuilder h = new StringBuilder();
    h.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
        .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
        .append("<title>latency-lab report</title>\n<style>\n").append(CSS)
        .append("</style>\n</head>\n<body>\n<main>\n");
    h.append("<h1>latency-lab report</h1>\n<p class=\"meta\">");
    List<String> meta = new ArrayList<>();
    if (results.kind() != null) {
      meta.add(results.kind().equals("jmh") ? "from JMH's JSON results" : results.kind());
    }
    if (results.profile() != null) {
      meta.add(results.profile() + " profile");
    }
    if (results.createdAt() != null) {
      meta.add(results.createdAt());
    }
    meta.add(results.cells().size() + " cells");
    h.append(esc(String.join(" \u00b7 ", meta))).append("</p>\n");

    if (MarkdownReport.isTests(results)) {
      h.append("<p class=\"note\">").append(esc(MarkdownReport.TESTS_NOTE)).append("</p>\n");
    } else {
      h.append("<p class=\"note\">Each cell is the mean time of one operation (JMH) at one added"
          + " round-trip time L. Round trips and statements per operation are counted at the"
          + " socket and do not depend on L. An operation that makes R round trips takes about"
          + " <b>T(L) = T0 + R \u00d7 L</b>: the gap between strategies grows with L by their"
          + " difference in round trips. <i>Italic cells marked *</i> are <b>predicted</b> by"
          + " that model fitted on the same row's measured cells (or scaled from a smaller size),"
          + " not measured, because measuring them would take too long; hover over one to see"
          + " from what. \u00b1 is the mean's 99.9% interval (JMH's); hover over a measured cell"
          + " for its samples' median and IQR; \u2020 marks one whose interval stayed wider than"
          + " the run asked, and says why. Column headers give the RTT set and what it really"
          + " added, measured. See docs/reading-results.md.</p>\n");
    }

    if (comparison != null) {
      h.append("<h2>Baseline check</h2>\n<p><span class=\"status ")
          .append(comparison.passed() ? "pass\">PASS" : "fail\">FAIL").append("</span> ")
          .append(esc(comparison.summary())).append("</p>\n");
      if (!comparison.findings().isEmpty()) {
        h.append("<ul class=\"findings\">\n");
        for (ReportWriter.Check.Line f : comparison.findings()) {
          h.append("<li class=\"").append(f.level()).append("\">").append(esc(f.toString()))
              .append("</li>\n");
        }
        h.append("</ul>\n");
      }
    }

    sections.stream().filter(ReportWriter.Section::leads).forEach(s -> section(h, s));
    Function<Cell, String> machine = results.machines().isEmpty() ? null : results::machine;
    if (machine != null) {
      h.append("<p class=\"note\">").append(esc(Results.MACHINES_NOTE)).append("</p>\n");
    }
    Map<String, List<Cell>> bySuite = ReportWriter.bySuite(results);
    Map<String, String> names = ReportWriter.shortNames(bySuite.keySet());
    bySuite.forEach((suite, cells) -> {
      h.append("<h2 id=\"").append(esc(anchor(suite))).append("\">")
          .append(esc(names.get(suite)))
          .append("</h2>\n");
      table(h, cells, machine);
      List<SvgCharts.Chart> mine = charts.stream().filter(c -> c.suite().equals(suite))
          .toList();
      if (!mine.isEmpty()) {
        h.append("<div class=\"charts\">\n");
        for (SvgCharts.Chart c : mine) {
          h.append("<figure>\n").append(c.svg()).append("<figcaption>file: <a href=\"charts/")
              .append(esc(c.fileName())).append("\">charts/").append(esc(c.fileName()))
              .append("</a></figcaption>\n</figure>\n");
        }
        h.append("</div>\n");
      }
    });
    sections.stream().filter(s -> !s.leads()).forEach(s -> section(h, s));
    environment(h, results.environment(), results.profile(), results.machines());
    h.append("</main>\n</body>\n</html>\n");
    return h.toString();
  }

  private static void section(StringBuilder h, ReportWriter.Section section) {
    h.append("<h2>").append(esc(section.title())).append("</h2>\n<pre>")
        .append(esc(section.text())).append("</pre>\n");
  }

  private static void table(StringBuilder h, List<Cell> cells, Function<Cell, String> machine) {
    List<Rtt> rtts = ReportWriter.rtts(cells);
    Map<Rtt, Double> added = ReportWriter.addedRtts(cells);
    boolean server = ReportWriter.hasServerCounters(cells);
    h.append("<div class=\"scroll\"><table>\n<thead><tr><th>strategy</th><th>parameters</th>")
        .append(machine != null ? "<th>machine</th>" : "")
        .append("<th class=\"n\">round trips/op</th><th class=\"n\">statements/op</th>")
        .append(server ? "<th>server/op</th>" : "");
    for (Rtt r : rtts) {
      h.append("<th class=\"n\">").append(esc(r.toString()));
      if (added.containsKey(r)) {
        h.append("<small>").append(Format.millis(added.get(r))).append(" measured</small>");
      }
      h.append("</th>");
    }
    h.append("</tr></thead>\n<tbody>\n");
    ReportWriter.rows(cells).forEach((series, byRtt) -> {
      Cell any = ReportWriter.countsOf(byRtt.values());
      String approx = any.predicted() ? "\u2248" : "";
      h.append("<tr><td>").append(esc(series.strategy())).append("</td><td>")
          .append(esc(Format.params(series.params()))).append("</td>");
      if (machine != null) {
        h.append("<td>").append(esc(ReportWriter.machines(byRtt.values(), machine)))
            .append("</td>");
      }
      h.append("<td class=\"n\">").append(approx)
          .append(Format.count(any.roundTripsPerOp()))
          .append("</td><td class=\"n\">").append(approx)
          .append(Format.count(any.statementsPerOp())).append("</td>");
      if (server) {
        h.append("<td>").append(esc(Format.serverCounters(any.server()))).append("</td>");
      }
      for (Rtt r : rtts) {
        Cell cell = byRtt.get(r);
        if (cell == null) {
          h.append("<td class=\"n\">-</td>");
        } else if (cell.predicted()) {
          h.append("<td class=\"n predicted\" title=\"").append(esc(cell.note())).append("\">")
              .append(esc(Format.duration(cell.timeMs()))).append("*</td>");
        } else {
          h.append("<td class=\"n\"");
          if (cell.spread() != null) {
            h.append(" title=\"").append(esc(cell.spread().describe() + (cell.noisy()
                ? "; noisy: " + cell.spread().noisy() : ""))).append('"');
          }
          h.append('>').append(esc(Format.duration(cell.timeMs())));
          if (Double.isFinite(cell.timeErrorMs())) {
            h.append("<small>\u00b1 ").append(esc(Format.duration(cell.timeErrorMs())))
                .append("</small>");
          }
          h.append(cell.noisy() ? MarkdownReport.NOISY_MARK : "").append("</td>");
        }
      }
      h.append("</tr>\n");
    });
    h.append("</tbody>\n</table></div>\n");
  }

  private static void environment(StringBuilder h, LabEnvironment env, String profile,
      Map<String, LabEnvironment> machines) {
    h.append("<h2>Environment</h2>\n");
    if (env == null) {
      h.append("<p class=\"note\">Not recorded with these results.</p>\n");
      return;
    }
    h.append("<dl>\n");
    item(h, "profile", profile);
    item(h, "backend", env.backend());
    item(h, "lab", env.description());
    item(h, "PostgreSQL", env.postgresVersion());
    item(h, "pgjdbc", env.pgjdbcVersion());
    item(h, "Toxiproxy", env.toxiproxyVersion());
    if (env.libraries() != null) {
      env.libraries().forEach((name, version) -> item(h, name, version));
    }
    item(h, "link", env.link());
    item(h, "Java", env.javaVersion() == null ? null
        : env.javaVersion() + (env.javaVm() == null ? "" : " (" + env.javaVm() + ")"));
    item(h, "OS", env.os());
    item(h, "CPUs", env.cpus() > 0 ? String.valueOf(env.cpus()) : null);
    item(h, "max heap", env.maxHeapMb() > 0 ? env.maxHeapMb() + " MB" : null);
    if (env.postgresSettings() != null && !env.postgresSettings().isEmpty()) {
      StringBuilder s = new StringBuilder();
      new TreeMap<>(env.postgresSettings()).forEach((k, v) -> s.append("<code>").append(esc(k))
          .append('=').append(esc(v)).append("</code> "));
      h.append("<dt>server settings</dt><dd>").append(s.toString().trim()).append("</dd>\n");
    }
    machines.forEach((name, m) -> item(h, "machine " + name,
        m == null ? "not recorded" : m.machine()));
    h.append("</dl>\n");
  }

  private static void item(StringBuilder h, String name, String value) {
    if (value != null && !value.isBlank()) {
      h.append("<dt>").append(esc(name)).append("</dt><dd>").append(esc(value))
          .append("</dd>\n");
    }
  }

  private static String anchor(String s) {
    return s.replaceAll("[^A-Za-z0-9_-]+", "-");
  }

  /** HTML text and attribute values. */
  public static String esc(String s) {
    return s == null ? "" : SvgCharts.escape(s);
  }
}
