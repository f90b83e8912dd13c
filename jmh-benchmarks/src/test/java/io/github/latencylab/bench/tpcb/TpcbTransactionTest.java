package io.github.latencylab.bench.tpcb;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.latencylab.env.BackendKind;
import io.github.latencylab.env.Lab;
import io.github.latencylab.env.LabConfig;
import io.github.latencylab.wire.WireStats;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;

/** The TPC-B tables as pgbench -i makes them, and each variant's round trips, exactly. */
class TpcbTransactionTest {

  private static Lab lab;

  @BeforeAll
  static void start() throws SQLException {
    lab = Lab.start(LabConfig.fromEnvironment().withBackend(BackendKind.EMBEDDED));
    TpcbData.initialize(lab.directDataSource(), 1);
  }

  @AfterAll
  static void stop() {
    lab.close();
  }

  @Test
  void theTablesHoldPgbenchsRowsAtScaleOne() throws SQLException {
    assertThat(query("SELECT count(*), sum(bbalance), count(filler) FROM pgbench_branches"))
        .isEqualTo("1|0|0");
    assertThat(query("SELECT count(*), count(DISTINCT bid), count(filler) FROM pgbench_tellers"))
        .isEqualTo("10|1|0");
    assertThat(query("SELECT count(*), min(aid), max(aid), sum(abalance), min(filler),"
        + " octet_length(min(filler)) FROM pgbench_accounts"))
        .isEqualTo("100000|1|100000|0|" + " ".repeat(84) + "|84");
    assertThat(TpcbData.scale(lab.directDataSource())).isEqualTo(1);
  }

  @ParameterizedTest
  @EnumSource(TpcbTransaction.class)
  void eachVariantMakesItsRoundTripsAndTheSameChanges(TpcbTransaction variant) throws Exception {
    TpcbData.prepareRun(lab.directDataSource());
    String before = query("SELECT abalance FROM pgbench_accounts WHERE aid = 77") + "|"
        + query("SELECT tbalance FROM pgbench_tellers WHERE tid = 3") + "|"
        + query("SELECT bbalance FROM pgbench_branches WHERE bid = 1");
    String[] b = before.split("\\|");
    try (TpcbTransaction.Client client = new TpcbTransaction.Client(
        lab.dataSource().getConnection(), variant, 1, 42)) {
      Connection c = client.connection();
      client.transaction(77, 1, 3, 10); // prepares what needs preparing
      WireStats cost = lab.wire(c).measure(() -> client.transaction(77, 1, 3, 10));
      assertThat(cost.roundTrips()).as(variant + " round trips").isEqualTo(variant.roundTrips());
      assertThat(client.transaction(77, 1, 3, 10)).as("the account's balance after it")
          .isEqualTo(Integer.parseInt(b[0]) + 30);
    }
    assertThat(query("SELECT tbalance FROM pgbench_tellers WHERE tid = 3"))
        .isEqualTo(Integer.toString(Integer.parseInt(b[1]) + 30));
    assertThat(query("SELECT bbalance FROM pgbench_branches WHERE bid = 1"))
        .isEqualTo(Integer.toString(Integer.parseInt(b[2]) + 30));
    assertThat(query("SELECT count(*), sum(delta) FROM pgbench_history WHERE aid = 77"))
        .isEqualTo("3|30");
  }

  private static String query(String sql) throws SQLException {
    try (Connection c = lab.directDataSource().getConnection(); Statement st = c.createStatement();
        ResultSet rs = st.executeQuery(sql)) {
      rs.next();
      StringBuilder row = new StringBuilder();
      for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
        row.append(i == 1 ? "" : "|").append(rs.getString(i));
      }
      return row.toString();
    }
  }
}
