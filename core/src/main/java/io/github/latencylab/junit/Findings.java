package io.github.latencylab.junit;

import io.github.latencylab.latency.Rtt;
import io.github.latencylab.report.Format;
import io.github.latencylab.wire.CodeLine;
import io.github.latencylab.wire.SqlShape;
import io.github.latencylab.wire.WireStatement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The run's findings: every N+1 (a query per row, each its own round trip) and every row-by-row
 * write ({@link Repeats}), by the chain of the application's frames that sent it, across all
 * tests; ranked by the round trips a fix would save (all but one per test), priced at the RTTs
 * of a region move. One finding is one SQL shape from one chain of methods (lines aside, so that
 * an edit above it keeps its identity): the key the ratchet ({@link FindingsBaseline}) and the
 * SARIF file ({@link Sarif}) keep.
 */
final class Findings {

  /** What a finding is, with its SARIF rule. */
  enum Kind {
    N_PLUS_ONE("N+1", "latency-lab/n-plus-one",
        "A query per row: the same query with a key, each its own round trip; fetch them in one"
            + " query (join fetch, entity graph, batch fetch) or load by ids."),
    ROW_BY_ROW("row-by-row write", "latency-lab/row-by-row",
        "The same write, one round trip each; batch them (JDBC: addBatch/executeBatch,"
            + " reWriteBatchedInserts; R2DBC: Statement.add(), Connection.createBatch(); Vert.x:"
            + " executeBatch), or send them as one statement or a COPY.");

    final String label;
    final String ruleId;
    final String help;

    Kind(String label, String ruleId, String help) {
      this.label = label;
      this.ruleId = ruleId;
      this.help = help;
    }
  }

  /**
   * One finding in one test: the shape, the chain (call site first), what it sent, and the HTTP
   * route whose handler sent it (null: none).
   */
  record Occurrence(Kind kind, String shape, List<CodeLine> chain, long statements,
      long roundTrips, String endpoint) {

    /**
     * "N+1 at Visit.findByPetId: select ... where pet_id=?": the method that sent it, not its
     * line nor its callers, so that one N+1 reached from two pages is one finding.
     */
    String key() {
      return kind.label + " at " + (chain.isEmpty() ? "(no application frame)"
          : chain.get(0).method()) + ": " + shape;
    }

    /** "`OwnersResource.setVisits(OwnersResource.java:154)` -> `Visit.findByPetId(...)`". */
    String chainText() {
      if (chain.isEmpty()) {
        return "(no application frame)";
      }
      List<String> frames = new ArrayList<>();
      chain.forEach(l -> frames.add(0, "`" + l.frame() + "`"));
      return String.join(" -> ", frames);
    }

    /** One line: "N+1: `select ...` ran 6 times in 6 round trips from ...". */
    String describe() {
      return kind.label + ": `" + SqlShape.brief(shape) + "` ran "
          + RoundTrips.plural(statements, "time") + " in "
          + RoundTrips.plural(roundTrips, "round trip") + " from " + chainText()
          + (endpoint == null ? "" : " on " + endpoint);
    }
  }

  /**
   * A finding across the run: its first occurrence, its count over every test, the chains that
   * reached it (the most round trips first), the lines above its call site in them (each once),
   * and the routes it served.
   */
  record Finding(Occurrence first, long statements, long roundTrips, long worstInOneTest,
      List<String> tests, List<String> chains, List<CodeLine> callers, List<String> endpoints) {

    /** Round trips a fix would save: all but one a test. */
    long avoidable() {
      return Math.max(0, roundTrips - tests.size());
    }
  }

  private Findings() {
  }

  private static List<CodeLine> chainOf(WireStatement s) {
    return s.chain() == null ? List.of() : s.chain();
  }

  static String methods(List<CodeLine> chain) {
    if (chain.isEmpty()) {
      return "(no application frame)";
    }
    List<String> methods = new ArrayList<>();
    chain.forEach(l -> methods.add(0, l.method()));
    return String.join(" -> ", methods);
  }

  /**
   * The findings among one test's counted statements: what {@link Repeats} finds repeated among
   * the statements each chain of methods sent.
   */
  static List<Occurrence> in(List<WireStatement> statements) {
    Map<String, List<WireStatement>> byChain = new LinkedHashMap<>();
    statements.forEach(s -> byChain.computeIfAbsent(methods(chainOf(s)),
        k -> new ArrayList<>()).add(s));
    List<Occurrence> found = new ArrayList<>();
    byChain.values().forEach(list -> {
      for (Repeats.Repeat r : Repeats.of(list)) {
        Kind kind = r.nPlusOne() ? Kind.N_PLUS_ONE : r.rowByRow() ? Kind.ROW_BY_ROW : null;
        if (kind != null) {
          WireStatement first = list.stream()
              .filter(s -> SqlShape.of(s.sql()).equals(r.shape())).findFirst().orElseThrow();
          found.add(new Occurrence(kind, r.shape(), chainOf(first), r.times(),
              r.roundTrips(), first.endpoint()));
        }
      }
    });
    return found;
  }

