package io.github.latencylab.latency;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.github.latencylab.env.BackendKind;
import io.github.latencylab.env.Lab;
import io.github.latencylab.env.LabConfig;
import java.sql.Connection;
import java.sql.Statement;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The added RTT is real: a loose bound here (25%: the machine is shared); precise figures come
 * from {@code ./latency-lab calibrate}.
 */
class LatencyFidelityTest {

  private static Lab lab;

  @BeforeAll
  static void startLab() {
    lab = Lab.start(LabConfig.fromEnvironment().withBackend(BackendKind.EMBEDDED));
  }

  @AfterAll
  static void stopLab() {
    lab.close();
  }

  @ParameterizedTest
  @ValueSource(strings = {"0.5ms", "5ms", "20ms"})
  void probeMeasuresTheConfiguredRtt(String text) {
    Rtt rtt = Rtt.parse(text);
    RttMeasurement m = lab.measure(rtt, LatencyControl.samplesFor(rtt));
    assertThat(m.addedMeanMs()).as("added mean for %s (plan %s)", rtt, m.plan())
        .isCloseTo(rtt.millis(), within(rtt.millis() * 0.25));
    assertThat(m.baseline().meanMs()).as("baseline RTT through the proxy").isLessThan(5);
  }

  // whole milliseconds: every statement pays the same delay, so 20 statements are enough
  @ParameterizedTest
  @ValueSource(strings = {"5ms", "20ms"})
  void aStatementOnAnOpenConnectionPaysTheRtt(String text) throws Exception {
    Rtt rtt = Rtt.parse(text);
    try (Connection c = lab.dataSource().getConnection(); Statement st = c.createStatement()) {
      lab.rtt(Rtt.ZERO);
      long without = timeOf(st, 20);
      lab.rtt(rtt);
      long with = timeOf(st, 20);
      double addedMs = (with - without) / 20 / 1e6;
      assertThat(addedMs).as("added per statement at %s", rtt)
          .isCloseTo(rtt.millis(), within(rtt.millis() * 0.25));
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
