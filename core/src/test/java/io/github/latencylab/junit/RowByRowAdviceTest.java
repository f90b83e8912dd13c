package io.github.latencylab.junit;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.latencylab.env.Lab;
import io.github.latencylab.env.LabConfig;
import io.github.latencylab.env.Setting;
import io.github.latencylab.wire.WireCounter;
import io.github.latencylab.wire.WireStats;
import io.github.latencylab.wire.WireStatement;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * A row-by-row write's advice names the batching of the client that sent it: pgjdbc's through
 * the Lab's socket, R2DBC's and Vert.x's where the relay counted it (their clients reach the Lab
 * only there). The same three INSERTs, read at both places.
 */
class RowByRowAdviceTest {

  private static Lab lab;

  @BeforeAll
  static void start() throws SQLException {
    lab = Lab.start(LabConfig.fromEnvironment().with(Setting.RELAY, "true"));
    try (Connection c = lab.directDataSource().getConnection();
        Statement st = c.createStatement()) {
      st.execute("DROP TABLE IF EXISTS advised");
      st.execute("CREATE TABLE advised (id serial PRIMARY KEY, name text NOT NULL)");
    }
  }

  @AfterAll
  static void stop() {
    lab.close();
  }

  @Test
  void theAdviceIsTheBatchingOfTheClientThatSentTheWrites() throws SQLException {
    List<WireStatement> sent;
    try (Connection c = lab.dataSource().getConnection()) { // pgjdbc through the Lab's socket
      WireCounter socket = lab.wire(c);
      WireStats before = socket.snapshot();
      insertThreeRowsOneByOne(c);
      sent = socket.statementsSince(before);
    }
    // a client without latency-lab's socket factory, counted at the relay as R2DBC's would be
    PGSimpleDataSource plain = new PGSimpleDataSource();
    plain.setURL(lab.target().jdbcUrl());
    plain.setUser(lab.target().user());
    plain.setPassword(lab.target().password());
    List<WireStatement> relayed;
    try (Connection c = plain.getConnection()) {
      WireStats before = lab.wire().snapshot();
      insertThreeRowsOneByOne(c);
      relayed = lab.wire().statementsSince(before);
    }

    assertThat(sent).hasSize(3).noneMatch(WireStatement::relayed);
    assertThat(relayed).hasSize(3).allMatch(WireStatement::relayed);
    assertThat(Repeats.of(sent)).singleElement().satisfies(r -> assertThat(r.describe())
        .endsWith("ran 3 times, one round trip each: row by row; batch them"
            + " (addBatch/executeBatch, reWriteBatchedInserts) or send them as one statement"));
    assertThat(Repeats.of(relayed)).singleElement().satisfies(r -> assertThat(r.describe())
        .endsWith("ran 3 times, one round trip each: row by row; batch them (R2DBC:"
            + " Statement.add() and one execute(), or Connection.createBatch(); Vert.x:"
            + " executeBatch) or send them as one statement"));
  }

  private static void insertThreeRowsOneByOne(Connection c) throws SQLException {
    try (PreparedStatement insert = c.prepareStatement("INSERT INTO advised (name) VALUES (?)")) {
      for (String name : List.of("a", "b", "c")) {
        insert.setString(1, name);
        insert.executeUpdate();
      }
    }
  }
}
