package io.github.latencylab.junit;

import static io.github.latencylab.junit.LabExtensionTest.select;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.github.latencylab.env.BackendKind;
import io.github.latencylab.env.Lab;
import io.github.latencylab.env.LabConfig;
import io.github.latencylab.latency.Rtt;
import io.github.latencylab.report.LatencyModel;
import io.github.latencylab.report.Series;
import io.github.latencylab.wire.Overhead;
import io.github.latencylab.wire.WireCounter;
import java.sql.Connection;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.function.ThrowingSupplier;
import org.opentest4j.AssertionFailedError;

/**
 * {@link ExpectWireCost}'s price is what the code waited on the database (its round trips at the
 * RTT asked, plus its reads' wait on the server), never its own CPU time: the same four round
 * trips cost the same with or without 500 ms of CPU around them. Every check here is structural
 * (a count, or intervals of one thread that cannot overlap), never a bound on a wall time.
 */
class PriceIsTheWireNotTheCpuTest {

  @RegisterExtension
  static final LabExtension LAB =
      LabExtension.withConfig(LabConfig.fromEnvironment().withBackend(BackendKind.EMBEDDED));

  static final Rtt PRICED_AT = Rtt.parse("20ms");
  static final Series SERIES = Series.of("PriceIsTheWireNotTheCpuTest", "block", Map.of());

  @Test
  void theRoundTripsArePricedAtExactlyTheRttAskedPlusTheServersWait(Lab lab,
      Connection connection) throws Throwable {
    BlockCost cost = run(lab, () -> select(connection, 4));

    LatencyModel model = cost.model(SERIES);
    assertThat(cost.counted().roundTrips()).isEqualTo(4);
    assertThat(cost.counted().windowRoundTrips()).isZero();
    assertThat(cost.waitedMs).as("blocked in 4 reads").isGreaterThan(0)
        .isLessThan(cost.timeMs);
    assertThat(model.t0Ms()).as("at 0 ms, all the wait is the server's")
        .isEqualTo(cost.waitedMs);
    assertThat(model.timeMs(PRICED_AT.millis()) - model.t0Ms())
        .as("the round trips' part").isCloseTo(4 * 20.0, within(1e-9));
  }

  @Test
  void fiveHundredMillisecondsOfCpuAreNotPriced(Lab lab, Connection connection)
      throws Throwable {
    long[] burnt = new long[1];
    BlockCost cost = run(lab, () -> {
      select(connection, 2);
      burnt[0] = burnCpu(500);
      return select(connection, 2);
    });
    BlockCost without = run(lab, () -> select(connection, 4));

    double burntMs = burnt[0] / 1e6;
    assertThat(cost.counted().roundTrips()).isEqualTo(without.counted().roundTrips())
        .isEqualTo(4);
    // the burn and the reads are intervals of one thread: they cannot overlap
    assertThat(cost.waitedMs + burntMs).isLessThanOrEqualTo(cost.timeMs);
    assertThat(cost.ownMs()).as("the CPU is the code's own time").isGreaterThanOrEqualTo(burntMs);
    LatencyModel model = cost.model(SERIES);
    assertThat(model.timeMs(PRICED_AT.millis())).as("priced: round trips and the wait only")
        .isEqualTo(4 * 20.0 + cost.waitedMs)
        .isLessThanOrEqualTo(4 * 20.0 + cost.timeMs - burntMs);
    LatencyModel plain = without.model(SERIES);
    assertThat(model.timeMs(PRICED_AT.millis()) - model.t0Ms()).as("the same round trips' part")
        .isCloseTo(plain.timeMs(PRICED_AT.millis()) - plain.t0Ms(), within(1e-9));
  }

