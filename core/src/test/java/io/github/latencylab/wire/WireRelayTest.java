package io.github.latencylab.wire;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.latencylab.env.Lab;
import io.github.latencylab.env.LabConfig;
import io.github.latencylab.env.Setting;
import java.io.StringReader;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.postgresql.PGConnection;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * The counting relay, in a Lab's path ({@link Setting#RELAY}), counts what pgjdbc's socket
 * counts, shape by shape: the same round trips, statements and bytes for each.
 */
class WireRelayTest {

  private static Lab lab;

  @BeforeAll
  static void start() throws SQLException {
    lab = Lab.start(LabConfig.fromEnvironment().with(Setting.RELAY, "true"));
    try (Connection c = lab.directDataSource().getConnection();
        Statement st = c.createStatement()) {
      st.execute("DROP TABLE IF EXISTS relayed");
      st.execute("CREATE TABLE relayed (id serial PRIMARY KEY, name text NOT NULL)");
    }
  }

  @AfterAll
  static void stop() {
    lab.close();
  }

  /** What {@code action} cost on {@code c}, at its socket and at the relay. */
  private static WireStats[] both(Connection c, WireCounter.ThrowingRunnable<SQLException> action)
      throws SQLException {
    WireCounter socket = lab.wire(c);
    WireCounter relayed = lab.relay().wire(socket.localPort());
    assertThat(relayed).as("the relay saw the connection from port %d", socket.localPort())
        .isNotNull();
    WireStats socketBefore = socket.snapshot();
    WireStats relayBefore = relayed.snapshot();
    action.run();
    return new WireStats[] {socket.snapshot().minus(socketBefore),
        relayed.snapshot().minus(relayBefore)};
  }

  private static void assertSame(WireStats[] both, long roundTrips) {
    assertAgree(both);
    assertThat(both[0].roundTrips()).as("round trips").isEqualTo(roundTrips);
  }

  // round trips, statements and bytes: what the protocol says; window flights are the link
  // model's reading of the bytes as they came in chunks, which differ between the two places
  private static void assertAgree(WireStats[] both) {
    assertThat(new WireStats(both[1].roundTrips(), both[1].statements(), both[1].bytesSent(),
        both[1].bytesReceived())).as("at the relay, as at the socket")
        .isEqualTo(new WireStats(both[0].roundTrips(), both[0].statements(),
            both[0].bytesSent(), both[0].bytesReceived()));
  }

  @Test
  void theLabsConnectionsGoThroughTheRelay() throws SQLException {
    assertThat(lab.target().port()).isEqualTo(lab.relay().address().getPort());
    WireStats before = lab.relay().checks().snapshot();
    WireStats anyBefore = lab.relay().wire().snapshot();
    try (Connection c = lab.dataSource().getConnection()) {
      assertThat(c.isValid(1)).isTrue();
    }
    assertThat(lab.relay().checks().snapshot().minus(before).roundTrips())
        .as("connecting (startup, authentication) and one validation, counted again apart")
        .isEqualTo(lab.relay().wire().snapshot().minus(anyBefore).roundTrips())
        .isPositive();
  }

  /** A client the Lab does not count at its socket (here a plain pgjdbc) counts on its wire. */
  @Test
  void anyOtherClientCountsOnTheLabsWireAtTheRelay() throws SQLException {
    PGSimpleDataSource plain = new PGSimpleDataSource();
    plain.setURL(lab.target().jdbcUrl());
    plain.setUser(lab.target().user());
    plain.setPassword(lab.target().password());
    try (Connection c = plain.getConnection(); Statement st = c.createStatement()) {
      WireStats checks = lab.relay().checks().snapshot();
      WireStats before = lab.wire().snapshot();
      WireStats cost = lab.wire().measure(() -> {
        for (int i = 0; i < 3; i++) {
          st.execute("SELECT 1");
        }
      });
      assertThat(cost.roundTrips()).isEqualTo(3);
      assertThat(cost.statements()).isEqualTo(3);
      assertThat(lab.relay().checks().snapshot()).as("not counted twice").isEqualTo(checks);
      assertThat(lab.wire().statementsSince(before)).as("said to be the relay's")
          .hasSize(3).allMatch(WireStatement::relayed);
    }
    try (Connection c = lab.dataSource().getConnection(); Statement st = c.createStatement()) {
      WireCounter socket = lab.wire(c);
      WireStats before = socket.snapshot();
      st.execute("SELECT 1");
      assertThat(socket.statementsSince(before)).as("pgjdbc's, counted at its socket")
          .singleElement().matches(s -> !s.relayed());
    }
  }

