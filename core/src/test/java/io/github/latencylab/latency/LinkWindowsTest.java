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

  // a cold 577 kB grew the window by all it carried, the receiver's by twice that, and the
  // sender's buffer to twice the window of its last full round, 2 x 160 segments: a warm
  // 577 kB takes two flights, as a warm 781 kB reply did on the kernel's TCP at 80 and 320 ms
  // (its buffer 2 x 160-176 segments); with a buffer that never binds, one
  @Test
  void aWarmTransferGoesInWhatTheLastOneGrew() {
    LinkWindows w = new LinkWindows(Link.LINUX);
    w.upstream().add(577_000);
    w.upstream().end();
    assertThat(w.upstream().add(577_000)).isEqualTo(1);
    LinkWindows unbuffered = new LinkWindows(Link.LINUX.withInitialSendBufferBytes(4L << 20));
    unbuffered.upstream().add(577_000);
    unbuffered.upstream().end();
    assertThat(unbuffered.upstream().add(577_000)).isZero();
  }

  // 1,000 rows of 78.7 kB: 10, 20, then the rest of 40 segments cold; the buffer grew to 2 x 20
  // segments on the way, so the same reply again at once takes two flights, as the kernel's did
  @Test
  void aWarmReplyWaitsOnTheBufferItsColdOneGrew() {
    LinkWindows w = new LinkWindows(Link.LINUX);
    assertThat(w.downstream().add(78_672)).isEqualTo(2);
    w.downstream().end();
    assertThat(w.downstream().add(78_672)).isEqualTo(1);
  }

  // 100 segments may go, the receiver lets 64,088 B: then it opens by twice its 43 full
  // segments (188,616 B), and the sender's window, never the limit, stays at 144,800 B
  @Test
  void theReceiverHoldsWhatItHasNotOpenedYet() {
    Link wide = Link.LINUX.withInitialWindowSegments(100).withInitialSendBufferBytes(1 << 20);
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