  @Test
  void measuredAtAnAddedRttTheWaitLosesThatRttOncePerRoundTrip(Lab lab, Connection connection)
      throws Throwable {
    Rtt at = Rtt.parse("5ms");
    lab.rtt(at);
    BlockCost cost;
    try {
      cost = run(lab, () -> select(connection, 4));
    } finally {
      lab.rtt(Rtt.ZERO);
    }

    LatencyModel model = cost.model(SERIES);
    assertThat(cost.measuredAt).isEqualTo(at);
    assertThat(cost.waitedMs).as("each of the 4 replies came at least ~5 ms later")
        .isGreaterThan(4 * 4.0);
    assertThat(model.t0Ms()).as("the server's part: the wait less 4 x 5 ms")
        .isCloseTo(Math.max(cost.waitedMs, 4 * 5.0) - 4 * 5.0, within(1e-9))
        .isGreaterThanOrEqualTo(0);
    assertThat(model.timeMs(PRICED_AT.millis()) - model.t0Ms())
        .as("the round trips' part").isCloseTo(4 * 20.0, within(1e-9));
  }

  @Test
  void theFailureShowsEachPartOfThePrice(Lab lab, Connection connection) {
    AssertionFailedError failure = null;
    try {
      RoundTrips.on(lab).costAtMost(PRICED_AT, 0, () -> select(connection, 4));
    } catch (AssertionFailedError e) {
      failure = e;
    }
    assertThat(failure).isNotNull();
    assertThat(failure.getMessage())
        .startsWith("expected a wire cost of at most 0 µs at 20ms, but it is ")
        .containsPattern("but it is [\\d.,]+ m?s = 4 round trips x 20ms \\+ [\\d.,]+ [µm]?s"
            + " waiting on the server \\(measured at 0ms\\); the code's own time [\\d.,]+ [µm]?s"
            + " not priced\n")
        .containsPattern("\n  4 round trips, 4 SQL statements, .* sent, .* received, [\\d.,]+"
            + " [µm]?s waited on the database of [\\d.,]+ [µm]?s measured at 0ms\n");
    assertThat((Double) failure.getActual().getValue()).isGreaterThan(80);
  }

  @Test
  void connectionSetUpsWaitIsNotPricedUnlessAsked(Lab lab) throws Throwable {
    WireCounter wire = lab.wire();
    long connectWaitBefore = wire.waitNanos(Overhead.CONNECT);
    BlockCost cost = run(lab, () -> {
      try (Connection c = lab.dataSource().getConnection()) {
        return select(c, 1);
      }
    });
    long connectWait = wire.waitNanos(Overhead.CONNECT) - connectWaitBefore;

    assertThat(cost.overhead.get(Overhead.CONNECT).roundTrips()).isPositive();
    assertThat(connectWait).as("the set-up's reads waited").isPositive();
    assertThat(cost.counted().roundTrips()).isEqualTo(1);
    assertThat(cost.waitedMs).as("the select's wait only").isPositive()
        .isLessThanOrEqualTo(cost.timeMs - connectWait / 1e6);
  }

  @Test
  void waitsAddUpOverConnectionsAndThreadsAsRoundTripsDo(Lab lab) throws Throwable {
    WireCounter wire = lab.wire();
    ExecutorService threads = Executors.newFixedThreadPool(2);
    try (Connection a = lab.dataSource().getConnection();
        Connection b = lab.dataSource().getConnection()) {
      long aBefore = lab.wire(a).waitNanos();
      long bBefore = lab.wire(b).waitNanos();
      long allBefore = wire.waitNanos();
      Future<Integer> onA = threads.submit(() -> select(a, 3));
      Future<Integer> onB = threads.submit(() -> select(b, 3));
      onA.get();
      onB.get();
      long onEach = (lab.wire(a).waitNanos() - aBefore) + (lab.wire(b).waitNanos() - bBefore);
      assertThat(onEach).isPositive();
      assertThat(wire.waitNanos() - allBefore).as("the Lab's wait: the sum").isEqualTo(onEach);
    } finally {
      threads.shutdownNow();
    }
  }

  private static BlockCost run(Lab lab, ThrowingSupplier<?> code) throws Throwable {
    return BlockCost.run(lab.wire(), lab.rtt(), false, null, true, code).cost();
  }

  /** Spins for at least {@code ms} milliseconds of this thread; returns the nanoseconds spun. */
  private static long burnCpu(long ms) {
    long start = System.nanoTime();
    long x = 0;
    while (System.nanoTime() - start < ms * 1_000_000) {
      x += x * 31 + 7;
    }
    if (x == 42) { // keeps the loop from being optimised away
      System.out.print("");
    }
    return System.nanoTime() - start;
  }
}
