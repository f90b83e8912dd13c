package io.github.latencylab.junit;

import io.github.latencylab.report.Format;
import io.github.latencylab.wire.SqlShape;
import io.github.latencylab.wire.WireStatement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Statements of the same {@link SqlShape shape} that a block ran more than once, with where
 * they came from, and what the repetition is: an N+1 (a query per row, each its own round
 * trip), row-by-row writes, a batch fetch (a list of keys per statement: not an N+1), or a
 * JDBC batch (many statements, few round trips).
 */
final class Repeats {

  /** A query shape repeated in this many round trips or more is called an N+1. */
  static final int N_PLUS_ONE_TRIPS = 3;

  private Repeats() {
  }

  /** One shape that ran more than once. */
  record Repeat(String shape, long times, long roundTrips, Map<String, Long> callSites,
      boolean relayed) {

    /**
     * A query per row: a query with a key ({@code ?}), each in its own round trip, not a
     * key-list load: an N+1. (The same query without a key, repeated, is not.)
     */
    boolean nPlusOne() {
      return SqlShape.isQuery(shape) && shape.contains("?") && !SqlShape.loadsByKeyList(shape)
          && roundTrips >= N_PLUS_ONE_TRIPS;
    }

    /** The same write, each in its own round trip, often enough to be called row by row. */
    boolean rowByRow() {
      return !SqlShape.isQuery(shape) && roundTrips >= N_PLUS_ONE_TRIPS && roundTrips == times;
    }

    /** "`select ... from book b1_0 where b1_0.author_id=?` ran 100 times from `X`: ...". */
    String describe() {
      String head = "`" + SqlShape.brief(shape) + "` ran " + Format.count(times) + " times"
          + from();
      if (nPlusOne()) {
        return head + ": an N+1; fetch them in one query (join fetch, entity graph, batch"
            + " fetch) or load by ids";
      }
      if (SqlShape.loadsByKeyList(shape)) {
        return head + ": a batch fetch (a list of keys per statement), not an N+1";
      }
      if (roundTrips < times) {
        return head + " in " + RoundTrips.plural(roundTrips, "round trip") + ": batched";
      }
      if (SqlShape.isQuery(shape) && !shape.contains("?")) {
        return head + ": the same query each time";
      }
      if (rowByRow()) {
        return head + ", one round trip each: row by row; batch them (" + (relayed
            ? "R2DBC: Statement.add() and one execute(), or Connection.createBatch(); Vert.x:"
            + " executeBatch" : "addBatch/executeBatch, reWriteBatchedInserts")
            + ") or send them as one statement";
      }
      return head;
    }

    private String from() {
      if (callSites.isEmpty()) {
        return "";
      }
      if (callSites.size() == 1) {
        return " from `" + callSites.keySet().iterator().next() + "`";
      }
      return " from " + callSites.entrySet().stream().limit(3)
          .map(e -> "`" + e.getKey() + "` (" + Format.count(e.getValue()) + ")")
          .collect(Collectors.joining(", "))
          + (callSites.size() > 3 ? " and " + (callSites.size() - 3) + " more" : "");
    }
  }

  /**
   * The shapes of {@code statements} (the code's own) that ran more than once, transaction
   * control aside, most frequent first.
   */
  static List<Repeat> of(List<WireStatement> statements) {
    Map<String, List<WireStatement>> byShape = new LinkedHashMap<>();
    for (WireStatement s : statements) {
      String shape = SqlShape.of(s.sql());
      if (!SqlShape.isTransactionControl(shape)) {
        byShape.computeIfAbsent(shape, k -> new ArrayList<>()).add(s);
      }
    }
    List<Repeat> repeats = new ArrayList<>();
    byShape.forEach((shape, list) -> {
      if (list.size() < 2) {
        return;
      }
      Set<String> trips = new HashSet<>();
      boolean relayed = true;
      Map<String, Long> sites = new LinkedHashMap<>();
      for (WireStatement s : list) {
        trips.add(s.trip());
        relayed &= s.relayed();
        if (s.callSite() != null) {
          sites.merge(s.callSite(), 1L, Long::sum);
        }
      }
      Map<String, Long> sorted = new LinkedHashMap<>();
      sites.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed())
          .forEach(e -> sorted.put(e.getKey(), e.getValue()));
      repeats.add(new Repeat(shape, list.size(), trips.size(), sorted, relayed));
    });
    repeats.sort(Comparator.comparingLong(Repeat::times).reversed());
    return repeats;
  }

  /** "repeated: ..." lines, N+1s first; empty when nothing repeated. */
  static String section(List<WireStatement> statements) {
    List<Repeat> repeats = new ArrayList<>(of(statements));
    repeats.sort(Comparator.comparing((Repeat r) -> !r.nPlusOne()));
    StringBuilder out = new StringBuilder();
    repeats.forEach(r -> out.append("repeated: ").append(r.describe()).append('\n'));
    return out.toString();
  }
}
