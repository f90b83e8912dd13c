package io.github.latencylab.env;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.net.Socket;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Starting and stopping: what a Lab gives, and that nothing is left running after it (the
 * external backend: {@link ExternalBackendTest}).
 */
class LabLifecycleTest {

  private static LabConfig embedded() {
    return LabConfig.fromEnvironment().withBackend(BackendKind.EMBEDDED);
  }

  @Test
  void embeddedLabStopsEverythingItStarted() throws Exception {
    Lab lab = Lab.start(embedded());
    EmbeddedBackend backend = (EmbeddedBackend) lab.backendForTests();
    ProcessHandle toxiproxy = ProcessHandle.of(backend.toxiproxyPid()).orElseThrow();
    PostgresTarget direct = lab.directTarget();
    PostgresTarget proxied = lab.target();
    assertThat(listening(direct)).isTrue();
    assertThat(listening(proxied)).isTrue();
    assertThat(toxiproxy.isAlive()).isTrue();

    lab.close();
    lab.close(); // idempotent

    assertThat(toxiproxy.isAlive()).as("toxiproxy-server process").isFalse();
    assertThat(listening(direct)).as("PostgreSQL port").isFalse();
    assertThat(listening(proxied)).as("proxy port").isFalse();
  }

  @ParameterizedTest
  @MethodSource("io.github.latencylab.env.TestBackends#available")
  void labReportsItsServerAndGoesThroughTheProxy(BackendKind backend) throws Exception {
    try (Lab lab = Lab.start(LabConfig.fromEnvironment().withBackend(backend))) {
      assertThat(lab.backend()).isEqualTo(backend);
      assertThat(lab.server().version()).startsWith("17.");
      assertThat(lab.server().versionNum()).isBetween(170000, 179999);
      assertThat(lab.server().settings()).containsKeys("synchronous_commit", "fsync",
          "shared_buffers", "work_mem", "wal_buffers");
      assertThat(lab.target().port()).isNotEqualTo(lab.directTarget().port());
      assertThat(lab.describe()).contains(backend == BackendKind.EMBEDDED
          ? "embedded PostgreSQL" : "testcontainers");
      try (Connection c = java.sql.DriverManager.getConnection(lab.jdbcUrl(),
          lab.target().user(), lab.target().password())) {
        long before = lab.wire().snapshot().roundTrips();
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT 1")) {
          rs.next();
        }
        assertThat(lab.wire().snapshot().roundTrips() - before)
            .as("jdbcUrl() connections count on the Lab's wire").isEqualTo(1);
      }
    }
  }

  @ParameterizedTest
  @MethodSource("io.github.latencylab.env.TestBackends#available")
  void testcontainersAndEmbeddedLabsLeaveNoPortOpen(BackendKind backend) {
    Lab lab = Lab.start(LabConfig.fromEnvironment().withBackend(backend));
    PostgresTarget direct = lab.directTarget();
    PostgresTarget proxied = lab.target();
    assertThat(listening(direct)).isTrue();
    assertThat(listening(proxied)).isTrue();
    lab.close();
    assertThat(listening(direct)).as("PostgreSQL port after close").isFalse();
    assertThat(listening(proxied)).as("proxy port after close").isFalse();
  }

  private static boolean listening(PostgresTarget target) {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress(target.host(), target.port()), 500);
      return true;
    } catch (java.io.IOException e) {
      return false;
    }
  }
}