  /** The findings of every test ({@code occurrences} by test), most avoidable round trips first. */
  static List<Finding> across(Map<String, List<Occurrence>> occurrences) {
    Map<String, List<Map.Entry<String, Occurrence>>> byKey = new LinkedHashMap<>();
    occurrences.forEach((test, list) -> list.forEach(o -> byKey.computeIfAbsent(o.key(),
        k -> new ArrayList<>()).add(Map.entry(test, o))));
    List<Finding> findings = new ArrayList<>();
    byKey.values().forEach(list -> {
      Map<String, Long> chains = new LinkedHashMap<>();
      list.forEach(e -> chains.merge(e.getValue().chainText(), e.getValue().roundTrips(),
          Long::sum));
      findings.add(new Finding(list.get(0).getValue(),
          list.stream().mapToLong(e -> e.getValue().statements()).sum(),
          list.stream().mapToLong(e -> e.getValue().roundTrips()).sum(),
          list.stream().mapToLong(e -> e.getValue().roundTrips()).max().orElse(0),
          list.stream().map(Map.Entry::getKey).distinct().toList(),
          chains.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue()
              .reversed()).map(Map.Entry::getKey).toList(),
          list.stream().flatMap(e -> e.getValue().chain().stream().skip(1)).distinct()
              .toList(),
          list.stream().map(e -> e.getValue().endpoint()).filter(java.util.Objects::nonNull)
              .distinct().sorted().toList()));
    });
    findings.sort(Comparator.comparingLong(Finding::avoidable).reversed()
        .thenComparing(f -> f.first().key()));
    return findings;
  }

  /**
   * The report's leading section: the findings ranked, each priced at {@link
   * CallSiteRanking#PRICED_AT}, and the share of all round trips that fixing them would save;
   * {@code totalRoundTrips} is what the audited tests sent.
   */
  static String section(List<Finding> findings, long totalRoundTrips, int tests) {
    if (findings.isEmpty()) {
      return "No N+1 and no row-by-row write in the " + RoundTrips.plural(tests, "test")
          + " counted (" + RoundTrips.plural(totalRoundTrips, "round trip") + ").\n";
    }
    long avoidable = findings.stream().mapToLong(Finding::avoidable).sum();
    StringBuilder s = new StringBuilder();
    Map<Kind, Long> byKind = findings.stream().collect(Collectors.groupingBy(
        f -> f.first().kind(), LinkedHashMap::new, Collectors.counting()));
    s.append(byKind.entrySet().stream().map(e -> RoundTrips.plural(e.getValue(),
        e.getKey().label)).collect(Collectors.joining(", "))).append(" in ")
        .append(findings.stream().flatMap(f -> f.tests().stream()).distinct().count())
        .append(" of ").append(RoundTrips.plural(tests, "test")).append(" counted. Fixing them")
        .append(" would save ").append(Format.count(avoidable)).append(" of the ")
        .append(RoundTrips.plural(totalRoundTrips, "round trip")).append(" the tests sent (")
        .append(String.format(Locale.ROOT, "%.0f%%", totalRoundTrips == 0 ? 0.0
            : 100.0 * avoidable / totalRoundTrips)).append("): ");
    s.append(CallSiteRanking.PRICED_AT.stream().map(r -> Format.duration(avoidable * r.millis())
        + " at " + r).collect(Collectors.joining(", "))).append(" of the wire.\n\n");
    int rank = 0;
    for (Finding f : findings) {
      Occurrence o = f.first();
      s.append(++rank).append(". ").append(o.kind().label).append(": `")
          .append(SqlShape.brief(o.shape())).append("`\n");
      f.chains().stream().limit(3).forEach(c -> s.append("   from ").append(c).append('\n'));
      if (!f.endpoints().isEmpty()) {
        s.append("   on ").append(String.join(", ", f.endpoints())).append('\n');
      }
      if (f.chains().size() > 3) {
        s.append("   and ").append(f.chains().size() - 3).append(" more chains\n");
      }
      s.append("   ").append(RoundTrips.plural(f.roundTrips(), "round trip")).append(" in ")
          .append(RoundTrips.plural(f.tests().size(), "test")).append(" (at most ")
          .append(Format.count(f.worstInOneTest())).append(" in one), ")
          .append(Format.count(f.avoidable())).append(" avoidable: ");
      for (Rtt r : CallSiteRanking.PRICED_AT) {
        s.append(Format.duration(f.avoidable() * r.millis())).append(" at ").append(r)
            .append(r == CallSiteRanking.PRICED_AT.get(CallSiteRanking.PRICED_AT.size() - 1)
                ? "\n" : ", ");
      }
      s.append("   in ").append(f.tests().stream().limit(3).collect(Collectors.joining(", ")))
          .append(f.tests().size() > 3 ? " and " + (f.tests().size() - 3) + " more" : "")
          .append('\n');
    }
    return s.append("Priced as the avoidable round trips x the added RTT: what the wire would"
        + " add if the database moved that far away.\n").toString();
  }

  /**
   * Round trips per HTTP route, across every test that drove one ({@code statements} by test),
   * with what the findings on each would save: "GET /owners/{ownerId}: 12 round trips in 2
   * tests, 4 avoidable (...)"; "" where no statement came from a handler.
   */
  static String endpoints(Map<String, List<WireStatement>> statements,
      Map<String, List<Occurrence>> occurrences) {
    Map<String, long[]> byRoute = new java.util.TreeMap<>(); // round trips, tests, avoidable
    statements.forEach((test, list) -> {
      Map<String, Set<String>> trips = new LinkedHashMap<>();
      list.stream().filter(st -> st.endpoint() != null).forEach(st -> trips.computeIfAbsent(
          st.endpoint(), k -> new HashSet<>()).add(st.trip()));
      trips.forEach((route, t) -> {
        long[] n = byRoute.computeIfAbsent(route, k -> new long[3]);
        n[0] += t.size();
        n[1]++;
      });
    });
    occurrences.values().forEach(list -> list.stream().filter(o -> o.endpoint() != null)
        .forEach(o -> byRoute.computeIfAbsent(o.endpoint(), k -> new long[3])[2]
            += o.roundTrips() - 1));
    if (byRoute.isEmpty()) {
      return "";
    }
    StringBuilder s = new StringBuilder();
    byRoute.entrySet().stream().sorted(Comparator.comparingLong((Map.Entry<String, long[]> e)
        -> -e.getValue()[2]).thenComparingLong(e -> -e.getValue()[0])).forEach(e -> {
          long[] n = e.getValue();
          s.append(e.getKey()).append(": ").append(RoundTrips.plural(n[0], "round trip"))
              .append(" in ").append(RoundTrips.plural(n[1], "test")).append(", ")
              .append(Format.count(n[2])).append(" avoidable");
          if (n[2] > 0) {
            s.append(" (").append(CallSiteRanking.PRICED_AT.stream().map(r -> Format.duration(
                n[2] * r.millis()) + " at " + r).collect(Collectors.joining(", "))).append(')');
          }
          s.append('\n');
        });
    return s.toString();
  }

  /**
   * The Markdown summary for a CI job's page ({@code findings.md}, e.g. appended to GitHub's
   * {@code $GITHUB_STEP_SUMMARY}): the counts, then a table of the findings, ranked.
   */
  static String markdown(List<Finding> findings, long totalRoundTrips, int tests,
      int notAudited) {
    long avoidable = findings.stream().mapToLong(Finding::avoidable).sum();
    StringBuilder md = new StringBuilder("### latency-lab: ")
        .append(RoundTrips.plural(findings.size(), "finding")).append("\n\n")
        .append(RoundTrips.plural(tests, "test")).append(" counted")
        .append(notAudited == 0 ? "" : ", " + Format.count(notAudited) + " not audited")
        .append(": ").append(RoundTrips.plural(totalRoundTrips, "round trip")).append(", ")
        .append(Format.count(avoidable)).append(" of them avoidable (")
        .append(CallSiteRanking.PRICED_AT.stream().map(r -> Format.duration(avoidable
            * r.millis()) + " at " + r).collect(Collectors.joining(", "))).append(").\n\n");
    if (findings.isEmpty()) {
      return md.toString();
    }
    md.append("| # | finding | SQL | from | tests | round trips | avoidable |");
    CallSiteRanking.PRICED_AT.forEach(r -> md.append(" at ").append(r).append(" |"));
    md.append("\n|---|---|---|---|---:|---:|---:|");
    CallSiteRanking.PRICED_AT.forEach(r -> md.append("---:|"));
    md.append('\n');
    int rank = 0;
    for (Finding f : findings) {
      Occurrence o = f.first();
      md.append("| ").append(++rank).append(" | ").append(o.kind().label).append(" | `")
          .append(SqlShape.brief(o.shape()).replace("|", "\\|")).append("` | ")
          .append(f.chains().get(0).replace("|", "\\|")).append(f.chains().size() > 1
              ? " and " + (f.chains().size() - 1) + " more" : "").append(" | ")
          .append(f.tests().size())
          .append(" | ").append(Format.count(f.roundTrips())).append(" | ")
          .append(Format.count(f.avoidable())).append(" |");
      CallSiteRanking.PRICED_AT.forEach(r -> md.append(' ').append(Format.duration(
          f.avoidable() * r.millis())).append(" |"));
      md.append('\n');
    }
    return md.toString();
  }
}
