package io.github.latencylab.latency;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The link's windows counted from bytes alone: the toxic's flights, without its clock. */
class LinkWindowsTest {

  @Test
  void aColdTransferTakesAFlightPerDoublingOfTheWindow() {
    LinkWindows w = new LinkWindows(Link.LINUX);
    // 14.5, 29, 58, 116, 232 kB full, the rest in a sixth: 5 flights beyond the first
    assertThat(w.upstream().add(577_000)).isEqualTo(5);
    w.upstream().end();
    assertThat(w.upstream().add(100)).as("a small request fits").isZero();
  }

  @Test
  void itCountsAsTheBytesComeInWritesOrReads() {
    LinkWindows w = new LinkWindows(Link.LINUX);
    long flights = 0;
    for (int i = 0; i < 577; i++) {
      flights += w.downstream().add(1000);
    }
    assertThat(flights).isEqualTo(5);
  }

  // a cold 577 kB grew the window by all it carried, the receiver's by twice that: a warm
  // 577 kB goes at once, as on the kernel's TCP at 80 and 320 ms (cwnd 410 segments)
  @Test
  void aWarmTransferGoesAtOnceInWhatTheLastOneGrew() {
    LinkWindows w = new LinkWindows(Link.LINUX);
    w.upstream().add(577_000);
    w.upstream().end();
    assertThat(w.upstream().add(577_000)).isZero();
  }

  // 100 segments may go, the receiver lets 64,088 B: then it opens by twice its 43 full
  // segments (188,616 B), and the sender's window, never the limit, stays at 144,800 B
  @Test
  void theReceiverHoldsWhatItHasNotOpenedYet() {
    Link wide = Link.LINUX.withInitialWindowSegments(100);
    assertThat(new LinkWindows(wide).upstream().add(64_088 + 144_800)).isEqualTo(1);
    assertThat(new LinkWindows(wide).upstream().add(64_088 + 144_800 + 1)).isEqualTo(2);
  }

  @Test
  void aRestartMakesTheWindowsColdAgainAndTheDirectionsAreApart() {
    LinkWindows w = new LinkWindows(Link.LINUX);
    w.upstream().add(577_000);
    w.upstream().end();
    assertThat(w.downstream().add(57_000)).as("the other direction is still cold").isEqualTo(2);
    w.restart();
    assertThat(w.upstream().add(577_000)).isEqualTo(5);
  }

  @Test
  void atTheCapEachFlightCarriesTheCap() {
    LinkWindows w = new LinkWindows(Link.LINUX);
    // 9 doublings reach 3.7 MB (14,480 x 511 = 7.4 MB in all), then 4 MiB a flight
    long expected = 8 + (60_000_000 - 14_480L * 511 + (4L << 20) - 1) / (4L << 20);
    assertThat(w.upstream().add(60_000_000)).isEqualTo(expected);
    assertThat(expected).isEqualTo(Link.LINUX.flightsFor(60_000_000, 14_480) - 1);
  }
}
