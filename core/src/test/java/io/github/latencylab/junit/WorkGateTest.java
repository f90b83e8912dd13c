package io.github.latencylab.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.testkit.engine.EventConditions.event;
import static org.junit.platform.testkit.engine.EventConditions.finishedWithFailure;
import static org.junit.platform.testkit.engine.EventConditions.test;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.message;

import io.github.latencylab.env.Lab;
import io.github.latencylab.gate.Baseline;
import io.github.latencylab.gate.StatementPlan;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.testkit.engine.Events;

/**
 * What passed the baseline check before work was counted: a test of ten lookups by an indexed
 * column over 50,000 rows, its baseline taken, then run with the index dropped, then with
 * {@code SELECT *} fetching a 1 kB column it never reads. The round trips and statements are
 * the same; the plan, the buffers and the bytes are not, and the gate says so.
 */
class WorkGateTest {

  static final String KEY = Lookups.class.getName() + ".tenLookups @ 0ms";

  @TempDir
  Path dir;

  @Test
  void aDroppedIndexAndAWideSelectStarFailTheBaselineCheckByTheirCounts() throws Exception {
    Path report = dir.resolve("latency-report");
    Path baseline = dir.resolve("latency-baseline.json");

    Lookups.variant = "indexed";
    run(report, baseline, true).assertStatistics(stats -> stats.started(1).succeeded(1));
    Baseline taken = Baseline.read(baseline);
    StatementPlan plan = taken.plans().get(KEY)
        .get("SELECT id FROM work_gate_owners WHERE last_name = ?");
    assertThat(plan.plan()).isEqualTo("Index Scan using work_gate_owners_last_name on"
        + " work_gate_owners");
    assertThat(plan.tableRows()).isEqualTo(50_000);
    assertThat(plan.callSite()).startsWith("WorkGateTest$Lookups.tenLookups(WorkGateTest.java:");
    assertThat(taken.byKey().get(KEY).server()).containsEntry("rowsPerOp", 10.0)
        .containsKeys("valuesReceivedPerOp", "valueBytesSentPerOp", "statementBlocksPerOp",
            "allocatedBytesPerOp");
    assertThat(Files.readString(report.resolve("report.md")))
        .contains("  10 rows returned (")
        .contains("    `SELECT id FROM work_gate_owners WHERE last_name = ?` x10 from"
            + " `WorkGateTest$Lookups.tenLookups(WorkGateTest.java:")
        .contains(": plan Index Scan using work_gate_owners_last_name on work_gate_owners; ")
        .contains("### What the server did: the statements by buffers touched, all tests");

    Lookups.variant = "indexed";
    run(report, baseline, false).assertStatistics(stats -> stats.started(1).succeeded(1));

    Lookups.variant = "dropped";
    run(report, baseline, false).assertThatEvents().haveExactly(1, event(test("tenLookups"),
        finishedWithFailure(message(m -> m.contains(KEY + ": `SELECT id FROM work_gate_owners"
            + " WHERE last_name = ?` (WorkGateTest$Lookups.tenLookups(WorkGateTest.java:")
            && m.contains("): plan Index Scan using work_gate_owners_last_name on"
            + " work_gate_owners -> ")
            && m.contains("Seq Scan on work_gate_owners; buffers ")
            && m.contains("/call on the server now")
            && m.contains("buffers touched/op ")
            && m.contains("the server's time executing the statements now ")))));

    Lookups.variant = "wide";
    run(report, baseline, false).assertThatEvents().haveExactly(1, event(test("tenLookups"),
        finishedWithFailure(message(m -> m.contains(KEY + ": values received/op 10 -> 30"
            + " (must match exactly: rows x columns")))));
  }

  private static Events run(Path report, Path baseline, boolean update) {
    return LatencyReportTest.run(report, baseline, update, Lookups.class);
  }

  /** Run by {@link WorkGateTest} only. */
  @ExtendWith(LabExtension.class)
  static class Lookups {
    static String variant;

    @BeforeAll
    static void load(Lab lab) throws SQLException {
      try (Connection c = lab.directDataSource().getConnection();
          Statement st = c.createStatement()) {
        st.execute("DROP TABLE IF EXISTS work_gate_owners");
        st.execute("CREATE TABLE work_gate_owners (id int PRIMARY KEY, last_name text,"
            + " notes text)");
        st.execute("INSERT INTO work_gate_owners SELECT i, 'name' || i, repeat('x', 1000)"
            + " FROM generate_series(1, 50000) i");
        if (!variant.equals("dropped")) {
          st.execute("CREATE INDEX work_gate_owners_last_name ON work_gate_owners"
              + " (last_name)");
        }
        st.execute("ANALYZE work_gate_owners");
      }
    }

    @Test
    void tenLookups(Lab lab) throws SQLException {
      String sql = variant.equals("wide") ? "SELECT * FROM work_gate_owners WHERE last_name = ?"
          : "SELECT id FROM work_gate_owners WHERE last_name = ?";
      try (Connection c = lab.dataSource().getConnection();
          PreparedStatement ps = c.prepareStatement(sql)) {
        for (int i = 1; i <= 10; i++) {
          ps.setString(1, "name" + (i * 997));
          try (ResultSet rs = ps.executeQuery()) {
            rs.next();
            rs.getInt(1);
          }
        }
      }
    }
  }
}
