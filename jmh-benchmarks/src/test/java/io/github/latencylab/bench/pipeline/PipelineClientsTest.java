package io.github.latencylab.bench.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.latencylab.bench.insert.InsertRows;
import io.github.latencylab.bench.tpcb.TpcbData;
import io.github.latencylab.env.BackendKind;
import io.github.latencylab.env.Lab;
import io.github.latencylab.env.LabConfig;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Every client does every workload's work exactly, whatever it sends: the rows inserted are
 * the rows generated, the lookups return the books' authors in order, TPC-B moves the three
 * balances and writes its history row; and a failed insert leaves nothing behind and the client
 * usable. Round trips are PipelineJdbcRoundTripsTest's.
 */
class PipelineClientsTest {

  private static Lab lab;

  @BeforeAll
  static void start() throws SQLException {
    lab = Lab.start(LabConfig.fromEnvironment().withBackend(BackendKind.EMBEDDED));
    InsertRows.createTable(lab.directDataSource());
    LookupData.create(lab.directDataSource());
    TpcbData.initialize(lab.directDataSource(), 1);
  }

  @AfterAll
  static void stop() {
    lab.close();
  }

  private static PipelineClient open(ClientKind kind) throws SQLException {
    return kind.open(lab, PipelineBenchmark.clientTarget(lab));
  }

  @ParameterizedTest
  @EnumSource(ClientKind.class)
  void insertsWriteEveryRowOnce(ClientKind kind) throws SQLException {
    try (PipelineClient client = open(kind)) {
      for (int n : new int[] {100, 1000}) {
        InsertRows rows = InsertRows.generate(n);
        InsertRows.truncate(lab.directDataSource());
        assertThat(client.inserts(rows.rows())).as(kind + " inserted rows, n=" + n).isEqualTo(n);
        assertThat(tableRows()).as(kind + "'s rows, n=" + n).isEqualTo(rows.rows());
      }
    }
  }

  @ParameterizedTest
  @EnumSource(ClientKind.class)
  void aFailedInsertLeavesNothingAndTheClientUsable(ClientKind kind) throws SQLException {
    List<InsertRows.Row> rows = InsertRows.generate(300).rows();
    List<InsertRows.Row> duplicateLast = new ArrayList<>(rows);
    duplicateLast.add(rows.get(0));
    try (PipelineClient client = open(kind)) {
      InsertRows.truncate(lab.directDataSource());
      assertThatThrownBy(() -> client.inserts(duplicateLast)).as(kind.name())
          .hasStackTraceContaining("duplicate key value violates unique constraint");
      assertThat(InsertRows.count(lab.directDataSource())).as(kind + " left rows").isZero();

      assertThat(client.inserts(rows)).as(kind + " after the failure").isEqualTo(300);
      assertThat(InsertRows.count(lab.directDataSource())).isEqualTo(300);
    }
  }

  @ParameterizedTest
  @EnumSource(ClientKind.class)
  void lookupsReturnTheBooksAuthorsInOrder(ClientKind kind) throws SQLException {
    try (PipelineClient client = open(kind)) {
      for (int i = 0; i < 2; i++) { // the second with whatever the first prepared
        assertThat(client.lookups(LookupData.authorIds())).as(kind + ", time " + (i + 1))
            .hasSize(LookupData.BOOKS).isEqualTo(LookupData.expected());
      }
    }
  }

  @ParameterizedTest
  @EnumSource(ClientKind.class)
  void tpcbMovesTheThreeBalancesAndWritesHistory(ClientKind kind) throws SQLException {
    int aid = 1000 + kind.ordinal(); // an account of its own, so the history is its own
    long account = query("SELECT abalance FROM pgbench_accounts WHERE aid = " + aid);
    long teller = query("SELECT tbalance FROM pgbench_tellers WHERE tid = 3");
    long branch = query("SELECT bbalance FROM pgbench_branches WHERE bid = 1");
    try (PipelineClient client = open(kind)) {
      assertThat(client.tpcb(aid, 1, 3, 10)).as(kind + "'s balance").isEqualTo(account + 10);
      assertThat(client.tpcb(aid, 1, 3, -3)).as(kind + "'s balance").isEqualTo(account + 7);
    }
    assertThat(query("SELECT abalance FROM pgbench_accounts WHERE aid = " + aid))
        .isEqualTo(account + 7);
    assertThat(query("SELECT tbalance FROM pgbench_tellers WHERE tid = 3")).isEqualTo(teller + 7);
    assertThat(query("SELECT bbalance FROM pgbench_branches WHERE bid = 1")).isEqualTo(branch + 7);
    assertThat(query("SELECT count(*) FROM pgbench_history WHERE aid = " + aid + " AND tid = 3"
        + " AND bid = 1 AND delta IN (10, -3) AND mtime IS NOT NULL")).isEqualTo(2);
  }

  private static List<InsertRows.Row> tableRows() throws SQLException {
    List<InsertRows.Row> rows = new ArrayList<>();
    try (Connection c = lab.directDataSource().getConnection(); Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT id, name, amount, created_at FROM "
            + InsertRows.TABLE + " ORDER BY id")) {
      while (rs.next()) {
        rows.add(new InsertRows.Row(rs.getLong(1), rs.getString(2), rs.getBigDecimal(3),
            rs.getObject(4, OffsetDateTime.class)));
      }
    }
    return rows;
  }

  private static long query(String sql) throws SQLException {
    try (Connection c = lab.directDataSource().getConnection(); Statement st = c.createStatement();
        ResultSet rs = st.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }
}
