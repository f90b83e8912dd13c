package io.github.latencylab.report;

import io.github.latencylab.env.LabEnvironment;
import io.github.latencylab.latency.Rtt;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Results as Markdown: per suite, one row per strategy and parameters, one column per RTT,
 * each cell the mean time per operation; predicted cells in italics with an asterisk.
 */
final class MarkdownReport {

  private MarkdownReport() {
  }

  static String render(Results results) {
    return render(results, null);
  }

  /** The report, with a baseline comparison's summary and findings when there is one. */
  static String render(Results results, ReportWriter.Check comparison) {
    return render(results, comparison, List.of());
  }

  /** The same, with {@code sections} after the tables. */
  static String render(Results results, ReportWriter.Check comparison,
      List<ReportWriter.Section> sections) {
    StringBuilder md = new StringBuilder();
    if (comparison != null) {
      md.append("### Baseline check\n\n").append(comparison.summary()).append("\n\n");
      if (!comparison.findings().isEmpty()) {
        md.append("```\n");
        comparison.findings().forEach(f -> md.append(f).append('\n'));
        md.append("```\n\n");
      }
    }
    sections.stream().filter(ReportWriter.Section::leads).forEach(s -> section(md, s));
    Map<String, List<Cell>> bySuite = ReportWriter.bySuite(results);
    Map<String, String> names = ReportWriter.shortNames(bySuite.keySet());
    Function<Cell, String> machine = results.machines().isEmpty() ? null : results::machine;
    bySuite.forEach((suite, cells) ->
        md.append(suiteTable(names.get(suite), cells, machine)).append('\n'));
    if (machine != null) {
      md.append(Results.MACHINES_NOTE).append("\n\n");
    }
    if (isTests(results)) {
      md.append(TESTS_NOTE).append("\n\n");
    } else {
      md.append("Time per operation (JMH mean). Round trips and statements per operation are"
          + " counted at the socket; server/op: the server's counters per operation (commits, WAL"
          + " bytes and flushes, temp bytes, blocks read, cache hit ratio), database-wide deltas."
          + " *Italic cells with an asterisk* are predicted by the model"
          + " T(L) = T0 + round trips x L fitted on the same row's measured cells (or scaled"
          + " from a smaller size, ≈), not measured: a point that would take too long.\n\n");
      md.append(noisy(results.cells()));
    }
    sections.stream().filter(s -> !s.leads()).forEach(s -> section(md, s));
    md.append(environment(results.environment(), results.profile()));
    results.machines().forEach((name, env) -> md.append("- machine ").append(name).append(": ")
        .append(env == null ? "not recorded" : env.machine()).append('\n'));
    return md.toString();
  }

  private static void section(StringBuilder md, ReportWriter.Section section) {
    md.append("### ").append(section.title()).append("\n\n```\n").append(section.text());
    md.append(section.text().endsWith("\n") ? "" : "\n").append("```\n\n");
  }

  /** Results of users' tests (the JUnit extension's report), not of benchmarks. */
  static boolean isTests(Results results) {
    return "tests".equals(results.kind());
  }

  static final String TESTS_NOTE = "One row per test: its round trips and statements counted at"
      + " the wire (connection set-up, validation and pool housekeeping not counted), the time"
      + " it waited on the database, measured once at the Lab's added RTT (0 ms: how long its"
      + " reads were blocked on the server; the test's own time, its CPU, JIT and class loading,"
      + " is not in it), and *in italics with an asterisk* its cost priced by the model T(L) ="
      + " that wait + (round trips + window flights) x (L - the RTT measured at), not measured."
      + " The baseline gates round trips and statements, never time.";

  static String suiteTable(String suite, List<Cell> cells) {
    return suiteTable(suite, cells, null);
  }

