package io.github.latencylab.wire;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.latencylab.env.BackendKind;
import io.github.latencylab.env.Lab;
import io.github.latencylab.env.TestBackends;
import java.util.List;
import java.io.StringReader;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.postgresql.PGConnection;

/** Round trips counted at the socket, for the operations every suite is built from. */
class RoundTripCountTest {

  private static final TestBackends.Labs LABS = new TestBackends.Labs();
  private Lab lab;

  // The first backend under test only (embedded unless LATENCYLAB_TEST_BACKENDS says
  // otherwise): the counts are pgjdbc's socket's, whoever serves it. Verify's testcontainers
  // pass checks the suites' counts in containers exactly, LabLifecycleTest a SELECT 1.
  static List<BackendKind> backends() {
    return TestBackends.available().subList(0, 1);
  }

  @AfterAll
  static void stopLabs() {
    LABS.close();
  }

  private void on(BackendKind backend) throws Exception {
    lab = LABS.get(backend);
    try (Connection c = lab.directDataSource().getConnection(); Statement st = c.createStatement()) {
      st.execute("DROP TABLE IF EXISTS item");
      st.execute("CREATE TABLE item (id int PRIMARY KEY, name text NOT NULL)");
    }
  }

  @ParameterizedTest
  @MethodSource("backends")
  void selectOneIsOneRoundTrip(BackendKind backend) throws Exception {
    on(backend);
    try (Connection c = lab.dataSource().getConnection(); Statement st = c.createStatement()) {
      WireStats cost = lab.wire(c).measure(() -> {
        try (ResultSet rs = st.executeQuery("SELECT 1")) {
          rs.next();
        }
      });
      assertThat(cost.roundTrips()).isEqualTo(1);
      assertThat(cost.statements()).isEqualTo(1);
      assertThat(cost.bytesSent()).isPositive();
      assertThat(cost.bytesReceived()).isPositive();
    }
  }

  /** pgjdbc sends currentSchema as search_path in the startup packet: nothing after it. */
  @ParameterizedTest
  @MethodSource("backends")
  void connectingInTheLabsSchemaCostsNoExtraRoundTrip(BackendKind backend) throws Exception {
    on(backend);
    String inSchema = lab.jdbcUrl();
    String noSchema = inSchema.replace("currentSchema=" + lab.schema() + "&", "");
    assertThat(noSchema).isNotEqualTo(inSchema);
    long[] trips = new long[2];
    String[] schemas = new String[2];
    String[] urls = {noSchema, inSchema};
    for (int i = 0; i < 2; i++) {
      WireStats before = lab.wire().snapshot();
      try (Connection c = java.sql.DriverManager.getConnection(urls[i], lab.target().user(),
          lab.target().password())) {
        trips[i] = lab.wire().snapshot().minus(before).roundTrips();
        try (Statement st = c.createStatement();
            ResultSet rs = st.executeQuery("SELECT current_schema()")) {
          rs.next();
          schemas[i] = rs.getString(1);
        }
      }
    }
    assertThat(schemas).containsExactly("public", lab.schema());
    assertThat(trips[1]).as("round trips to connect, in the schema").isEqualTo(trips[0])
        .isPositive();
  }

  @ParameterizedTest
  @MethodSource("backends")
  void hundredSingleRowSelectsAreHundredRoundTrips(BackendKind backend) throws Exception {
    on(backend);
    insertRows(100);
    try (Connection c = lab.dataSource().getConnection();
        PreparedStatement ps = c.prepareStatement("SELECT name FROM item WHERE id = ?")) {
      WireStats cost = lab.wire(c).measure(() -> {
        for (int id = 0; id < 100; id++) {
          ps.setInt(1, id);
          try (ResultSet rs = ps.executeQuery()) {
            assertThat(rs.next()).isTrue();
          }
        }
      });
      assertThat(cost.roundTrips()).isEqualTo(100);
      assertThat(cost.statements()).isEqualTo(100);
    }
  }

  @ParameterizedTest
  @MethodSource("backends")
  void statementsAreReadFromTheProtocolWithTheirSql(BackendKind backend) throws Exception {
    on(backend);
    try (Connection c = lab.dataSource().getConnection();
        PreparedStatement ps = c.prepareStatement("SELECT name FROM item WHERE id = ?")) {
      ps.unwrap(org.postgresql.PGStatement.class).setPrepareThreshold(1);
      WireStats before = lab.wire(c).snapshot();
      c.setAutoCommit(false);
      for (int id = 0; id < 3; id++) {
        ps.setInt(1, id);
        ps.executeQuery().close(); // Parse once (named), then Bind/Execute
      }
      c.commit();
      assertThat(lab.wire(c).sqlSince(before)).containsExactly("BEGIN",
          "SELECT name FROM item WHERE id = $1", "SELECT name FROM item WHERE id = $1",
          "SELECT name FROM item WHERE id = $1", "COMMIT");
      assertThat(lab.wire(c).snapshot().minus(before).statements()).isEqualTo(5);
    }
  }

