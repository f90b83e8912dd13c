package io.github.latencylab.env.watch;

import io.github.latencylab.server.QueryPlan;
import io.github.latencylab.server.StatementStatistics.Work;
import io.github.latencylab.server.StatementStatistics;
import io.github.latencylab.wire.SqlShape;
import io.github.latencylab.wire.WireStatement;
import java.sql.Connection;
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
  private final String view;
  private String unavailable; // also when the read after the stretch fails
  private final StatementStatistics before;

  private ServerWork(Connection watch, String view, String unavailable,
      StatementStatistics before) {
    this.watch = watch;
    this.view = view;
    this.unavailable = unavailable;
    this.before = before;
  }

  /** Starts watching: pg_stat_statements read now, on {@code watch}, where it is there. */
  public static ServerWork start(Connection watch, String view, String unavailable) {
    if (view == null) {
      return new ServerWork(watch, null, unavailable, null);
    }
    synchronized (watch) { // one connection for every budget of the Lab, whatever thread
      try {
        return new ServerWork(watch, view, null, StatementStatistics.read(watch, view));
      } catch (SQLException e) {
        return new ServerWork(watch, null, "the server's work per statement is not counted: "
            + view + " did not read (" + firstLine(e) + ")", null);
      }
    }
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
    Map<String, List<WireStatement>> byShape = new LinkedHashMap<>();
    for (WireStatement s : statements) {
      String shape = SqlShape.of(s.sql());
      if (QueryPlan.planned(s.sql())) { // queries and DML: utility statements have no plan
        byShape.computeIfAbsent(shape, k -> new ArrayList<>()).add(s);
      }
    }
    synchronized (watch) {
      StatementStatistics after = null;
      if (before != null) {
        try {
          after = StatementStatistics.read(watch, view);
        } catch (SQLException e) {
          unavailable = "the server's work per statement is not counted: " + view
              + " did not read after the test (" + firstLine(e) + ")";
        }
      }
      List<Statement> out = new ArrayList<>();
      int plans = 0;
      for (Map.Entry<String, List<WireStatement>> e : byShape.entrySet()) {
        WireStatement first = e.getValue().get(0);
        QueryPlan plan = null;
        String why = null;
        Set<Long> queryIds = new LinkedHashSet<>();
        if (plans >= PLANS_PER_STRETCH) {
          why = "not read: " + PLANS_PER_STRETCH + " plans read for this test already";
        } else {
          Set<String> texts = new LinkedHashSet<>();
          for (WireStatement s : e.getValue()) {
            if (texts.size() == TEXTS_PER_SHAPE || plans >= PLANS_PER_STRETCH) {
              break;
            }
            if (!texts.add(s.sql())) {
              continue;
            }
            plans++;
            try {
              QueryPlan p = QueryPlan.read(watch, s.sql(), s.parameters());
              if (plan == null) {
                plan = p;
              }
              queryIds.add(p.queryId());
            } catch (SQLException ex) {
              if (plan == null && why == null) {
                why = "not read: " + firstLine(ex);
              }
            }
          }
          if (plan != null) {
            why = null;
          }
        }
        Work work = null;
        if (after != null) {
          work = Work.NONE;
          for (long id : queryIds) {
            if (id != 0) {
              work = work.plus(after.since(before, id));
            }
          }
        }
        out.add(new Statement(e.getKey(), first.sql(), first.callSite(), e.getValue().size(),
            plan, why, work));
      }
      return out;
    }
  }

  private static String firstLine(SQLException e) {
    String m = String.valueOf(e.getMessage());
    int nl = m.indexOf('\n');
    return nl < 0 ? m : m.substring(0, nl);
  }
}
