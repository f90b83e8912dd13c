package io.github.latencylab.env.watch;

import io.github.latencylab.server.QueryPlan;
import io.github.latencylab.server.StatementStatistics.Work;
import io.github.latencylab.server.StatementStatistics;
import io.github.latencylab.wire.SqlShape;
import io.github.latencylab.wire.WireStatement;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What the server did for the statements of one stretch of a test, statement by statement: the
 * plan it chooses for each ({@link QueryPlan}, as sent, values included) and the work each did
 * ({@link StatementStatistics}: buffers, WAL, temp bytes), all read on a connection of the
 * Lab's own, never on the counted ones. Queries and DML are grouped by {@link SqlShape} (utility
 * statements have no plan, and are left out); a shape's plan is its first statement's.
 */
public final class ServerWork {

  /** Distinct SQL texts of one shape whose plans are read (their query ids find the work). */
  static final int TEXTS_PER_SHAPE = 5;
  /** Plans read for one stretch at most. */
  static final int PLANS_PER_STRETCH = 100;

  /**
   * One shape's work.
   *
   * @param shape the statement's shape
   * @param sql its first statement, as sent
   * @param callSite where the first came from, or null
   * @param executions how many ran, counted at the wire
   * @param plan the plan of the first, or null (then {@code why})
   * @param why why there is no plan (the error that read it, too many plans), or null
   * @param work what the server counted for it (every statement of the shape), or null where
   *     pg_stat_statements is not there ({@link #unavailable()})
   */
  public record Statement(String shape, String sql, String callSite, long executions,
      QueryPlan plan, String why, Work work) {
  }

  private final Connection watch;
  private final Connection stats;
  private final String view;
  private String unavailable; // also when a read fails
  private StatementStatistics before;
  // the counters after the stretch, every statement of it read (for the next stretch), or null
  private StatementStatistics left;
  private final PlanCache plans;

  private ServerWork(Connection watch, Connection stats, String view, String unavailable,
      PlanCache plans) {
    this.watch = watch;
    this.stats = stats;
    this.view = view;
    this.unavailable = unavailable;
    this.plans = plans;
  }

  /**
   * A watch of pg_stat_statements ({@code view}; null: not there, {@code unavailable} says why)
   * read on {@code stats}, a connection whose statements the server keeps prepared (the reads
   * are short), the plans on {@code watch} (simple queries: EXPLAIN (GENERIC_PLAN) binds
   * nothing), each text's once while {@code plans} keeps it; started by {@link StretchWatch}.
   */
  public static ServerWork unstarted(Connection watch, Connection stats, String view,
      String unavailable, PlanCache plans) {
    return new ServerWork(watch, stats, view, view == null ? unavailable : null, plans);
  }

  // runs reads, this watch's among them; one that fails leaves the work uncounted, and why
  void read(List<OneTrip.Read> reads, String when) {
    try {
      OneTrip.run(stats, reads);
    } catch (SQLException e) {
      if (view != null) {
        unavailable = "the server's work per statement is not counted: " + view + " did not"
            + " read" + when + " (" + firstLine(e) + ")";
      }
      before = null;
    }
  }

  /**
   * Starts from the counters the last stretch left ({@link #left()}), if pg_stat_statements is
   * there and they were left; false: read them.
   */
  boolean startFrom(StatementStatistics previous) {
    if (view == null) {
      return true;
    }
    before = previous;
    return previous != null;
  }

  /**
   * The counters after {@link #finish}: those before it with every statement of the stretch read
   * again; null where one was not (a shape past its texts read, a plan not read, a read failed).
   */
  StatementStatistics left() {
    return left;
  }

  /** The read before the stretch, if pg_stat_statements is there. */
  Optional<OneTrip.Read> beforeRead() {
    if (view == null) {
      return Optional.empty();
    }
    return Optional.of(new OneTrip.Read() {
      @Override
      public String sql() {
        return StatementStatistics.sqlOf(view, false);
      }

      @Override
      public void take(ResultSet rs) throws SQLException {
        before = StatementStatistics.of(rs);
      }
    });
  }

  /**
   * Why the server's work is not counted, if it is not (the plans are read anyway); after
   * {@link #finish}, also when its second read failed.
   */
  public Optional<String> unavailable() {
    return Optional.ofNullable(unavailable);
  }

