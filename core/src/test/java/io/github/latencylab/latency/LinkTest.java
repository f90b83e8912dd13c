package io.github.latencylab.latency;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class LinkTest {

  @Test
  void aTransferTakesOneFlightPerDoublingOfTheWindowThenOnePerFullWindow() {
    Link linux = Link.LINUX;
    long iw = linux.initialWindowBytes();
    assertThat(iw).isEqualTo(14_480);
    assertThat(linux.flightsFor(100, iw)).isEqualTo(1);
    assertThat(linux.flightsFor(iw, iw)).isEqualTo(1);
    assertThat(linux.flightsFor(iw + 1, iw)).isEqualTo(2);
    // the cells: 57 kB in 3 flights, 577 kB in 6 (14.5, 43, 101, 217, 449, 912 kB)
    assertThat(linux.flightsFor(57_000, iw)).isEqualTo(3);
    assertThat(linux.flightsFor(577_000, iw)).isEqualTo(6);
    // at the cap (4 MiB) one flight per 4 MiB: 60 MB is 9 flights of slow start (to 3.7 MB),
    // then the rest 4 MiB a flight
    long capped = linux.flightsFor(60_000_000, iw);
    assertThat(capped).isEqualTo(9 + (60_000_000 - sumOfDoublings(iw, 9, 4L << 20)
        + (4L << 20) - 1) / (4L << 20));
    assertThat(Link.DELAY_ONLY.flightsFor(60_000_000, iw)).isEqualTo(1);
  }

  private static long sumOfDoublings(long window, int flights, long cap) {
    long sum = 0;
    for (int i = 0; i < flights; i++) {
      sum += window;
      window = Math.min(2 * window, cap);
    }
    return sum;
  }

  @Test
  void aWarmWindowTakesFewerFlights() {
    assertThat(Link.LINUX.flightsFor(577_000, 500_000)).isEqualTo(2);
    assertThat(Link.LINUX.flightsFor(577_000, 1 << 20)).isEqualTo(1);
  }

  @Test
  void theToxicsGoOneEachWayWithTheParametersTheServerTakes() {
    List<ToxicPlan.Toxic> toxics = Link.LINUX.toxics(Rtt.parse("20ms"));
    assertThat(toxics).extracting(ToxicPlan.Toxic::stream)
        .containsExactly("upstream", "downstream");
    assertThat(toxics.get(0).type()).isEqualTo("tcp_window");
    assertThat(toxics.get(0).attributes()).containsEntry("rtt", 20_000L)
        .containsEntry("initial_window", 14_480L).containsEntry("max_window", 4L << 20)
        .containsEntry("rto_min", 200_000L).containsEntry("slow_start_after_idle", 1L)
        .containsEntry("initial_receive_window", 64_088L)
        .containsEntry("initial_send_buffer", 28_960L).containsEntry("bbr", 0L);
    assertThat(Link.LINUX_BBR.toxics(Rtt.parse("20ms")).get(1).attributes())
        .containsEntry("slow_start_after_idle", 0L).containsEntry("bbr", 1L);
    assertThat(Link.DELAY_ONLY.toxics(Rtt.parse("20ms"))).isEmpty();
    assertThat(Link.LINUX.toxics(Rtt.ZERO)).as("no RTT, no path").isEmpty();
  }

  @Test
  void presetsByNameAndWhatResultsSay() {
    assertThat(Link.preset(" Linux-BBR ")).isEqualTo(Link.LINUX_BBR);
    assertThat(Link.preset("netem")).isNull();
    assertThat(Link.LINUX.describe()).isEqualTo("linux: 10 x 1448 B initial window, slow start,"
        + " a send buffer from 28960 B, 4 MiB in flight at most, shrinks after an idle over its"
        + " timeout (RTT + 200 ms or more)");
    assertThat(Link.LINUX_BBR.withMaxWindowBytes(512 * 1024).describe()).isEqualTo("linux-bbr:"
        + " 10 x 1448 B initial window, slow start, a send buffer from 43440 B, 512 KiB in"
        + " flight at most, kept across idles, paced as BBR's startup (2.89x its best delivery"
        + " rate)");
    assertThat(Link.DELAY_ONLY.describe()).startsWith("delay-only: a bare delay");
  }

  @Test
  void nonsenseIsRefusedWithWhatWasWrong() {
    assertThatThrownBy(() -> Link.LINUX.withMss(0))
        .hasMessageContaining("10 segments of 0 B");
    assertThatThrownBy(() -> Link.LINUX.withMaxWindowBytes(0)).hasMessageContaining("cap 0 B");
  }
}
