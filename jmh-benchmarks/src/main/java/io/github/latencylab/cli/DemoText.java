package io.github.latencylab.cli;

import io.github.latencylab.cli.DemoReport.AtRtt;
import io.github.latencylab.cli.DemoReport.Row;
import io.github.latencylab.latency.Rtt;
import io.github.latencylab.report.Format;
import java.nio.charset.Charset;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The demo's report as text for a terminal (or a projector): tables, bars, the N+1's SQL. */
final class DemoText {

  private static final int BAR_WIDTH = 28;
  private static final String RESET = "\u001b[0m";
  private static final String BOLD = "\u001b[1m";
  private static final String DIM = "\u001b[2m";
  private static final String RED = "\u001b[31m";
  private static final String YELLOW = "\u001b[33m";
  private static final String GREEN = "\u001b[32m";

  /** ANSI colours (only on a terminal) and block characters (where the charset has them). */
  record Style(boolean color, boolean blocks) {

    static Style detect() {
      boolean terminal = System.console() != null;
      boolean color = terminal && System.getenv("NO_COLOR") == null
          && !"dumb".equals(System.getenv("TERM"));
      String encoding = System.getProperty("sun.stdout.encoding");
      Charset charset;
      try {
        charset = encoding != null ? Charset.forName(encoding) : Charset.defaultCharset();
      } catch (RuntimeException e) {
        charset = Charset.defaultCharset();
      }
      return new Style(color, charset.newEncoder().canEncode('\u2588'));
    }

    static Style plain() {
      return new Style(false, false);
    }

    String paint(String code, String text) {
      return color ? code + text + RESET : text;
    }

    char bar() {
      return blocks ? '\u2588' : '#';
    }
  }

  private DemoText() {
  }

  static String header(DemoReport report, AtRtt at, Style style) {
    StringBuilder out = new StringBuilder();
    out.append(style.paint(BOLD, "latency-lab demo: the N+1 and its fixes, Hibernate ORM "
        + report.hibernateVersion() + ", at " + at.rtt())).append('\n');
    out.append("  PostgreSQL ").append(report.environment().postgresVersion()).append(", ")
        .append(report.environment().backend()).append(" backend; ")
        .append(String.format(Locale.ROOT, "%,d authors x %,d books",
            report.parents(), report.children())).append(" each, seeded with COPY\n");
    if (at.probes() > 0) {
      out.append(String.format(Locale.ROOT, "  RTT %s: measured +%.2f ms per round trip"
              + " (mean of %d probes; p50 +%.2f, p99 +%.2f; %.2f ms without latency)%n",
          at.rtt(), at.addedMeanMs(), at.probes(), at.addedP50Ms(), at.addedP99Ms(),
          at.baselineMeanMs()));
    } else {
      out.append("  RTT ").append(at.rtt()).append(": no latency added\n");
    }
    out.append("  ").append(report.method()).append('\n');
    return out.toString();
  }

  /** One question's strategies: the table with its bars. */
  static String table(String question, List<Row> rows, double slowestMs, Style style) {
    StringBuilder out = new StringBuilder();
    out.append('\n').append(style.paint(BOLD, question)).append('\n');
    String format = "%-19s %14s %12s %15s %10s %8s  %s%n";
    out.append(String.format(Locale.ROOT, format, "strategy", "SQL statements", "round trips",
        "window flights", "time", "vs best", "").stripTrailing()).append('\n');
    for (Row r : rows) {
      String ratio = r.slowerThanBest() < 1.005 ? "best"
          : String.format(Locale.ROOT, "%.1fx", r.slowerThanBest());
      String colour = r.slowerThanBest() < 1.5 ? GREEN : r.slowerThanBest() < 5 ? YELLOW : RED;
      int width = slowestMs <= 0 ? 1
          : (int) Math.max(1, Math.round(BAR_WIDTH * r.timeMs() / slowestMs));
      out.append(String.format(Locale.ROOT, format, r.strategy(),
          Format.count(r.sqlStatements()), Format.count(r.roundTrips()),
          Format.count(r.windowFlights()), Format.duration(r.timeMs()), ratio,
          style.paint(colour, String.valueOf(style.bar()).repeat(width))));
    }
    return out.toString();
  }

