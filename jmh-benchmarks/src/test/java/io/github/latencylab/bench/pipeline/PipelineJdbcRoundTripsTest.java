package io.github.latencylab.bench.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.latencylab.bench.insert.InsertRows;
import io.github.latencylab.bench.tpcb.TpcbData;
import io.github.latencylab.env.BackendKind;
import io.github.latencylab.env.Lab;
import io.github.latencylab.env.LabConfig;
import io.github.latencylab.env.Setting;
import io.github.latencylab.latency.Rtt;
import io.github.latencylab.wire.WireStats;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The JDBC clients' round trips, counted at the socket, exactly: on a new connection and again
 * on the same one (what the benchmark's later operations cost; equal for every shape here).
 * Then where pgjdbc stops pipelining a batch (JdbcClient's comment has the rule).
 */
class PipelineJdbcRoundTripsTest {

  private static Lab lab;

  @BeforeAll
  static void start() throws SQLException {
    // uncalibrated: the counts at 20 ms need the 20 ms, not its last 0.1 ms (3 s of probing)
    lab = Lab.start(LabConfig.fromEnvironment().withBackend(BackendKind.EMBEDDED)
        .with(Setting.CALIBRATE, "false"));
    InsertRows.createTable(lab.directDataSource());
    LookupData.create(lab.directDataSource());
    TpcbData.initialize(lab.directDataSource(), 1);
  }

  @AfterAll
  static void stop() {
    lab.close();
  }

  @ParameterizedTest(name = "{0} of {1} rows: {2} round trips, {3} statements")
  @CsvSource({
      // a round trip per INSERT, the COMMIT one more (BEGIN rides with the first INSERT); n + 1
      // at any size, so not 10,000 (20,000 round trips, 3 s, to say it again)
      "jdbcOneByOne, 100, 101, 102", "jdbcOneByOne, 1000, 1001, 1002",
      // a Sync every 255 statements, and the COMMIT
      "jdbcBatch, 100, 2, 102", "jdbcBatch, 1000, 5, 1002", "jdbcBatch, 10000, 41, 10002",
      // multi-row INSERTs in powers of two up to 8,192 rows: 100 = 64 + 32 + 4;
      // 1,000 = 512 + 256 + 128 + 64 + 32 + 8; 10,000 = 8,192 + 1,024 + 512 + 256 + 16;
      // one Sync, then the COMMIT
      "jdbcRewrite, 100, 2, 5", "jdbcRewrite, 1000, 2, 8", "jdbcRewrite, 10000, 2, 7",
      // the COPY statement, then its data and CopyDone: 2 whatever N
      "copy, 100, 2, 1", "copy, 1000, 2, 1", "copy, 10000, 2, 1"})
  void insertsCostTheirRoundTrips(ClientKind kind, int rows, long roundTrips, long statements)
      throws SQLException {
    List<InsertRows.Row> data = InsertRows.generate(rows).rows();
    try (JdbcClient client = (JdbcClient) kind.open(lab, PipelineBenchmark.clientTarget(lab))) {
      for (String time : List.of("first", "second")) {
        InsertRows.truncate(lab.directDataSource());
        WireStats cost = lab.wire(client.connection()).measure(() -> client.inserts(data));
        assertThat(cost.roundTrips()).as(kind + ", " + rows + " rows, " + time + " time")
            .isEqualTo(roundTrips);
        assertThat(cost.statements()).as(kind + ", " + rows + " rows, " + time + " time")
            .isEqualTo(statements);
        assertThat(InsertRows.count(lab.directDataSource())).isEqualTo(rows);
      }
    }
  }

  @ParameterizedTest(name = "{0}: {1} round trips")
  @CsvSource({"jdbcOneByOne, 100", "jdbcJoin, 1", "jdbcAny, 1"})
  void lookupsCostTheirRoundTrips(ClientKind kind, long roundTrips) throws SQLException {
    try (JdbcClient client = (JdbcClient) kind.open(lab, PipelineBenchmark.clientTarget(lab))) {
      for (String time : List.of("first", "second")) {
        WireStats cost = lab.wire(client.connection())
            .measure(() -> client.lookups(LookupData.authorIds()));
        assertThat(cost.roundTrips()).as(kind + ", " + time + " time").isEqualTo(roundTrips);
      }
    }
  }

  @Test
  void tpcbOneByOneCostsSixRoundTrips() throws SQLException {
    try (JdbcClient client = (JdbcClient) ClientKind.jdbcOneByOne.open(lab,
        PipelineBenchmark.clientTarget(lab))) {
      for (String time : List.of("first", "second")) {
        WireStats cost = lab.wire(client.connection()).measure(() -> client.tpcb(77, 1, 3, 10));
        // five statements (BEGIN rides with the first) and the COMMIT
        assertThat(cost.roundTrips()).as(time + " time").isEqualTo(6);
      }
    }
  }

  /**
   * pgjdbc 42.7.13 reckons 250 bytes of reply per statement and syncs before a statement that
   * would bring the estimate to 64,000 bytes, then counts that statement anew: a Sync every
   * 255 statements. Each count includes the COMMIT.
   */
  @ParameterizedTest(name = "a batch of {0}: {1} round trips")
  @CsvSource({"255, 2", "256, 3", "510, 3", "511, 4", "765, 4", "766, 5"})
  void aBatchSyncsEvery255Statements(int rows, long roundTrips) throws SQLException {
    assertThat(batchRoundTrips(Sql.INSERT, Statement.NO_GENERATED_KEYS, rows))
        .as("the first time and the second").containsExactly(roundTrips, roundTrips);
  }

  /**
   * The driver-version axis, counted at the relay for 42.7.12 (its connections are not
   * latency-lab's): 42.7.12 left the statement that tripped the guard out of the next
   * reckoning, so it syncs after 255 statements and then every 256; 42.7.13 every 255. The same
   * counts at 100, 1,000 and 10,000 rows; one round trip apart at 511 and 767. At 80 ms: with no
   * added latency 42.7.12's count at the relay moves from one batch to the next (3 or 4 for
   * 511 rows), as a pipelining client's does when its answers come back before it has sent
   * all it meant to (docs/pipelining.md); at 20 ms it did once on a busy machine (a clean
   * clone with the tests in three JVMs: 4 for 3).
   */
  @ParameterizedTest(name = "{0} of {1} rows: {2} round trips")
  @CsvSource({"jdbcBatch, 511, 4", "jdbc42712Batch, 511, 3", "jdbcBatch, 767, 5",
      "jdbc42712Batch, 767, 4", "jdbcBatch, 1000, 5", "jdbc42712Batch, 1000, 5"})
  void anUpgradeMovesWhereTheBatchSyncs(ClientKind kind, int rows, long roundTrips)
      throws SQLException {
    List<InsertRows.Row> data = InsertRows.generate(rows).rows();
    lab.rtt(Rtt.parse("80ms"));
    try (PipelineClient client = kind.open(lab, PipelineBenchmark.clientTarget(lab))) {
      for (String time : List.of("first", "second", "third")) {
        InsertRows.truncate(lab.directDataSource());
        WireStats cost = lab.wire().measure(() -> client.inserts(data));
        assertThat(cost.roundTrips()).as(kind + ", " + rows + " rows, " + time + " time")
            .isEqualTo(roundTrips);
        assertThat(InsertRows.count(lab.directDataSource())).isEqualTo(rows);
      }
    } finally {
      lab.rtt(Rtt.ZERO);
    }
  }

  /**
   * A statement that returns a row adds the row's largest size to the reckoning, where its
   * columns have a fixed size: RETURNING id (8 bytes) makes 258 a statement, a Sync every 248
   * statements. A column of no fixed size (text) cannot be reckoned, and
   * pgjdbc syncs after every statement: a round trip each, as one by one. getGeneratedKeys()
   * asks for every column (RETURNING *), so the same. The first batch of each also pays a
   * round trip to describe the statement, before it sends any row.
   */
  @ParameterizedTest(name = "{0} rows, {1}: {3} round trips, {4} the first time")
  @CsvSource({
      "100, RETURNING id, false, 2, 3", "1000, RETURNING id, false, 6, 7",
      "100, RETURNING name, false, 101, 102", "1000, RETURNING name, false, 1001, 1002",
      "100, '', true, 101, 102", "1000, '', true, 1001, 1002"})
  void rowsReturnedFromABatchStopItsPipelining(int rows, String returning,
      boolean generatedKeys, long roundTrips, long firstTime) throws SQLException {
    String sql = returning.isEmpty() ? Sql.INSERT : Sql.INSERT + " " + returning;
    int keys = generatedKeys ? Statement.RETURN_GENERATED_KEYS : Statement.NO_GENERATED_KEYS;
    assertThat(batchRoundTrips(sql, keys, rows)).as("the first time and the second")
        .containsExactly(firstTime, roundTrips);
  }

  // the round trips of the same batch (and its COMMIT) run twice on a new connection
  private static List<Long> batchRoundTrips(String sql, int keys, int rows)
      throws SQLException {
    List<InsertRows.Row> data = InsertRows.generate(rows).rows();
    List<Long> roundTrips = new ArrayList<>();
    try (Connection c = lab.dataSource().getConnection()) {
      c.setAutoCommit(false);
      for (int i = 0; i < 2; i++) {
        InsertRows.truncate(lab.directDataSource());
        WireStats cost = lab.wire(c).measure(() -> {
          try (PreparedStatement ps = c.prepareStatement(sql, keys)) {
            for (InsertRows.Row row : data) {
              ps.setLong(1, row.id());
              ps.setString(2, row.name());
              ps.setBigDecimal(3, row.amount());
              ps.setObject(4, row.createdAt());
              ps.addBatch();
            }
            ps.executeBatch();
          }
          c.commit();
        });
        assertThat(InsertRows.count(lab.directDataSource())).isEqualTo(rows);
        roundTrips.add(cost.roundTrips());
      }
    }
    return roundTrips;
  }
}
