package io.github.latencylab.junit;

import static io.github.latencylab.junit.LabExtensionTest.select;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.github.latencylab.env.BackendKind;
import io.github.latencylab.env.Lab;
import io.github.latencylab.env.LabConfig;
import io.github.latencylab.wire.CountingSocketFactory;
import io.github.latencylab.wire.Overhead;
import io.github.latencylab.wire.WireCounter;
import io.github.latencylab.wire.WireDataSource;
import io.github.latencylab.wire.WireStats;
import java.sql.Connection;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The common set-ups count only what the code under test does: the bare injected DataSource
 * (whose every connection starts with a handshake and pgjdbc's set-up queries) and a user's
 * HikariCP pool pointed at the Lab through the extension's system properties (which validates
 * a connection idle for more than 500 ms before lending it).
 */
class OverheadTest {

  @RegisterExtension
  static final LabExtension LAB =
      LabExtension.withConfig(LabConfig.fromEnvironment().withBackend(BackendKind.EMBEDDED));

  static HikariDataSource pool;

  @BeforeAll
  static void userPool(Lab lab) {
    pool = hikari(1);
  }

  @AfterAll
  static void closePool() {
    pool.close();
  }

  /** A pool configured the way a user's test would: from the extension's system properties. */
  static HikariDataSource hikari(int size) {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(System.getProperty(LabExtension.URL_PROPERTY));
    config.setUsername(System.getProperty(LabExtension.USER_PROPERTY));
    config.setPassword(System.getProperty(LabExtension.PASSWORD_PROPERTY));
    config.setMaximumPoolSize(size);
    return new HikariDataSource(config);
  }

  @Test
  void theExtensionExposesTheLabForAPoolOrAFrameworkWithoutPrintingThePassword(Lab lab) {
    assertThat(System.getProperty(LabExtension.URL_PROPERTY)).isEqualTo(lab.jdbcUrl())
        .contains("socketFactory=io.github.latencylab.wire.CountingSocketFactory");
    assertThat(System.getProperty(LabExtension.USER_PROPERTY)).isEqualTo(lab.target().user());
    assertThat(System.getProperty(LabExtension.PASSWORD_PROPERTY))
        .isEqualTo(lab.target().password());
    assertThat(lab.jdbcUrl()).doesNotContainIgnoringCase("password");
  }

  @Test
  @ExpectRoundTrips(exactly = 1)
  void onTheBareDataSourceTheHandshakeIsNotCounted(DataSource dataSource) throws Exception {
    try (Connection c = dataSource.getConnection()) { // startup, auth, pgjdbc's SETs
      select(c, 1);
    }
  }

  @Test
  void askedFor_theHandshakeIsCountedAndListedApart(Lab lab, DataSource dataSource) {
    assertThatThrownBy(() -> RoundTrips.on(lab).includingOverhead().atMost(1, () -> {
      try (Connection c = dataSource.getConnection()) {
        select(c, 1);
      }
    }))
        // startup and authentication, then pgjdbc's SET: 3 round trips on the embedded server
        .hasMessage("expected at most 1 round trip, but there were 4 (2 SQL statements); the"
            + " SQL, read at the wire:\n"
            + "     1  SET application_name = 'PostgreSQL JDBC Driver'\n"
            + "     2  SELECT $1::int AS n\n"
            + "counted, of which overhead: connection set-up 3 round trips"
            + " (SET application_name = 'PostgreSQL JDBC Driver')\n");
  }

  @Test
  void aHikariPoolsValidationAfterIdleIsNotCounted(Lab lab) throws Exception {
    try (Connection c = pool.getConnection()) {
      select(c, 1);
    }
    // Hikari validates a connection idle for more than 500 ms (aliveBypassWindowMs) on loan
    Thread.sleep(700);
    RoundTrips.on(lab).exactly(1, () -> {
      try (Connection c = pool.getConnection()) {
        select(c, 1);
      }
    });
    Thread.sleep(700);
    assertThatThrownBy(() -> RoundTrips.on(lab).includingOverhead().exactly(1, () -> {
      try (Connection c = pool.getConnection()) {
        select(c, 1);
      }
    }))
        .hasMessageStartingWith("expected exactly 1 round trip, but there were 2 (2 SQL"
            + " statements)")
        .hasMessageContaining("     1  \n     2  SELECT $1::int AS n\n")
        .hasMessageEndingWith("counted, of which overhead: connection validation 1 round trip"
            + " (an empty query)\n");
  }

  /**
   * A connection's set-up is known for what it is before anything counts too: a pool's
   * background thread may begin it before a test starts counting (which turns tracing on) and
   * finish it inside the count. Here on a counter that never traces.
   */
  @Test
  void aConnectionsSetUpIsOverheadBeforeAnyCounting(Lab lab) throws Exception {
    WireCounter untraced = new WireCounter();
    String name = "overhead-test-untraced";
    CountingSocketFactory.register(name, untraced);
    try {
      WireDataSource dataSource = new WireDataSource(lab.target().jdbcUrl(),
          lab.target().user(), lab.target().password(), name, untraced);
      try (Connection c = dataSource.getConnection()) {
        WireStats connect = untraced.snapshot();
        // startup and authentication, then pgjdbc's SET, as when counted above
        assertThat(connect.roundTrips()).isEqualTo(3);
        assertThat(untraced.overhead(Overhead.CONNECT)).isEqualTo(connect);
        select(c, 1);
        assertThat(untraced.snapshot().minus(connect).roundTrips()).isEqualTo(1);
        assertThat(untraced.overhead(Overhead.CONNECT)).as("what follows: not classified")
            .isEqualTo(connect);
      }
    } finally {
      CountingSocketFactory.unregister(name);
    }
  }

  @Test
  void aFreshPoolsConnectionSetUpIsNotCounted(Lab lab) throws Exception {
    RoundTrips.on(lab).exactly(2, () -> {
      try (HikariDataSource fresh = hikari(2); Connection c = fresh.getConnection()) {
        select(c, 2);
      }
    });
  }
}
