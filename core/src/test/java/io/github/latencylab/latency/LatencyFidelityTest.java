package io.github.latencylab.latency;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.github.latencylab.env.BackendKind;
import io.github.latencylab.env.Lab;
import io.github.latencylab.env.TestBackends;
import java.sql.Connection;
import java.sql.Statement;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.params.ParameterizedTest;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The added RTT is real: a loose bound here (25%: the machine is shared); precise figures come
 * from {@code ./latency-lab calibrate}.
 */
class LatencyFidelityTest {

  private static final TestBackends.Labs LABS = new TestBackends.Labs();

  @AfterAll
  static void stopLabs() {
    LABS.close();
  }

  static Stream<Arguments> probeCases() {
    return TestBackends.available().stream().flatMap(b ->
        Stream.of("0.5ms", "5ms", "20ms").map(r -> Arguments.of(b, r)));
  }

  static Stream<Arguments> statementCases() {
    return TestBackends.available().stream().flatMap(b ->
        Stream.of("5ms", "20ms").map(r -> Arguments.of(b, r)));
  }

  @ParameterizedTest
  @MethodSource("probeCases")
  void probeMeasuresTheConfiguredRtt(BackendKind backend, String text) {
    Lab lab = LABS.get(backend);
    Rtt rtt = Rtt.parse(text);
    // a physical measurement on a shared machine: a load spike can spoil one series, so up
    // to three tries; a Lab that is really off fails all three
    RttMeasurement m = null;
    for (int attempt = 0; attempt < 3; attempt++) {
      m = lab.measure(rtt);
      if (Math.abs(m.addedMeanMs() - rtt.millis()) <= rtt.millis() * 0.25) {
        break;
      }
    }
    assertThat(m.addedMeanMs()).as("added mean for %s (plan %s)", rtt, m.plan())
        .isCloseTo(rtt.millis(), within(rtt.millis() * 0.25));
    assertThat(m.baseline().meanMs()).as("baseline RTT through the proxy").isLessThan(5);
  }

  // whole milliseconds: every statement pays the same delay, so 20 statements are enough;
  // the connection is open before the RTT is set: toxics apply to open connections too
  @ParameterizedTest
  @MethodSource("statementCases")
  void aStatementOnAnOpenConnectionPaysTheRtt(BackendKind backend, String text)
      throws Exception {
    Lab lab = LABS.get(backend);
    Rtt rtt = Rtt.parse(text);
    try (Connection c = lab.dataSource().getConnection(); Statement st = c.createStatement()) {
      lab.rtt(Rtt.ZERO);
      long without = timeOf(st, 20);
      lab.rtt(rtt);
      long with = timeOf(st, 20);
      double addedMs = (with - without) / 20 / 1e6;
      // a lower bound only: a busy machine adds time, it cannot take the toxics' away;
      // the upper bound is the paired probe's job above
      assertThat(addedMs).as("added per statement at %s", rtt)
          .isGreaterThanOrEqualTo(rtt.millis() * 0.75);
    } finally {
      lab.rtt(Rtt.ZERO);
    }
  }

  private static long timeOf(Statement st, int statements) throws Exception {
    long start = System.nanoTime();
    for (int i = 0; i < statements; i++) {
      st.execute("SELECT 1");
    }
    return System.nanoTime() - start;
  }
}
