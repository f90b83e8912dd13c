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
 * Every statement's work between two reads of pg_stat_statements, at once (nothing to publish)
 * and without the reads' own, in a database of its own (the view counts per database).
 */
class StatementStatisticsTest {

  private static Lab lab;
  private static PGSimpleDataSource database;
  private static String view;

  @BeforeAll
  static void start() throws SQLException {
    lab = Lab.start(LabConfig.fromEnvironment().withBackend(BackendKind.EMBEDDED));
    try (Connection c = lab.directDataSource().getConnection(); Statement st = c.createStatement()) {
      st.execute("CREATE DATABASE statements_test");
    }
    PostgresTarget direct = lab.directTarget();
    database = new PGSimpleDataSource();
    database.setURL("jdbc:postgresql://" + direct.host() + ":" + direct.port()
        + "/statements_test");
    database.setUser(direct.user());
    database.setPassword(direct.password());
    try (Connection c = database.getConnection(); Statement st = c.createStatement()) {
      st.execute("CREATE TABLE work (id int, pad text)");
      view = StatementStatistics.locate(c, true).view();
    }
  }

  @AfterAll
  static void stop() {
    lab.close();
  }

  @Test
  void theReadsOwnStatementsAreNotCounted() throws SQLException {
    try (Connection reader = database.getConnection()) {
      StatementStatistics before = StatementStatistics.read(reader, view);
      ServerCounters.walPosition(reader);
      ServerCounters.read(reader);
      StatementStatistics after = StatementStatistics.read(reader, view);
      assertThat(after.sinceAll(before)).isEqualTo(StatementStatistics.Work.NONE);
    }
  }

  @Test
  void anotherSessionsInsertsAreCountedAtOnce() throws SQLException {
    try (Connection reader = database.getConnection(); Connection worker = database.getConnection();
        Statement st = worker.createStatement()) {
      StatementStatistics before = StatementStatistics.read(reader, view);
      for (int i = 0; i < 5; i++) {
        st.executeUpdate("INSERT INTO work VALUES (" + i + ", repeat('x', 100))");
      }
      StatementStatistics.Work work = StatementStatistics.read(reader, view).sinceAll(before);
      assertThat(work.calls()).as("five inserts, one shape").isEqualTo(5);
      assertThat(work.rows()).isEqualTo(5);
      assertThat(work.walBytes()).as("each row's WAL, not yet published").isGreaterThan(5 * 100);
      assertThat(work.blocks()).isPositive();
      assertThat(work.tempBytes()).isZero();
    }
  }
}
