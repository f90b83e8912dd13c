package io.github.latencylab.report;

import io.github.latencylab.env.LabEnvironment;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

/**
 * Results as Markdown: per suite, one row per strategy and parameters, one column per RTT,
 * each cell the mean time per operation; predicted cells in italics with an asterisk.
 */
public final class MarkdownReport {

  private MarkdownReport() {
  }

  public static String render(Results results) {
    return render(results, null);
  }

  /** The report, with a baseline comparison's summary and findings when there is one. */
  public static String render(Results results, BaselineComparison comparison) {
    StringBuilder md = new StringBuilder();
    if (comparison != null) {
      md.append("### Baseline check\n\n").append(comparison.summary()).append("\n\n");
      if (!comparison.findings().isEmpty()) {
        md.append("```\n");
        comparison.findings().forEach(f -> md.append(f).append('\n'));
        md.append("```\n\n");
      }
    }
    Map<String, List<Measurement>> bySuite = new LinkedHashMap<>();
    for (Measurement m : results.measurements()) {
      bySuite.computeIfAbsent(m.benchmark(), k -> new ArrayList<>()).add(m);
    }
    bySuite.forEach((suite, cells) -> md.append(suiteTable(suite, cells)).append('\n'));
    md.append("Time per operation (JMH mean). Round trips and statements per operation are"
        + " counted at the socket; server/op: the server's counters per operation (commits, WAL"
        + " bytes, temp bytes, blocks read, cache hit ratio), database-wide deltas. *Italic cells with an asterisk* are predicted by the model"
        + " T(L) = T(L0) + round trips x (L - L0) from the same row's measured cell, not"
        + " measured (a point that would take too long).\n\n");
    md.append(environment(results.environment(), results.profile()));
    return md.toString();
  }

  static String suiteTable(String suite, List<Measurement> cells) {
    TreeSet<Measurement> rtts = new TreeSet<>((a, b) -> Double.compare(a.rttMs(), b.rttMs()));
    rtts.addAll(cells);
    Map<String, Map<String, Measurement>> rows = new LinkedHashMap<>();
    for (Measurement m : cells) {
      rows.computeIfAbsent(m.strategy() + "|" + params(m.params()), k -> new LinkedHashMap<>())
          .put(m.rtt(), m);
    }
    StringBuilder md = new StringBuilder("### ").append(suite).append("\n\n");
    boolean server = hasServerCounters(cells);
    md.append("| strategy | parameters | round trips/op | statements/op |")
        .append(server ? " server/op |" : "");
    StringBuilder rule = new StringBuilder("|---|---|---:|---:|").append(server ? "---|" : "");
    for (Measurement r : rtts) {
      md.append(' ').append(r.rtt());
      if (Double.isFinite(r.addedRttMs())) {
        md.append(" (").append(ms(r.addedRttMs())).append(" measured)");
      }
      md.append(" |");
      rule.append("---:|");
    }
    md.append('\n').append(rule).append('\n');
    rows.forEach((key, byRtt) -> {
      // counts from a measured cell; a row predicted throughout shows its estimate as such
      Measurement any = byRtt.values().stream().filter(m -> !m.predicted()).findFirst()
          .orElse(byRtt.values().iterator().next());
      String approx = any.predicted() ? "≈" : "";
      md.append("| ").append(any.strategy()).append(" | ").append(params(any.params()))
          .append(" | ")
          .append(approx).append(count(any.roundTripsPerOp())).append(" | ")
          .append(approx).append(count(any.statementsPerOp())).append(" |");
      if (server) {
        md.append(' ').append(serverCounters(any.server())).append(" |");
      }
      for (Measurement r : rtts) {
        Measurement cell = byRtt.get(r.rtt());
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
    if (!versions.isEmpty()) {
      md.append("- ").append(String.join(", ", versions)).append('\n');
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

  /** "rows=1000, batch=100": a cell's parameters as the tables show them. */
  static String params(Map<String, String> params) {
    StringBuilder s = new StringBuilder();
    params.forEach((k, v) -> s.append(s.length() == 0 ? "" : ", ").append(k).append('=')
        .append(v));
    return s.toString();
  }

  static boolean hasServerCounters(List<Measurement> cells) {
    return cells.stream().anyMatch(m -> !m.server().isEmpty());
  }

  /**
   * A cell's server counters in a few words: "1 commit, 412 B WAL, 99.8% hit" (and the temp
   * bytes and blocks read when there are any); "-" without counters.
   */
  static String serverCounters(Map<String, Double> server) {
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
      parts.add(String.format(Locale.ROOT, "%.1f%% hit", 100 * hit));
    }
    return String.join(", ", parts);
  }

  /** Bytes in the unit that reads best: 412 B, 8.2 kB, 3.1 MB. */
  static String bytes(double b) {
    if (b < 1024) {
      return String.format(Locale.ROOT, "%.0f B", b);
    }
    if (b < 1024 * 1024) {
      return String.format(Locale.ROOT, "%.1f kB", b / 1024);
    }
    return String.format(Locale.ROOT, "%.1f MB", b / (1024 * 1024));
  }

  /** A count per operation: whole numbers as they are, averages with two decimals. */
  static String count(double v) {
    if (!Double.isFinite(v)) {
      return "-";
    }
    return v == Math.rint(v) ? String.format(Locale.ROOT, "%,.0f", v)
        : String.format(Locale.ROOT, "%,.2f", v);
  }

  /** A time in the unit that reads best: 612 µs, 20.4 ms, 5.31 s, 5.3 min. */
  public static String duration(double ms) {
    if (!Double.isFinite(ms)) {
      return "-";
    }
    if (ms < 1) {
      return String.format(Locale.ROOT, "%.0f µs", ms * 1000);
    }
    if (ms < 1000) {
      return String.format(Locale.ROOT, ms < 100 ? "%.2f ms" : "%.0f ms", ms);
    }
    if (ms < 120_000) {
      return String.format(Locale.ROOT, "%.2f s", ms / 1000);
    }
    return String.format(Locale.ROOT, "%.1f min", ms / 60_000);
  }

  private static String time(Measurement m) {
    return m.predicted() ? "*" + duration(m.timeMs()) + "\\**" : duration(m.timeMs());
  }

  private static String ms(double v) {
    return String.format(Locale.ROOT, "%.2f ms", v);
  }
}
