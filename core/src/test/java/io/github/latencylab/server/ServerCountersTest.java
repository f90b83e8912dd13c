package io.github.latencylab.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.latencylab.env.BackendKind;
import io.github.latencylab.env.Lab;
import io.github.latencylab.env.LabConfig;
import io.github.latencylab.env.PostgresTarget;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * The server's counters as deltas: commits, WAL, temp files, cache hits; and each statement's
 * work from pg_stat_statements. The counting runs in a
 * database of its own: pg_stat_database counts per database, and the Lab's own sessions (its
 * schema's lock) publish their statistics on their own schedule.
 */
class ServerCountersTest {

  private static Lab lab;
  private static PGSimpleDataSource counted;
  private static String statementsView;

  @BeforeAll
  static void start() throws SQLException {
    lab = Lab.start(LabConfig.fromEnvironment().withBackend(BackendKind.EMBEDDED));
    try (Connection c = lab.directDataSource().getConnection(); Statement st = c.createStatement()) {
      st.execute("CREATE DATABASE counters_test");
    }
    PostgresTarget direct = lab.directTarget();
    counted = new PGSimpleDataSource();
    counted.setURL("jdbc:postgresql://" + direct.host() + ":" + direct.port() + "/counters_test");
    counted.setUser(direct.user());
    counted.setPassword(direct.password());
    try (Connection c = counted.getConnection(); Statement st = c.createStatement()) {
      st.execute("CREATE TABLE counted (id int, pad text)");
      st.execute("CREATE TABLE sorted AS SELECT g AS id, md5(g::text) AS pad"
          + " FROM generate_series(1, 100000) g");
      st.execute("CREATE TABLE work (id int, pad text)");
      statementsView = StatementStatistics.locate(c, true).view();
    }
  }

  @AfterAll
  static void stop() {
    lab.close();
  }

  // a closed connection's session publishes its statistics as it exits, a moment later
  private static void awaitOtherSessionsGone(Connection reader, Connection worker)
      throws Exception {
    int workerPid = worker.unwrap(org.postgresql.PGConnection.class).getBackendPID();
    for (int i = 0; i < 250; i++) {
      try (Statement st = reader.createStatement(); var rs = st.executeQuery("SELECT count(*)"
          + " FROM pg_stat_activity WHERE datname = current_database()"
          + " AND pid NOT IN (pg_backend_pid(), " + workerPid + ")")) {
        rs.next();
        if (rs.getInt(1) == 0) {
          return;
        }
      }
      Thread.sleep(20);
    }
    throw new AssertionError("other sessions still open");
  }

  @Test
  void commitsAreExactOncePublishedAndCommitsWriteWal() throws Exception {
    try (Connection reader = counted.getConnection(); Connection worker = counted.getConnection();
        Statement st = worker.createStatement()) {
      awaitOtherSessionsGone(reader, worker);
      ServerCounters.publish(worker); // a new session's start counts a commit too
      ServerCounters before = ServerCounters.read(reader);
      for (int i = 0; i < 5; i++) {
        st.executeUpdate("INSERT INTO counted VALUES (" + i + ", 'x')");
      }
      assertThat(ServerCounters.publish(worker)).isTrue();
      ServerCounters cost = ServerCounters.read(reader).minus(before);
      assertThat(cost.commits()).as("5 inserts, the publish, the reads' own")
          .isEqualTo(5 + 1 + ServerCounters.OWN_COMMITS);
      assertThat(cost.walBytes()).as("WAL of 5 committed inserts").isGreaterThan(5 * 50);
      assertThat(cost.walSyncs()).as("synchronous commits flush the WAL").isPositive();
      assertThat(cost.walBuffersFull()).as("a few hundred bytes never fill wal_buffers")
          .isZero();
      assertThat(cost.tempBytes()).isZero();
      assertThat(cost.lessCommits(3).perOperation(5)).containsEntry("commitsPerOp", 1.0)
          .containsKeys("walBytesPerOp", "walSyncsPerOp", "cacheHitRatio", "tempBytesPerOp");
    }
  }

  @Test
  void theWalPositionMovesWithTheInsertAtOnceWithoutAPublish() throws Exception {
    try (Connection reader = counted.getConnection(); Connection worker = counted.getConnection();
        Statement st = worker.createStatement()) {
      long before = ServerCounters.walPosition(reader);
      st.executeUpdate("INSERT INTO counted VALUES (100, 'x')");
      assertThat(ServerCounters.walPosition(reader) - before).as("the insert's WAL, unpublished")
          .isGreaterThan(50);
    }
  }

  @Test
  void aSortThatSpillsWritesTempBytesAndOneThatFitsWritesNone() throws SQLException {
    assertThat(sortTempBytes("64kB")).as("work_mem 64 kB: the sort spills").isGreaterThan(1 << 20);
    assertThat(sortTempBytes("64MB")).as("work_mem 64 MB: it fits").isZero();
  }

  private static long sortTempBytes(String workMem) throws SQLException {
    try (Connection reader = counted.getConnection(); Connection worker = counted.getConnection();
        Statement st = worker.createStatement()) {
      st.execute("SET work_mem = '" + workMem + "'");
      ServerCounters before = ServerCounters.read(reader);
      st.executeQuery("SELECT * FROM sorted ORDER BY pad").close();
      ServerCounters.publish(worker);
      ServerCounters cost = ServerCounters.read(reader).minus(before);
      assertThat(cost.tempFiles()).isEqualTo(cost.tempBytes() > 0 ? 1 : 0);
      assertThat(cost.cacheHitRatio()).isBetween(0.0, 1.0);
      return cost.tempBytes();
    }
  }

  // pg_stat_statements: every statement's work between two reads, at once (nothing to publish),
  // without the reads' own

  @Test
  void theStatementReadsOwnStatementsAreNotCounted() throws SQLException {
    try (Connection reader = counted.getConnection()) {
      StatementStatistics before = StatementStatistics.read(reader, statementsView);
      ServerCounters.walPosition(reader);
      ServerCounters.read(reader);
      StatementStatistics after = StatementStatistics.read(reader, statementsView);
      assertThat(after.sinceAll(before)).isEqualTo(StatementStatistics.Work.NONE);
    }
  }

  @Test
  void anotherSessionsStatementsAreCountedAtOnce() throws SQLException {
    try (Connection reader = counted.getConnection(); Connection worker = counted.getConnection();
        Statement st = worker.createStatement()) {
      StatementStatistics before = StatementStatistics.read(reader, statementsView);
      for (int i = 0; i < 5; i++) {
        st.executeUpdate("INSERT INTO work VALUES (" + i + ", repeat('x', 100))");
      }
      StatementStatistics.Work work = StatementStatistics.read(reader, statementsView)
          .sinceAll(before);
      assertThat(work.calls()).as("five inserts, one shape").isEqualTo(5);
      assertThat(work.rows()).isEqualTo(5);
      assertThat(work.walBytes()).as("each row's WAL, not yet published").isGreaterThan(5 * 100);
      assertThat(work.blocks()).isPositive();
      assertThat(work.tempBytes()).isZero();
    }
  }
}
