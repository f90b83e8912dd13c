package io.github.latencylab.latency;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.github.latencylab.env.BackendKind;
import io.github.latencylab.env.Lab;
import io.github.latencylab.env.TestBackends;
import java.sql.Connection;
import java.sql.Statement;
import java.util.List;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The added RTT is real, per round trip: loose bounds here (the machine is shared with other
 * builds); the accuracy itself is {@code ./latency-lab calibrate}'s to show.
 */
@Tag("alone") // asserts on times: runs alone, after the other tests (pom.xml)
class LatencyFidelityTest {

  private static final TestBackends.Labs LABS = new TestBackends.Labs();

  @AfterAll
  static void stopLabs() {
    LABS.close();
  }

  static Stream<Arguments> probeCases() {
    return cases(List.of("0.5ms", "5ms", "20ms"), "20ms");
  }

  // below a millisecond, where whole-millisecond toxics give a round trip 0 or 1 ms (at 1 ms
  // they give each its delay too: no case there tells them apart)
  static Stream<Arguments> perRoundTripCases() {
    return cases(List.of("0.25ms", "0.5ms"), "0.25ms");
  }

  static Stream<Arguments> statementCases() {
    return cases(List.of("5ms", "20ms"), "20ms");
  }

  // Every RTT on the first backend under test (embedded unless LATENCYLAB_TEST_BACKENDS says
  // otherwise). Elsewhere the same toxics, calibration and probe sit behind Docker's port
  // mapping: one RTT per claim shows they hold there (each RTT costs a 2-5 s calibration),
  // 0.25 ms as the tightest and 20 ms as verify's testcontainers RTT.
  private static Stream<Arguments> cases(List<String> every, String one) {
    List<BackendKind> backends = TestBackends.available();
    return backends.stream().flatMap(b ->
        (b == backends.get(0) ? every.stream() : Stream.of(one)).map(r -> Arguments.of(b, r)));
  }

  @ParameterizedTest
  @MethodSource("probeCases")
  void probeMeasuresTheConfiguredRtt(BackendKind backend, String text) {
    Lab lab = LABS.get(backend);
    Rtt rtt = Rtt.parse(text);
    // the mean is what load spikes move most (one 20 ms stall in 1,000 pairs is +0.02 ms): a
    // bound that catches a Lab that adds nothing or a millisecond too much, not noise
    double bound = Math.max(rtt.millis() * 0.25, 0.5);
    RttMeasurement m = measure(lab, rtt,
        r -> Math.abs(r.addedMeanMs() - rtt.millis()) <= bound);
    assertThat(m.addedMeanMs()).as("added mean for %s (%s)", rtt, m.plan())
        .isCloseTo(rtt.millis(), within(bound));
    assertThat(m.baseline().meanMs()).as("baseline RTT through the proxy").isLessThan(5);
    assertThat(m.added().p1Ms()).as("paired percentiles are ordered")
        .isLessThanOrEqualTo(m.addedP50Ms());
    assertThat(m.addedP50Ms()).isLessThanOrEqualTo(m.addedP99Ms());
    assertThat(m.addedSamplesMs()).hasSize(m.added().samples());
  }

  // The latency_us toxics give every round trip its delay: the median round trip gets the
  // setting, not 0 or a whole millisecond (which is what whole-millisecond toxics give below
  // 1 ms), and most round trips are near it.
  @ParameterizedTest
  @MethodSource("perRoundTripCases")
  void everyRoundTripGetsItsDelayNotJustTheAverage(BackendKind backend, String text) {
    Lab lab = LABS.get(backend);
    assertThat(lab.perRoundTripLatency()).as(lab.describe()).isTrue();
    assertThat(lab.describe()).contains("latency_us toxics");
    Rtt rtt = Rtt.parse(text);
    // a spike spoils the spread as readily as the median: either is a reason to measure again
    RttMeasurement m = measure(lab, rtt, r -> Math.abs(r.addedP50Ms() - rtt.millis()) <= 0.15
        && near(r, rtt) > r.addedSamplesMs().size() / 2);
    assertThat(m.plan()).isInstanceOf(MicrosecondToxics.class);
    assertThat(m.addedP50Ms()).as("added p50 at %s (%s)", rtt, m.plan())
        .isCloseTo(rtt.millis(), within(0.15));
    assertThat(near(m, rtt)).as("round trips within 0.25 ms of %s, of %d", rtt,
        m.addedSamplesMs().size()).isGreaterThan(m.addedSamplesMs().size() / 2);
  }

  private static long near(RttMeasurement m, Rtt rtt) {
    return m.addedSamplesMs().stream().filter(v -> Math.abs(v - rtt.millis()) <= 0.25).count();
  }

  // A physical measurement on a shared machine: a load spike can spoil one series, or the
  // calibration the toxics were sized on (CI once saw a 1 ms p50 of 1.24 ms three times over
  // on a calibration that had found 1.0, and a 0.25 ms spread of 480 near in 1,000 three times
  // over in one busy evening), so up to five tries: the second on the same calibration (a
  // spike in the series: 1.5 s, where a calibration takes 5-12 s on a busy machine), the
  // others each on a new one; a Lab that is really off fails all five.
  private static RttMeasurement measure(Lab lab, Rtt rtt, Predicate<RttMeasurement> good) {
    RttMeasurement m = null;
    for (int attempt = 0; attempt < 5; attempt++) {
      if (attempt > 1) {
        lab.recalibrate(rtt);
      }
      m = lab.measure(rtt);
      if (good.test(m)) {
        break;
      }
    }
    return m;
  }

  @Test
  void aSettingIsCalibratedOnceUntilAskedAgain() {
    Lab lab = LABS.get(TestBackends.available().get(0));
    Rtt rtt = Rtt.parse("5ms"); // the other tests' too: calibrated once for all of them
    try {
      RttMeasurement first = lab.rtt(rtt);
      assertThat(lab.rtt(rtt)).as("set again: the first calibration").isSameAs(first);
      RttMeasurement again = lab.recalibrate(rtt);
      assertThat(again).isNotNull().isNotSameAs(first);
      assertThat(lab.rtt(rtt)).as("set after: the new calibration").isSameAs(again);
      assertThat(lab.rtt()).isEqualTo(rtt);
    } finally {
      lab.rtt(Rtt.ZERO);
    }
  }

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
