package io.github.latencylab.env;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.github.latencylab.env.backend.EmbeddedBackend;
import io.github.latencylab.env.backend.ToxiproxyServer;
import io.github.latencylab.latency.Link;
import io.github.latencylab.latency.Rtt;
import io.github.latencylab.latency.RttMeasurement;
import io.github.latencylab.latency.WholeMillisecondToxics;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Starting and stopping: what a Lab gives, and that nothing is left running after it (the
 * external backend: {@link ExternalBackendTest}).
 */
@Tag("alone") // asserts on times: runs alone, after the other tests (pom.xml)
class LabLifecycleTest {

  private static LabConfig embedded() {
    return LabConfig.fromEnvironment().withBackend(BackendKind.EMBEDDED);
  }

  // one Lab per backend, used, then stopped (a start takes 1.5 s embedded, 5 s in containers)
  @ParameterizedTest
  @MethodSource("io.github.latencylab.env.TestBackends#available")
  void labReportsItsServerGoesThroughTheProxyAndStopsEverythingItStarted(BackendKind backend)
      throws Exception {
    Set<Path> tmpBefore = startOutputs();
    Lab lab = Lab.start(LabConfig.fromEnvironment().withBackend(backend));
    PostgresTarget direct = lab.directTarget();
    PostgresTarget proxied = lab.target();
    Optional<ProcessHandle> toxiproxy = Optional.empty();
    try {
      if (backend == BackendKind.EMBEDDED) {
        toxiproxy = ProcessHandle.of(((EmbeddedBackend) lab.backendForTests()).toxiproxyPid());
        assertThat(toxiproxy.filter(ProcessHandle::isAlive)).as("toxiproxy-server process")
            .isPresent();
      }
      assertThat(listening(direct)).isTrue();
      assertThat(listening(proxied)).isTrue();
      assertThat(lab.backend()).isEqualTo(backend);
      assertThat(lab.server().version()).startsWith("17.");
      assertThat(lab.server().versionNum()).isBetween(170000, 179999);
      assertThat(lab.server().settings()).containsKeys("synchronous_commit", "fsync",
          "shared_buffers", "work_mem", "wal_buffers");
      assertThat(proxied.port()).isNotEqualTo(direct.port());
      assertThat(lab.describe()).contains(backend == BackendKind.EMBEDDED
          ? "embedded PostgreSQL" : "testcontainers");
      try (Connection c = java.sql.DriverManager.getConnection(lab.jdbcUrl(),
          proxied.user(), proxied.password())) {
        long before = lab.wire().snapshot().roundTrips();
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT 1")) {
          rs.next();
        }
        assertThat(lab.wire().snapshot().roundTrips() - before)
            .as("jdbcUrl() connections count on the Lab's wire").isEqualTo(1);
      }
    } finally {
      lab.close();
    }
    lab.close(); // idempotent

    assertThat(toxiproxy.filter(ProcessHandle::isAlive)).as("toxiproxy-server process after"
        + " close").isEmpty();
    assertThat(listening(direct)).as("PostgreSQL port after close").isFalse();
    assertThat(listening(proxied)).as("proxy port after close").isFalse();
    assertThat(startOutputs()).as("the start's output files after close")
        .isSubsetOf(tmpBefore);
  }

  // where the embedded start keeps initdb's and the server's output while it runs
  private static Set<Path> startOutputs() throws IOException {
    try (Stream<Path> files = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
      return files.filter(f -> f.getFileName().toString().startsWith("latency-lab-initdb-"))
          .collect(Collectors.toSet());
    }
  }

  // a user's own Toxiproxy, stock v2.5.0: no latency_us, so whole-millisecond toxics, said so
  // in one log line and in every description
  @Test
  void externalLabBehindAStockToxiproxyFallsBackToWholeMillisecondToxics() throws Exception {
    LabConfig stock = LabConfig.fromEnvironment()
        .with(Setting.TOXIPROXY_SERVER, StockToxiproxy.binary().toString());
    try (Lab server = Lab.start(embedded());
        ToxiproxyServer users = ToxiproxyServer.start(stock);
        LogCapture logs = LogCapture.start()) {
      PostgresTarget db = server.directTarget();
      LabConfig external = LabConfig.fromEnvironment()
          .withBackend(BackendKind.EXTERNAL)
          .with(Setting.JDBC_URL, db.jdbcUrl())
          .with(Setting.JDBC_USER, db.user())
          .with(Setting.JDBC_PASSWORD, db.password())
          .with(Setting.TOXIPROXY_URL, "http://127.0.0.1:" + users.port())
          .with(Setting.SCHEMA, "latency_lab_external"); // the embedded Lab holds latency_lab
      try (Lab lab = Lab.start(external)) {
        assertThat(lab.perRoundTripLatency()).isFalse();
        assertThat(lab.describe()).endsWith("; whole-millisecond latency toxics, real on"
            + " average only (this Toxiproxy has no latency_us toxic); link delay-only: a bare"
            + " delay, no window (any transfer pays the RTT about once), schema"
            + " latency_lab_external");
        assertThat(lab.link()).as("a stock Toxiproxy has no tcp_window toxic")
            .isEqualTo(Link.DELAY_ONLY);
        assertThat(lab.environment().description()).isEqualTo(lab.describe());
        assertThat(logs.lines()).filteredOn(line -> line.contains("falling back"))
            .containsExactly("WARN io.github.latencylab.env.link.LatencyControl - Toxiproxy at"
                + " http://127.0.0.1:" + users.port() + " has no latency_us toxic (a stock"
                + " server?): falling back to whole-millisecond latency toxics, real on average"
                + " only, not per round trip; latency-lab's own server has it"
                + " (docs/latency.md)");
        assertThat(logs.lines()).filteredOn(line -> line.contains("tcp_window"))
            .containsExactly("WARN io.github.latencylab.env.link.LatencyControl - Toxiproxy at"
                + " http://127.0.0.1:" + users.port() + " has no tcp_window toxic (a stock"
                + " server?): the link is a bare delay, not linux (latency-lab's own server has"
                + " it: docs/latency.md)");

        Rtt rtt = Rtt.parse("20ms");
        RttMeasurement m = lab.measure(rtt);
        assertThat(m.plan()).isInstanceOf(WholeMillisecondToxics.class);
        assertThat(m.addedMeanMs()).as("added mean (%s)", m.plan()).isCloseTo(20, within(5.0));
      }
    }
  }

  // the plan asked for is the point, not its calibration (the test above calibrates
  // whole-millisecond toxics, at up to six passes of 1.5 s)
  @Test
  void wholeMillisecondToxicsOnRequestEvenWhereLatencyUsExists() {
    try (Lab lab = Lab.start(embedded().with(Setting.RTT_TOXICS, "whole-ms")
        .with(Setting.CALIBRATE, "false"))) {
      assertThat(lab.perRoundTripLatency()).isFalse();
      assertThat(lab.describe()).endsWith("; whole-millisecond latency toxics, real on average"
          + " only (as asked: latencylab.rtt.toxics=whole-ms); link " + Link.LINUX.describe()
          + ", schema latency_lab");
      assertThat(lab.environment().toxiproxyVersion()).isEqualTo("2.5.0+latency_us+tcp_window");
      Rtt rtt = Rtt.parse("5ms");
      assertThat(lab.measure(rtt, 50).plan()).isInstanceOf(WholeMillisecondToxics.class);
    }
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
