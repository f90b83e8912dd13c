package io.github.latencylab.bench.runner;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.latencylab.env.BackendKind;
import io.github.latencylab.env.Lab;
import io.github.latencylab.env.LabConfig;
import io.github.latencylab.env.Setting;
import io.github.latencylab.gate.Baseline;
import io.github.latencylab.gate.BaselineComparison;
import io.github.latencylab.gate.StatementPlan;
import io.github.latencylab.latency.Rtt;
import io.github.latencylab.report.Cell;
import io.github.latencylab.report.Results;
import io.github.latencylab.report.Series;
import io.github.latencylab.server.StatementStatistics;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A bench cell's plans, read as the runner reads them: the statements a fork ran through the
 * Lab (by query id), planned on the Lab's own connection after the cell; an index dropped
 * between two cells is a failed plan in the gate, with the buffers per call before and after.
 */
class CellPlansTest {

  private static final String LOOKUP = "SELECT id FROM cell_plans_owners WHERE last_name = $1";

  private static Lab lab;

  @BeforeAll
  static void start() throws SQLException {
    lab = Lab.start(LabConfig.fromEnvironment().withBackend(BackendKind.EMBEDDED)
        .with(Setting.CALIBRATE, "false"));
    try (Connection c = lab.directDataSource().getConnection();
        Statement st = c.createStatement()) {
      Lab.requireLabSchema(c);
      st.execute("DROP TABLE IF EXISTS cell_plans_owners");
      st.execute("CREATE TABLE cell_plans_owners (id bigint PRIMARY KEY, last_name text NOT NULL,"
          + " notes text NOT NULL)");
      st.execute("INSERT INTO cell_plans_owners SELECT i, 'name ' || i, repeat('x', 200)"
          + " FROM generate_series(1, 20000) i");
      st.execute("CREATE INDEX cell_plans_owners_last_name ON cell_plans_owners (last_name)");
      st.execute("ANALYZE cell_plans_owners");
    }
  }

  @AfterAll
  static void stop() {
    lab.close();
  }

  @Test
  void anIndexDroppedBetweenTwoCellsFailsTheGateOnItsPlan(@TempDir Path dir) throws Exception {
    Map<String, StatementPlan> indexed;
    Map<String, StatementPlan> dropped;
    CellPlans plans = CellPlans.of(lab);
    indexed = cell(plans);
    try (Connection c = lab.directDataSource().getConnection();
        Statement st = c.createStatement()) {
      st.execute("DROP INDEX cell_plans_owners_last_name");
    }
    dropped = cell(plans);
    assertThat(plans.unread()).isEmpty();

    // TRUNCATE has no plan; SELECT 1 is kept as pg_stat_statements keeps it
    assertThat(indexed).containsOnlyKeys(LOOKUP, "SELECT $1");
    assertThat(indexed.get("SELECT $1").plan()).isEqualTo("Result");
    assertThat(indexed.get(LOOKUP).plan())
        .isEqualTo("Index Scan using cell_plans_owners_last_name on cell_plans_owners");
    assertThat(indexed.get(LOOKUP).blocksPerCall()).isBetween(1.0, 8.0);
    assertThat(indexed.get(LOOKUP).tableRows()).isEqualTo(20_000);
    assertThat(dropped.get(LOOKUP).plan()).isEqualTo("Seq Scan on cell_plans_owners");
    assertThat(dropped.get(LOOKUP).blocksPerCall()).isGreaterThan(500);

    // the gate, with the plans as the runner keeps them (plans.json)
    String key = "OwnersBenchmark.lookups @ 0ms";
    Cell cell = new Cell(Series.of("OwnersBenchmark", "lookups", Map.of()), Rtt.ZERO,
        Double.NaN, Double.NaN, Double.NaN, Double.NaN, 10, 10, Double.NaN, Map.of(), null, 0,
        null);
    Path file = dir.resolve("plans.json");
    Baseline.writePlans(file, Map.of(key, indexed));
    Baseline baseline = Baseline.from(new Results("bench", null, null, null, List.of(cell)))
        .withPlans(Baseline.readPlans(file));
    BaselineComparison c = BaselineComparison.compare(baseline, new Results("bench", null,
        null, null, List.of(cell)), false, Map.of(key, dropped), Map.of());
    assertThat(c.failures()).singleElement().satisfies(f -> assertThat(f.toString())
        .startsWith("FAIL " + key + ": `" + LOOKUP + "`: plan Index Scan using"
            + " cell_plans_owners_last_name on cell_plans_owners -> Seq Scan on"
            + " cell_plans_owners; buffers ")
        .contains("/call on the server now"));
  }

  // a cell: ten lookups, a TRUNCATE and a SELECT 1 through the Lab, as a fork sends them; its
  // statements by query id, as the fork reports them
  private static Map<String, StatementPlan> cell(CellPlans plans) throws SQLException {
    String view = lab.statementStatistics().view();
    plans.before();
    StatementStatistics before;
    try (Connection own = lab.directDataSource().getConnection()) {
      before = StatementStatistics.read(own, view);
    }
    try (Connection c = lab.dataSource().getConnection();
        PreparedStatement lookup = c.prepareStatement(LOOKUP.replace("$1", "?"));
        Statement st = c.createStatement()) {
      for (int i = 1; i <= 10; i++) {
        lookup.setString(1, "name " + i * 1000);
        try (ResultSet rs = lookup.executeQuery()) {
          assertThat(rs.next()).isTrue();
        }
      }
      st.execute("CREATE TEMP TABLE IF NOT EXISTS cell_plans_scratch (x int)");
      st.execute("TRUNCATE cell_plans_scratch");
      st.execute("SELECT 1");
    }
    Set<Long> ran;
    try (Connection own = lab.directDataSource().getConnection()) {
      ran = StatementStatistics.read(own, view).sinceEach(before).keySet();
    }
    return plans.after(ran);
  }
}
