package io.github.latencylab.bench.runner;

import io.github.latencylab.env.Lab;
import io.github.latencylab.gate.StatementPlan;
import io.github.latencylab.server.QueryPlan;
import io.github.latencylab.server.StatementStatistics;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import javax.sql.DataSource;

/**
 * The plans of the statements each cell ran, for the gate to compare as it compares a users'
 * test's: read by the runner after the cell, on a connection of the Lab's own, while the
 * suite's tables are still there (a suite drops them only when it sets up again). The forks
 * say which statements they ran between their first operation and their last (by query id,
 * {@code JmhResults.queryIds}); pg_stat_statements keeps each one's text, its constants as
 * {@code $1}, ..., so the plan is PostgreSQL's generic plan for the shape (16 and later), not
 * a custom one for values the bench sent: on the suites' data, loaded and analysed before
 * they run, the same plan. Buffers and the server's time per call are the cell's, over its
 * forks. Each read is a new session, as the forks' connections were: it plans with the
 * settings a role or database has now (work_mem lowered for the role changes the plan).
 */
final class CellPlans {

  private final DataSource direct;
  private final String view;
  private StatementStatistics before;
  private int unread;
  private String firstUnread;

  private CellPlans(DataSource direct, String view) {
    this.direct = direct;
    this.view = view;
  }

  /** Plans read on {@code lab}'s server, where pg_stat_statements can be read. */
  static CellPlans of(Lab lab) {
    String view = lab.statementStatistics().view();
    return new CellPlans(lab.directDataSource(), view);
  }

  /** Before a cell runs: what every statement did so far. */
  void before() throws SQLException {
    if (view != null) {
      try (Connection c = direct.getConnection()) {
        before = StatementStatistics.read(c, view);
      }
    }
  }

  /**
   * After the cell: the plan of each statement of {@code queryIds} that has one (queries and
   * DML, not utilities), by its text.
   */
  Map<String, StatementPlan> after(Set<Long> queryIds) throws SQLException {
    if (view == null || before == null || queryIds.isEmpty()) {
      return Map.of();
    }
    try (Connection c = direct.getConnection()) {
      return plans(c, queryIds);
    }
  }

  private Map<String, StatementPlan> plans(Connection connection, Set<Long> queryIds)
      throws SQLException {
    Map<Long, StatementStatistics.Work> work = StatementStatistics.read(connection, view)
        .sinceEach(before);
    Map<String, StatementPlan> plans = new LinkedHashMap<>();
    for (Map.Entry<Long, String> e : StatementStatistics.texts(connection, view, queryIds)
        .entrySet()) {
      String sql = e.getValue().strip();
      if (!QueryPlan.planned(sql)) {
        continue;
      }
      QueryPlan plan;
      try {
        plan = QueryPlan.read(connection, sql, null);
      } catch (SQLException failed) {
        unread++;
        firstUnread = firstUnread != null ? firstUnread : "`" + sql + "`: " + failed.getMessage();
        continue;
      }
      StatementStatistics.Work w = work.get(e.getKey());
      double calls = w == null || w.calls() == 0 ? Double.NaN : w.calls();
      plans.put(sql, new StatementPlan(null, plan.fingerprint(),
          w == null ? Double.NaN : w.blocks() / calls,
          plan.tableRows().values().stream().mapToLong(Long::longValue).max().orElse(0),
          w == null ? Double.NaN : w.serverMs() / calls));
    }
    return Collections.unmodifiableMap(plans);
  }

  /** The one line that says which plans could not be read, if any. */
  Optional<String> unread() {
    return unread == 0 ? Optional.empty() : Optional.of("the plans of " + unread
        + " statement" + (unread == 1 ? "" : "s") + " could not be read (the gate does not"
        + " compare them), the first " + firstUnread);
  }
}
