package io.github.latencylab.env;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.latencylab.env.link.ProxyToxics;
import io.github.latencylab.latency.Link;
import io.github.latencylab.latency.Rtt;
import io.github.latencylab.wire.WireStats;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.postgresql.PGConnection;

/**
 * The link's window on a real Lab: a transfer on a fresh connection takes a flight per
 * doubling of the window. Lower bounds only (a window can only make a transfer wait; a busy
 * machine only makes it slower): the flights' exact timing is the toxic's own test
 * (tcp_window_test.go), the agreement with the kernel's TCP is {@code ./latency-lab link-check}.
 */
class LabLinkTest {

  private static final Rtt RTT = Rtt.parse("80ms");
  private static final int ROWS = 10_000;
  private static Lab lab;
  private static byte[] csv;

  @BeforeAll
  static void start() throws Exception {
    lab = Lab.start(LabConfig.fromEnvironment().withBackend(BackendKind.EMBEDDED));
    StringBuilder rows = new StringBuilder();
    for (int i = 0; i < ROWS; i++) {
      rows.append(i).append(",row ").append(i).append(" of the link test and about sixty bytes\n");
    }
    csv = rows.toString().getBytes(StandardCharsets.UTF_8);
    try (Connection c = lab.directDataSource().getConnection();
        Statement s = c.createStatement()) {
      s.execute("create table link_rows (id int, note text)");
    }
    lab.rtt(RTT);
  }

  @AfterAll
  static void stop() {
    lab.close();
  }

  @Test
  void theDefaultLinkIsLinuxsAndEveryResultSaysSo() throws Exception {
    assertThat(lab.link()).isEqualTo(Link.LINUX);
    assertThat(lab.environment().link()).isEqualTo(Link.LINUX.describe());
    assertThat(lab.describe()).contains("link linux: 10 x 1448 B initial window");
    // per direction the window comes first, then the delay: held data is delayed from its
    // release
    assertThat(toxicTypes(lab)).containsExactly("upstream tcp_window", "upstream latency_us",
        "downstream tcp_window", "downstream latency_us");
  }

  @Test
  void aLoadOnAFreshConnectionPaysAFlightPerDoublingOfTheWindow() throws Exception {
    try (Connection c = lab.dataSource().getConnection()) {
      WireStats before = lab.wire(c).snapshot();
      double ms = copy(c);
      WireStats cost = lab.wire(c).snapshot().minus(before);
      assertThat(cost.roundTrips()).as("COPY's round trips, counted as ever").isEqualTo(2);
      long flights = Link.LINUX.flightsFor(csv.length, Link.LINUX.initialWindowBytes());
      assertThat(flights).isEqualTo(6);
      assertThat(cost.windowRoundTrips()).as("the data's flights beyond its first, counted")
          .isEqualTo(flights - 1);
      // the COPY statement's round trip, then the data's flights, the last one answered
      assertThat(ms).as("a %d-byte COPY at %s on a fresh connection", csv.length, RTT)
          .isGreaterThanOrEqualTo(atLeast(cost.roundTrips() + cost.windowRoundTrips()));
    }
  }

  @Test
  void aReadOnAFreshConnectionPaysItToo() throws Exception {
    try (Connection setup = lab.directDataSource().getConnection();
        Statement s = setup.createStatement()) {
      s.execute("insert into link_rows select i, 'row ' || i || ' of the read, sixty bytes or so'"
          + " from generate_series(1, " + ROWS + ") i");
    }
    try (Connection c = lab.dataSource().getConnection()) {
      WireStats before = lab.wire(c).snapshot();
      double ms = select(c);
      WireStats cost = lab.wire(c).snapshot().minus(before);
      assertThat(cost.roundTrips()).isEqualTo(1);
      long flights = Link.LINUX.flightsFor(cost.bytesReceived(),
          Link.LINUX.initialWindowBytes());
      assertThat(flights).as("%d bytes received", cost.bytesReceived()).isGreaterThanOrEqualTo(5);
      assertThat(cost.windowRoundTrips()).isEqualTo(flights - 1);
      assertThat(ms).as("a %d-byte result at %s on a fresh connection", cost.bytesReceived(), RTT)
          .isGreaterThanOrEqualTo(atLeast(flights));
    }
  }

  @Test
  void restartingTheWindowsMakesAWarmConnectionPayAgain() throws Exception {
    try (Connection c = lab.dataSource().getConnection()) {
      copy(c); // the window grows
      lab.restartWindows();
      WireStats before = lab.wire(c).snapshot();
      double ms = copy(c);
      assertThat(lab.wire(c).snapshot().minus(before).windowRoundTrips())
          .as("counted from a cold window again").isEqualTo(5);
      assertThat(ms).isGreaterThanOrEqualTo(atLeast(1 + Link.LINUX.flightsFor(csv.length,
          Link.LINUX.initialWindowBytes())));
    }
  }

  @Test
  void aLabAttachedFromAnotherJvmRestartsItsOwnersWindows() throws Exception {
    try (LabHandle handle = lab.handle(); Lab fork = Lab.attach(handle.file());
        Connection c = fork.dataSource().getConnection()) {
      copy(c);
      fork.restartWindows();
      assertThat(copy(c)).isGreaterThanOrEqualTo(atLeast(1 + Link.LINUX.flightsFor(csv.length,
          Link.LINUX.initialWindowBytes())));
      assertThat(toxicTypes(lab)).as("the same toxics, in the same order")
          .containsExactly("upstream tcp_window", "upstream latency_us",
              "downstream tcp_window", "downstream latency_us");
    }
  }

  @Test
  void delayOnlyIsABareDelay() throws Exception {
    // which toxics, not how close to the RTT: nominal ones, no calibration at 80 ms
    try (Lab bare = Lab.start(LabConfig.fromEnvironment().withBackend(BackendKind.EMBEDDED)
        .with(Setting.LINK, "delay-only").with(Setting.CALIBRATE, "false"))) {
      bare.rtt(RTT);
      assertThat(bare.link()).isEqualTo(Link.DELAY_ONLY);
      assertThat(bare.environment().link()).startsWith("delay-only");
      assertThat(toxicTypes(bare)).containsExactly("upstream latency_us",
          "downstream latency_us");
    }
  }

  // the link's flights at RTT, less what calibration takes off the toxics for their overshoot
  private static double atLeast(long flights) {
    return flights * RTT.millis() * 0.98;
  }

  private static double copy(Connection c) throws Exception {
    long start = System.nanoTime();
    c.unwrap(PGConnection.class).getCopyAPI().copyIn("copy link_rows from stdin (format csv)",
        new ByteArrayInputStream(csv));
    return (System.nanoTime() - start) / 1e6;
  }

  private static double select(Connection c) throws Exception {
    long start = System.nanoTime();
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("select * from link_rows limit " + ROWS)) {
      while (rs.next()) {
        rs.getString(2);
      }
    }
    return (System.nanoTime() - start) / 1e6;
  }

  // "stream type" of every toxic on the Lab's proxy, in the order Toxiproxy chains them
  private static List<String> toxicTypes(Lab lab) throws Exception {
    ProxyToxics toxics = lab.backendForTests().toxics().orElseThrow();
    HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
        toxics.api().resolve(URI.create("/proxies/" + toxics.proxy() + "/toxics"))).build(),
        HttpResponse.BodyHandlers.ofString());
    List<String> types = new ArrayList<>();
    for (JsonNode toxic : new ObjectMapper().readTree(response.body())) {
      types.add(toxic.get("stream").asText() + " " + toxic.get("type").asText());
    }
    return types;
  }
}
