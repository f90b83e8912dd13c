package io.github.latencylab.env;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import io.github.latencylab.env.watch.ServerWork;
import io.github.latencylab.wire.WireCounter;
import io.github.latencylab.wire.WireStatement;
import io.github.latencylab.wire.WireStats;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The server's plan and work per statement, read on the Lab's own connection: ten lookups by an
 * indexed column of a 50,000-row table, then the same with the index dropped.
 */
class ServerWorkTest {

  private static Lab lab;

  @BeforeAll
  static void start() throws SQLException {
    lab = Lab.start(LabConfig.fromEnvironment().withBackend(BackendKind.EMBEDDED));
    try (Connection c = lab.directDataSource().getConnection(); Statement st = c.createStatement()) {
      st.execute("CREATE TABLE owners (id int PRIMARY KEY, last_name text, notes text)");
      st.execute("INSERT INTO owners SELECT i, 'name' || i, repeat('x', 100)"
          + " FROM generate_series(1, 50000) i");
      st.execute("CREATE INDEX owners_last_name ON owners (last_name)");
      st.execute("ANALYZE owners");
    }
  }

  @AfterAll
  static void stop() {
    lab.close();
  }

  @Test
  void aDroppedIndexShowsAsAnotherPlanAndAHundredTimesTheBuffers() throws SQLException {
    ServerWork.Statement indexed = tenLookups();
    assertThat(indexed.executions()).isEqualTo(10);
    assertThat(indexed.plan().fingerprint())
        .isEqualTo("Index Scan using owners_last_name on owners");
    assertThat(indexed.plan().tableRows()).containsExactly(entry("owners", 50_000L));
    assertThat(indexed.plan().seqScanned()).isEmpty();
    assertThat(indexed.work().calls()).isEqualTo(10);
    assertThat(indexed.work().rows()).isEqualTo(10);

    try (Connection c = lab.directDataSource().getConnection(); Statement st = c.createStatement()) {
      st.execute("DROP INDEX owners_last_name");
    }
    ServerWork.Statement scanned = tenLookups();
    assertThat(scanned.plan().fingerprint()).contains("Seq Scan on owners");
    assertThat(scanned.plan().seqScanned()).containsExactly(entry("owners", 50_000L));
    assertThat(scanned.work().calls()).isEqualTo(10);
    assertThat(scanned.work().blocks()).isGreaterThan(100 * indexed.work().blocks());
    try (Connection c = lab.directDataSource().getConnection(); Statement st = c.createStatement()) {
      st.execute("CREATE INDEX owners_last_name ON owners (last_name)");
    }
  }

  @Test
  void aKeyListSentAsABinaryArrayIsPlannedForItsKeys() throws SQLException {
    List<ServerWork.Statement> statements = watched(c -> {
      try (PreparedStatement ps = c.prepareStatement(
          "SELECT id, last_name FROM owners WHERE id = any (?)")) {
        ps.setArray(1, c.createArrayOf("int8", new Long[] {3L, 5L, 8L}));
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            rs.getInt(1);
          }
        }
      }
    });
    assertThat(statements).hasSize(1);
    assertThat(statements.get(0).why()).isNull();
    assertThat(statements.get(0).plan().fingerprint())
        .isEqualTo("Index Scan using owners_pkey on owners");
    assertThat(statements.get(0).work().rows()).isEqualTo(3);
  }

  @Test
  void anUnreadablePlanSaysWhy() throws SQLException {
    List<ServerWork.Statement> statements = watched(c -> {
      try (Statement st = c.createStatement()) {
        st.execute("CREATE TEMPORARY TABLE scratch (x int)");
        st.execute("INSERT INTO scratch VALUES (1)");
      }
    });
    assertThat(statements).extracting(ServerWork.Statement::why).containsExactly(
        "not read: ERROR: relation \"scratch\" does not exist");
  }

  /** What a test does on a connection of the Lab's data source. */
  interface OnConnection {
    void run(Connection c) throws SQLException;
  }

  // the plans and work of what code sent, traced: its connection's set-up is overhead
  private static List<ServerWork.Statement> watched(OnConnection code) throws SQLException {
    WireCounter wire = lab.wire();
    wire.trace();
    WireStats before = wire.snapshot();
    ServerWork work = lab.watchWork().orElseThrow();
    assertThat(work.unavailable()).isEmpty();
    try (Connection c = lab.dataSource().getConnection()) {
      code.run(c);
    }
    return work.finish(wire.statementsSince(before).stream().filter(WireStatement::counted)
        .toList());
  }

  private static ServerWork.Statement tenLookups() throws SQLException {
    List<ServerWork.Statement> statements = watched(c -> {
      try (PreparedStatement ps = c.prepareStatement("SELECT id FROM owners WHERE last_name = ?")) {
        for (int i = 1; i <= 10; i++) {
          ps.setString(1, "name" + (i * 997));
          try (ResultSet rs = ps.executeQuery()) {
            assertThat(rs.next()).isTrue();
          }
        }
      }
    });
    assertThat(statements).hasSize(1);
    return statements.get(0);
  }
}