  @Test
  void statementByStatement() throws SQLException {
    try (Connection c = lab.dataSource().getConnection();
        PreparedStatement ps = c.prepareStatement("INSERT INTO relayed (name) VALUES (?)")) {
      assertSame(both(c, () -> {
        for (int i = 0; i < 10; i++) {
          ps.setString(1, "row " + i);
          ps.executeUpdate();
        }
      }), 10);
    }
  }

  @Test
  void aBatchOfAThousandInOneTransaction() throws SQLException {
    try (Connection c = lab.dataSource().getConnection();
        PreparedStatement ps = c.prepareStatement("INSERT INTO relayed (name) VALUES (?)")) {
      c.setAutoCommit(false);
      WireStats[] cost = both(c, () -> {
        for (int i = 0; i < 1000; i++) {
          ps.setString(1, "row " + i);
          ps.addBatch();
        }
        ps.executeBatch();
        c.commit();
      });
      assertAgree(cost);
      assertThat(cost[0].statements()).isEqualTo(1001 + 1); // BEGIN rides with the first
    }
  }

  @Test
  void aBatchReturningGeneratedKeys() throws SQLException {
    try (Connection c = lab.dataSource().getConnection();
        PreparedStatement ps = c.prepareStatement("INSERT INTO relayed (name) VALUES (?)",
            new String[] {"id"})) {
      WireStats[] cost = both(c, () -> {
        for (int i = 0; i < 300; i++) {
          ps.setString(1, "row " + i);
          ps.addBatch();
        }
        ps.executeBatch();
        try (ResultSet keys = ps.getGeneratedKeys()) {
          int n = 0;
          while (keys.next()) {
            n++;
          }
          assertThat(n).isEqualTo(300);
        }
      });
      assertAgree(cost);
    }
  }

  @Test
  void copyInAndOut() throws Exception {
    try (Connection c = lab.dataSource().getConnection()) {
      StringBuilder csv = new StringBuilder();
      for (int i = 0; i < 10_000; i++) {
        csv.append("copied ").append(i).append('\n');
      }
      assertSame(both(c, () -> {
        try {
          c.unwrap(PGConnection.class).getCopyAPI()
              .copyIn("COPY relayed (name) FROM STDIN", new StringReader(csv.toString()));
        } catch (java.io.IOException e) {
          throw new SQLException(e);
        }
      }), 2);
      assertSame(both(c, () -> {
        try {
          c.unwrap(PGConnection.class).getCopyAPI()
              .copyOut("COPY relayed TO STDOUT", java.io.OutputStream.nullOutputStream());
        } catch (java.io.IOException e) {
          throw new SQLException(e);
        }
      }), 1);
    }
  }

  @Test
  void aCursorFetchesAHundredAtATime() throws SQLException {
    try (Connection c = lab.dataSource().getConnection(); Statement st = c.createStatement()) {
      c.setAutoCommit(false);
      st.setFetchSize(100);
      assertSame(both(c, () -> {
        try (ResultSet rs = st.executeQuery("SELECT i FROM generate_series(1, 1000) i")) {
          while (rs.next()) {
            rs.getInt(1);
          }
        }
        c.commit();
      }), 12); // BEGIN with the first fetch, 9 more fetches and the last's end, COMMIT
    }
  }

  @Test
  void aFailedStatementInABatch() throws SQLException {
    try (Connection c = lab.dataSource().getConnection();
        PreparedStatement ps = c.prepareStatement("INSERT INTO relayed (id, name) VALUES (?, ?)")) {
      WireStats[] cost = both(c, () -> {
        for (int i = 0; i < 3; i++) {
          ps.setInt(1, -1); // the second and third collide
          ps.setString(2, "twice");
          ps.addBatch();
        }
        try {
          ps.executeBatch();
        } catch (SQLException expected) {
          // the batch fails on its second row
        }
      });
      assertAgree(cost);
      assertThat(cost[0].roundTrips()).isEqualTo(1);
    }
  }
}