  static String footnote(Style style) {
    return style.paint(DIM, "SQL statements: read at the wire, BEGIN and COMMIT not counted."
        + " Round trips: everything on the wire,\nthe COMMIT included (BEGIN rides along with"
        + " the first query). Window flights: the\nflights the replies needed beyond their first"
        + " while the link's TCP window grew (each one more RTT).") + '\n';
  }

  static String nPlusOneSql(DemoReport.NPlusOneSql sql, Style style) {
    StringBuilder out = new StringBuilder();
    out.append('\n').append(style.paint(BOLD, String.format(Locale.ROOT,
        "What the N+1 (%s) sent, read at the wire: %,d SQL statements, the first %d:",
        sql.strategy(), sql.statements(), sql.first().size()))).append('\n');
    for (int i = 0; i < sql.first().size(); i++) {
      out.append(String.format(Locale.ROOT, "  %3d  %s%n", i + 1, sql.first().get(i)));
    }
    if (sql.moreLikeTheLast() > 0) {
      out.append(String.format(Locale.ROOT, "       ... and %,d more like it%n",
          sql.moreLikeTheLast()));
    }
    if (sql.moreOthers() > 0) {
      out.append(String.format(Locale.ROOT, "       ... and %,d other statements%n",
          sql.moreOthers()));
    }
    return out.toString();
  }

  /**
   * Times at other latencies, predicted by each strategy's model fitted on its runs, marked as
   * such; those far below the measured RTTs marked uncertain.
   */
  static String predictions(DemoReport report, Style style) {
    String fittedOn = report.rtts().stream().map(a -> a.rtt().toString())
        .collect(java.util.stream.Collectors.joining(", "));
    StringBuilder out = new StringBuilder();
    out.append('\n').append(style.paint(BOLD, "PREDICTED at other latencies, not measured"))
        .append(": T(L) = T0 + (round trips + window flights) x L,\n")
        .append(report.rtts().size() == 1 ? "T0 from the run at " + fittedOn
            : "T0 fitted on the runs at " + fittedOn + " (least squares)").append('\n');
    Map<String, Rtt> latencies = DemoReport.PREDICTED_AT;
    StringBuilder format = new StringBuilder("%-19s");
    for (String name : latencies.keySet()) {
      format.append("   %").append(Math.max(12, name.length())).append('s');
    }
    format.append("%n");
    out.append(String.format(Locale.ROOT, format.toString(),
        concat("strategy", latencies.keySet().toArray(new String[0]))));
    boolean anyMeasured = false;
    boolean anyUncertain = false;
    for (DemoReport.Prediction p : report.predictions()) {
      String[] cells = new String[latencies.size()];
      int i = 0;
      for (Map.Entry<String, Rtt> latency : latencies.entrySet()) {
        Row same = measuredAt(report.rtts(), latency.getValue(), p.strategy());
        if (same != null) {
          cells[i++] = Format.duration(same.timeMs()) + " *";
          anyMeasured = true;
        } else if (p.uncertain().contains(latency.getKey())) {
          cells[i++] = Format.duration(p.predictedMs().get(latency.getKey())) + " ?";
          anyUncertain = true;
        } else {
          cells[i++] = Format.duration(p.predictedMs().get(latency.getKey())) + "  ";
        }
      }
      out.append(String.format(Locale.ROOT, format.toString(), concat(p.strategy(), cells)));
    }
    if (anyMeasured) {
      out.append(style.paint(DIM, "* measured in this run, not predicted")).append('\n');
    }
    if (anyUncertain) {
      out.append(style.paint(DIM, "? far below the RTTs measured (" + fittedOn + "): the"
          + " small difference of two large times,\n  uncertain (a few % off in what a round"
          + " trip costs there moves it a lot); measure it\n  instead, e.g. --rtt 0.5ms,"
          + report.rtts().get(report.rtts().size() - 1).rtt())).append('\n');
    }
    return out.toString();
  }

  private static Row measuredAt(List<AtRtt> measured, Rtt rtt, String strategy) {
    for (AtRtt at : measured) {
      if (at.rtt().equals(rtt)) {
        for (Row row : at.strategies()) {
          if (row.strategy().equals(strategy)) {
            return row;
          }
        }
      }
    }
    return null;
  }

  private static Object[] concat(String first, String[] rest) {
    Object[] all = new Object[rest.length + 1];
    all[0] = first;
    System.arraycopy(rest, 0, all, 1, rest.length);
    return all;
  }

}