  /**
   * pgjdbc sends a batch without waiting, but estimates 250 bytes of reply per statement and
   * forces a Sync (and waits for its replies) before a statement would bring that to 64,000
   * bytes, so that neither side blocks on a full socket buffer: every 255 statements. 1,000
   * statements are 3 forced syncs (after 255, 510, 765) and the final one: 4 round trips.
   */
  @ParameterizedTest
  @MethodSource("backends")
  void executeBatchOfThousandRowsIsFourRoundTrips(BackendKind backend) throws Exception {
    on(backend);
    assertThat(batchInsert(1000, false)).as("round trips, plain executeBatch").isEqualTo(4);
  }

  /**
   * With reWriteBatchedInserts pgjdbc folds the rows into multi-row INSERTs of power-of-two
   * sizes (1,000 = 512 + 256 + 128 + 64 + 32 + 8: 6 statements), far below the 255-statement
   * flush rule, so one round trip.
   */
  @ParameterizedTest
  @MethodSource("backends")
  void executeBatchOfThousandRowsRewrittenIsOneRoundTrip(BackendKind backend) throws Exception {
    on(backend);
    assertThat(batchInsert(1000, true)).as("round trips, reWriteBatchedInserts").isEqualTo(1);
  }

  @ParameterizedTest
  @MethodSource("backends")
  void commitIsOneRoundTripAndBeginIsFree(BackendKind backend) throws Exception {
    on(backend);
    try (Connection c = lab.dataSource().getConnection(); Statement st = c.createStatement()) {
      c.setAutoCommit(false);
      // pgjdbc sends BEGIN in the same flush as the first statement of a transaction
      assertThat(lab.wire(c).measure(() -> st.execute("INSERT INTO item VALUES (1, 'a')"))
          .roundTrips()).isEqualTo(1);
      assertThat(lab.wire(c).measure(c::commit).roundTrips()).isEqualTo(1);
    }
  }

  @ParameterizedTest
  @MethodSource("backends")
  void copyOfTenThousandRowsIsTwoRoundTrips(BackendKind backend) throws Exception {
    on(backend);
    StringBuilder csv = new StringBuilder();
    for (int i = 0; i < 10_000; i++) {
      csv.append(i).append(",name ").append(i).append('\n');
    }
    try (Connection c = lab.dataSource().getConnection()) {
      WireStats cost = lab.wire(c).measure(() -> c.unwrap(PGConnection.class).getCopyAPI()
          .copyIn("COPY item (id, name) FROM STDIN (FORMAT csv)", new StringReader(csv.toString())));
      // the COPY statement (answered by CopyInResponse), then the data and CopyDone
      // (answered by CommandComplete): 2 round trips whatever the row count
      assertThat(cost.roundTrips()).isEqualTo(2);
      assertThat(cost.statements()).isEqualTo(1);
      assertThat(cost.bytesSent()).isGreaterThan(csv.length());
      assertThat(countRows(c)).isEqualTo(10_000);
    }
  }

  @ParameterizedTest
  @MethodSource("backends")
  void perConnectionCountersAddUpToTheLabTotal(BackendKind backend) throws Exception {
    on(backend);
    try (Connection a = lab.dataSource().getConnection();
        Connection b = lab.dataSource().getConnection()) {
      WireStats totalBefore = lab.wire().snapshot();
      WireStats aBefore = lab.wire(a).snapshot();
      WireStats bBefore = lab.wire(b).snapshot();
      a.createStatement().execute("SELECT 1");
      b.createStatement().execute("SELECT 1");
      b.createStatement().execute("SELECT 2");
      assertThat(lab.wire(a).snapshot().minus(aBefore).roundTrips()).isEqualTo(1);
      assertThat(lab.wire(b).snapshot().minus(bBefore).roundTrips()).isEqualTo(2);
      assertThat(lab.wire().snapshot().minus(totalBefore).roundTrips()).isEqualTo(3);
    }
  }

  private static long countRows(Connection c) throws Exception {
    try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT count(*) FROM item")) {
      rs.next();
      return rs.getLong(1);
    }
  }

  private long batchInsert(int rows, boolean rewrite) throws Exception {
    WireDataSource ds = lab.dataSource().withProperty("reWriteBatchedInserts",
        Boolean.toString(rewrite));
    try (Connection c = ds.getConnection();
        PreparedStatement ps = c.prepareStatement("INSERT INTO item (id, name) VALUES (?, ?)")) {
      c.setAutoCommit(false);
      for (int i = 0; i < rows; i++) {
        ps.setInt(1, i);
        ps.setString(2, "name " + i);
        ps.addBatch();
      }
      WireStats cost = lab.wire(c).measure(ps::executeBatch);
      c.commit();
      // BEGIN rides along with the first batch; rewritten: 6 multi-row INSERTs
      assertThat(cost.statements()).isEqualTo(rewrite ? 7 : rows + 1);
      assertThat(countRows(c)).isEqualTo(rows);
      return cost.roundTrips();
    }
  }

  private void insertRows(int rows) throws Exception {
    try (Connection c = lab.directDataSource().getConnection(); Statement st = c.createStatement()) {
      st.execute("INSERT INTO item SELECT g, 'name ' || g FROM generate_series(0, " + (rows - 1) + ") g");
    }
  }
}
