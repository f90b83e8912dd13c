package io.github.latencylab.env;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import eu.rekawek.toxiproxy.ToxiproxyClient;
import io.github.latencylab.latency.LatencyControl;
import io.github.latencylab.latency.Rtt;
import io.github.latencylab.latency.RttMeasurement;
import io.github.latencylab.latency.WholeMillisecondToxics;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Starting and stopping: what a Lab gives, and that nothing is left running after it. */
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

  @Test
  void externalLabWithoutToxiproxyMeasuresTheRealNetworkAndRefusesToAddLatency() {
    try (Lab server = Lab.start(embedded())) {
      PostgresTarget db = server.directTarget();
      LabConfig external = external(db);
      try (Lab lab = Lab.start(external)) {
        assertThat(lab.hasProxy()).isFalse();
        assertThat(lab.describe()).contains("no Toxiproxy: real network latency");
        RttMeasurement real = lab.measure(Rtt.ZERO, 20);
        assertThat(real.baseline().samples()).isEqualTo(20);
        assertThat(real.addedMeanMs()).isZero();
        assertThatThrownBy(() -> lab.rtt(Rtt.parse("20ms")))
            .hasMessageStartingWith("Cannot add 20ms: this Lab has no Toxiproxy (external ")
            .hasMessageEndingWith("Set latencylab.toxiproxy.url to add latency; without it the"
                + " latency is the real network's");
      }
    }
  }

  @Test
  void externalLabBehindTheUsersToxiproxyAddsLatencyAndRemovesItsProxies() throws Exception {
    try (Lab server = Lab.start(embedded());
        ToxiproxyServer users = ToxiproxyServer.start(LabConfig.fromEnvironment())) {
      PostgresTarget db = server.directTarget();
      ToxiproxyClient api = new ToxiproxyClient("127.0.0.1", users.port());
      api.createProxy("latency-lab", "127.0.0.1:0", "127.0.0.1:1"); // a stale one, replaced
      LabConfig external = external(db)
          .with(Setting.TOXIPROXY_URL, "http://127.0.0.1:" + users.port());
      try (Lab lab = Lab.start(external)) {
        assertThat(lab.hasProxy()).isTrue();
        assertThat(lab.describe()).startsWith("external " + db.jdbcUrl() + " via Toxiproxy"
            + " 127.0.0.1:");
        assertThat(api.getProxy("latency-lab").getUpstream())
            .isEqualTo(db.host() + ":" + db.port());
        assertThat(api.getProxy("latency-lab").getListen())
            .isEqualTo(lab.target().host() + ":" + lab.target().port());
        assertThat(api.getProxy("latency-lab-baseline").getUpstream())
            .isEqualTo(db.host() + ":" + db.port());

        Rtt rtt = Rtt.parse("20ms");
        RttMeasurement m = lab.measure(rtt, LatencyControl.samplesFor(rtt));
        assertThat(m.addedMeanMs()).as("added mean (plan %s)", m.plan())
            .isCloseTo(20, within(5.0));
        try (Connection c = java.sql.DriverManager.getConnection(lab.jdbcUrl(),
            lab.target().user(), lab.target().password())) {
          long before = lab.wire().snapshot().roundTrips();
          try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT 1")) {
            rs.next();
          }
          assertThat(lab.wire().snapshot().roundTrips() - before).isEqualTo(1);
        }
      }
      assertThat(api.getProxyOrNull("latency-lab")).as("proxy after close").isNull();
      assertThat(api.getProxyOrNull("latency-lab-baseline")).as("baseline proxy").isNull();
      assertThat(listening(db)).as("the user's database is the user's: still up").isTrue();
    }
  }

  // a user's own Toxiproxy, stock v2.5.0: no latency_us, so whole-millisecond toxics, said so
  @Test
  void externalLabBehindAStockToxiproxyFallsBackToWholeMillisecondToxics() throws Exception {
    LabConfig stock = LabConfig.fromEnvironment()
        .with(Setting.TOXIPROXY_SERVER, StockToxiproxy.binary().toString());
    try (Lab server = Lab.start(embedded());
        ToxiproxyServer users = ToxiproxyServer.start(stock)) {
      PostgresTarget db = server.directTarget();
      LabConfig external = external(db)
          .with(Setting.TOXIPROXY_URL, "http://127.0.0.1:" + users.port());
      try (Lab lab = Lab.start(external)) {
        assertThat(lab.perRoundTripLatency()).isFalse();
        assertThat(lab.describe()).endsWith("; whole-millisecond latency toxics, real on"
            + " average only (this Toxiproxy has no latency_us toxic)");
        assertThat(lab.environment().description()).isEqualTo(lab.describe());

        Rtt rtt = Rtt.parse("20ms");
        RttMeasurement m = lab.measure(rtt, LatencyControl.samplesFor(rtt));
        assertThat(m.plan()).isInstanceOf(WholeMillisecondToxics.class);
        assertThat(m.addedMeanMs()).as("added mean (%s)", m.plan()).isCloseTo(20, within(5.0));
      }
    }
  }

  @Test
  void wholeMillisecondToxicsOnRequestEvenWhereLatencyUsExists() {
    try (Lab lab = Lab.start(embedded().with(Setting.RTT_TOXICS, "whole-ms"))) {
      assertThat(lab.perRoundTripLatency()).isFalse();
      assertThat(lab.describe()).endsWith("; whole-millisecond latency toxics, real on average"
          + " only (as asked: latencylab.rtt.toxics=whole-ms)");
      assertThat(lab.environment().toxiproxyVersion()).isEqualTo("2.5.0+latency_us");
      Rtt rtt = Rtt.parse("5ms");
      assertThat(lab.measure(rtt, 50).plan()).isInstanceOf(WholeMillisecondToxics.class);
    }
  }

  /** The external backend on {@code db}, without a Toxiproxy yet. */
  private static LabConfig external(PostgresTarget db) {
    return LabConfig.fromEnvironment()
        .withBackend(BackendKind.EXTERNAL)
        .with(Setting.JDBC_URL, db.jdbcUrl())
        .with(Setting.JDBC_USER, db.user())
        .with(Setting.JDBC_PASSWORD, db.password());
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
