package io.github.latencylab.bench.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.latencylab.wire.WireStats;
import org.junit.jupiter.api.Test;

/** A bench run's counts are checked at the relay: pgjdbc's socket and the relay must agree. */
class WireMetricsTest {

  private static final WireStats SOCKET = new WireStats(5, 1002, 46_024, 26_074);

  @Test
  void theSameCountsAtTheSocketAndAtTheRelayPass() {
    assertThat(WireMetrics.agreed(SOCKET, SOCKET)).isEqualTo(SOCKET);
  }

  @Test
  void aClientTheRelayAloneCountedKeepsItsCounts() {
    // Vert.x, R2DBC or another pgjdbc: counted at the relay on the Lab's wire, no check
    assertThat(WireMetrics.agreed(SOCKET, WireStats.ZERO)).isEqualTo(SOCKET);
  }

  @Test
  void oneRoundTripApartFailsTheRun() {
    WireStats relay = new WireStats(6, 1002, 46_024, 26_074);
    assertThatThrownBy(() -> WireMetrics.agreed(SOCKET, relay))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("The counting relay and pgjdbc's socket disagree on this iteration: socket"
            + " 5 round trips, 1002 statements, 46024 B sent, 26074 B received; relay 6 round"
            + " trips, 1002 statements, 46024 B sent, 26074 B received");
  }
}