  /** A suite's table; with {@code machine} (cells from several), the machine of each row. */
  static String suiteTable(String suite, List<Cell> cells, Function<Cell, String> machine) {
    List<Rtt> rtts = ReportWriter.rtts(cells);
    StringBuilder md = new StringBuilder("### ").append(suite).append("\n\n");
    boolean server = ReportWriter.hasServerCounters(cells);
    md.append("| strategy | parameters |").append(machine != null ? " machine |" : "")
        .append(" round trips/op | statements/op |")
        .append(server ? " server/op |" : "");
    StringBuilder rule = new StringBuilder("|---|---|").append(machine != null ? "---|" : "")
        .append("---:|---:|").append(server ? "---|" : "");
    Map<Rtt, Double> added = ReportWriter.addedRtts(cells);
    for (Rtt r : rtts) {
      md.append(' ').append(r);
      if (added.containsKey(r)) {
        md.append(" (").append(Format.millis(added.get(r))).append(" measured)");
      }
      md.append(" |");
      rule.append("---:|");
    }
    md.append('\n').append(rule).append('\n');
    ReportWriter.rows(cells).forEach((series, byRtt) -> {
      // counts from a measured cell; a row predicted throughout shows its estimate as such
      Cell any = ReportWriter.countsOf(byRtt.values());
      String approx = any.predicted() ? "≈" : "";
      md.append("| ").append(series.strategy()).append(" | ")
          .append(Format.params(series.params())).append(" | ");
      if (machine != null) {
        md.append(ReportWriter.machines(byRtt.values(), machine)).append(" | ");
      }
      md.append(approx).append(Format.count(any.roundTripsPerOp())).append(" | ")
          .append(approx).append(Format.count(any.statementsPerOp())).append(" |");
      if (server) {
        md.append(' ').append(Format.serverCounters(any.server())).append(" |");
      }
      for (Rtt r : rtts) {
        Cell cell = byRtt.get(r);
        md.append(' ').append(cell == null ? "-" : time(cell)).append(" |");
      }
      md.append('\n');
    });
    return md.toString();
  }

  static String environment(LabEnvironment env, String profile) {
    if (env == null) {
      return profile == null ? "" : "#### Environment\n\n- profile: " + profile + "\n";
    }
    StringBuilder md = new StringBuilder("#### Environment\n\n");
    if (profile != null) {
      md.append("- profile: ").append(profile).append('\n');
    }
    if (env.description() != null) {
      md.append("- ").append(env.description()).append('\n');
    }
    List<String> versions = new ArrayList<>();
    if (env.postgresVersion() != null) {
      versions.add("PostgreSQL " + env.postgresVersion());
    }
    if (env.pgjdbcVersion() != null) {
      versions.add("pgjdbc " + env.pgjdbcVersion());
    }
    if (env.toxiproxyVersion() != null) {
      versions.add("Toxiproxy " + env.toxiproxyVersion());
    }
    if (env.libraries() != null) {
      env.libraries().forEach((name, version) -> versions.add(name + " " + version));
    }
    if (!versions.isEmpty()) {
      md.append("- ").append(String.join(", ", versions)).append('\n');
    }
    if (env.link() != null) {
      md.append("- link ").append(env.link()).append('\n');
    }
    List<String> machine = new ArrayList<>();
    if (env.javaVersion() != null) {
      machine.add("Java " + env.javaVersion() + (env.javaVm() == null ? ""
          : " (" + env.javaVm() + ")"));
    }
    if (env.os() != null) {
      machine.add(env.os());
    }
    if (env.cpus() > 0) {
      machine.add(env.cpus() + " CPUs");
    }
    if (!machine.isEmpty()) {
      md.append("- ").append(String.join(", ", machine)).append('\n');
    }
    if (env.postgresSettings() != null && !env.postgresSettings().isEmpty()) {
      md.append("- server settings:");
      env.postgresSettings().forEach((k, v) -> md.append(" `").append(k).append('=')
          .append(v).append('`'));
      md.append('\n');
    }
    return md.toString();
  }

  private static String time(Cell c) {
    return c.predicted() ? "*" + Format.duration(c.timeMs()) + "\\**"
        : Format.duration(c.timeMs()) + (c.noisy() ? NOISY_MARK : "");
  }

  /** Marks a measured cell whose interval is wider than its run asked. */
  static final String NOISY_MARK = "†";

  /** The cells marked noisy, each with its interval, its samples' median and IQR, and why. */
  static String noisy(List<Cell> cells) {
    List<Cell> noisy = cells.stream().filter(Cell::noisy).toList();
    if (noisy.isEmpty()) {
      return "";
    }
    StringBuilder md = new StringBuilder("### Noisy cells\n\n" + NOISY_MARK + " " + noisy.size()
        + " measured cell" + (noisy.size() == 1 ? "'s" : "s'") + " 99.9% interval stayed wider"
        + " than the run asked, within the cell's budget: each with its samples (JMH's"
        + " measurement iterations, every fork's) and why.\n\n"
        + "| cell | mean ± 99.9% | samples: median (IQR) | why |\n|---|---:|---|---|\n");
    for (Cell c : noisy) {
      md.append("| ").append(c.key()).append(" | ").append(Format.duration(c.timeMs()))
          .append(" ± ").append(Format.duration(c.timeErrorMs())).append(" | ")
          .append(c.spread().describe()).append(" | ").append(c.spread().noisy()).append(" |\n");
    }
    return md.append('\n').toString();
  }
}