  /** The plans and work of {@code statements}, by shape in the order they first ran. */
  public List<Statement> finish(List<WireStatement> statements) {
    return finish(statements, List.of());
  }

  /**
   * {@link #finish(List)}, its read of the work sent with {@code alsoRead} in one round trip.
   */
  List<Statement> finish(List<WireStatement> statements, List<OneTrip.Read> alsoRead) {
    Map<String, List<WireStatement>> byShape = new LinkedHashMap<>();
    for (WireStatement s : statements) {
      String shape = SqlShape.of(s.sql());
      if (QueryPlan.planned(s.sql())) { // queries and DML: utility statements have no plan
        byShape.computeIfAbsent(shape, k -> new ArrayList<>()).add(s);
      }
    }
    List<Shape> shapes = new ArrayList<>();
    boolean whole = true; // every text's query id known: the next stretch may start from them
    synchronized (watch) {
      int plansRead = 0;
      for (Map.Entry<String, List<WireStatement>> e : byShape.entrySet()) {
        WireStatement first = e.getValue().get(0);
        QueryPlan plan = null;
        String why = null;
        Set<Long> queryIds = new LinkedHashSet<>();
        if (plansRead >= PLANS_PER_STRETCH) {
          why = "not read: " + PLANS_PER_STRETCH + " plans read for this test already";
          whole = false;
        } else {
          Set<String> texts = new LinkedHashSet<>();
          for (WireStatement s : e.getValue()) {
            if (texts.size() == TEXTS_PER_SHAPE || plansRead >= PLANS_PER_STRETCH) {
              whole &= texts.contains(s.sql());
              continue;
            }
            if (!texts.add(s.sql())) {
              continue;
            }
            plansRead++;
            try {
              QueryPlan p = plans.get(s.sql());
              if (p == null) {
                p = QueryPlan.read(watch, s.sql(), s.parameters());
                plans.put(s.sql(), p);
              }
              if (plan == null) {
                plan = p;
              }
              queryIds.add(p.queryId());
              whole &= p.queryId() != 0;
            } catch (SQLException ex) {
              whole = false;
              if (plan == null && why == null) {
                why = "not read: " + firstLine(ex);
              }
            }
          }
          if (plan != null) {
            why = null;
          }
        }
        shapes.add(new Shape(e.getKey(), first, e.getValue().size(), plan, why, queryIds));
      }
    }
    // after the plans (EXPLAIN runs nothing it explains): the stretch's statements only
    StatementStatistics[] after = new StatementStatistics[1];
    List<OneTrip.Read> reads = new ArrayList<>(alsoRead);
    Set<Long> ids = new LinkedHashSet<>();
    if (before != null) {
      shapes.forEach(s -> ids.addAll(s.queryIds()));
      ids.remove(0L);
      reads.add(0, new OneTrip.Read() {
        @Override
        public String sql() {
          return StatementStatistics.sqlOf(view, true);
        }

        @Override
        public int bind(PreparedStatement st, int first) throws SQLException {
          st.setString(first, StatementStatistics.queryIds(ids));
          return first + 1;
        }

        @Override
        public void take(ResultSet rs) throws SQLException {
          after[0] = StatementStatistics.of(rs);
        }
      });
    }
    read(reads, " after the test");
    left = whole && before != null && after[0] != null ? before.updatedWith(after[0], ids) : null;
    List<Statement> out = new ArrayList<>();
    for (Shape s : shapes) {
      Work work = null;
      if (after[0] != null && before != null) {
        work = Work.NONE;
        for (long id : s.queryIds()) {
          if (id != 0) {
            work = work.plus(after[0].since(before, id));
          }
        }
      }
      out.add(new Statement(s.shape(), s.first().sql(), s.first().callSite(), s.executions(),
          s.plan(), s.why(), work));
    }
    return out;
  }

  // a shape's plan and the query ids of its texts, before its work is read
  private record Shape(String shape, WireStatement first, int executions, QueryPlan plan,
      String why, Set<Long> queryIds) {
  }

  private static String firstLine(SQLException e) {
    String m = String.valueOf(e.getMessage());
    int nl = m.indexOf('\n');
    return nl < 0 ? m : m.substring(0, nl);
  }
}
