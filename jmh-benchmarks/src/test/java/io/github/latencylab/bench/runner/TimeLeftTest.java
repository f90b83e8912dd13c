package io.github.latencylab.bench.runner;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.latencylab.bench.runner.BenchCommand.Planned;
import io.github.latencylab.latency.Rtt;
import io.github.latencylab.report.Series;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The progress line's time left and the quick profile's plan: estimates from the plan and
 * given elapsed times only, nothing timed here.
 */
class TimeLeftTest {

  private static final List<Rtt> SWEEP = Rtt.parseList("0.5ms,20ms,320ms");
  /** 1 fork, 1 + 2 iterations of 0.5 s: 2 s + 1.5 s a measured cell. */
  private static final Iterations ITERATIONS =
      new Iterations(1, 1, Duration.ofMillis(500), 2, Duration.ofMillis(500));
  /** copyCsv measured at every RTT, executeEach at the first only. */
  private static final Profile.Budget BUDGET = new Profile.Budget(Duration.ofSeconds(8), null,
      List.of("\\.InsertBenchmark\\.copyCsv$"));

  private static Planned planned(String strategy) {
    return new Planned("x.InsertBenchmark." + strategy,
        Series.of("InsertBenchmark", strategy, Map.of("rows", "1000")), ITERATIONS, SWEEP);
  }

  private static final List<Planned> PLAN = List.of(planned("copyCsv"), planned("executeEach"));

  private static List<Planned> plan(Profile p) {
    return BenchCommand.plan(".*", p.excluded, p.sizes, Map.of(), p.iterations);
  }

  @Test
  void thePlanCostsWhatShardWeighs() {
    TimeLeft left = new TimeLeft(PLAN, SWEEP, BUDGET);
    // copyCsv at three RTTs, executeEach at 0.5 ms: 4 x 3.5 s
    assertThat(left.plannedCells()).isEqualTo(4);
    assertThat(left.plannedMs()).isEqualTo(14_000)
        .isEqualTo(PLAN.stream().mapToLong(p -> Shard.costMs(p, SWEEP, BUDGET)).sum());
    assertThat(left.leftMs(0)).as("before anything ran: the plan's estimate").isEqualTo(14_000);
  }

  @Test
  void whatIsLeftIsScaledByHowLongTheMeasuredCellsTook() {
    TimeLeft left = new TimeLeft(PLAN, SWEEP, BUDGET);
    left.step(true); // copyCsv @ 0.5ms
    left.step(true); // executeEach @ 0.5ms
    // 7 s of estimates took 14 s: the 7 s left (copyCsv at 20 and 320 ms) will take 14 s
    assertThat(left.leftMs(14_000)).isEqualTo(14_000);
    assertThat(left.describe(14_000)).isEqualTo(" (~14 s left)");
    left.step(true); // copyCsv @ 20ms
    left.step(false); // executeEach @ 20ms: predicted, as planned
    assertThat(left.leftMs(21_000)).isEqualTo(7_000);
  }

  @Test
  void aWitnessPredictedAfterAllLeavesTheScaleAlone() {
    TimeLeft left = new TimeLeft(PLAN, SWEEP, BUDGET);
    left.step(true);
    left.step(true);
    left.step(false); // copyCsv @ 20ms over the budget: no fork, nothing learnt from it
    assertThat(left.leftMs(14_000)).isEqualTo(7_000);
    left.step(false);
    left.step(false);
    left.step(false);
    assertThat(left.leftMs(14_000)).isZero();
  }

  @Test
  void minutesFromNinetySeconds() {
    TimeLeft left = new TimeLeft(PLAN, SWEEP, BUDGET);
    left.step(true);
    // 3.5 s of estimates took 30 s: the 10.5 s left will take 90 s
    assertThat(left.describe(30_000)).isEqualTo(" (~2 min left)");
    assertThat(TimeLeft.minutes(250_000)).isEqualTo("~4.2 min");
  }

  @Test
  void theQuickProfileTellsEveryStoryAtEveryRttInMinutes() {
    Profile quick = Profile.QUICK;
    List<Planned> plan = plan(quick);
    TimeLeft left = new TimeLeft(plan, quick.rtts, quick.cellBudget);
    assertThat(plan.size() * quick.rtts.size()).isEqualTo(138);
    assertThat(left.plannedCells()).isEqualTo(70);
    // the verify profile's ~2.2 min estimate ran in ~4 min here: under ten, with room
    assertThat(left.plannedMs()).isLessThan(Duration.ofMinutes(5).toMillis());
    assertThat(quick.rtts).isEqualTo(SWEEP);
    Set<String> suites = new TreeSet<>();
    Set<String> witnessed = new TreeSet<>();
    for (Planned p : plan) {
      suites.add(p.series().suite());
      assertThat(p.series().size()).as(p.toString()).isIn(OptionalDouble.empty(),
          OptionalDouble.of(p.series().suite().startsWith("NPlusOne") ? 100 : 1000));
      if (quick.cellBudget.measuresAgain(p)) {
        witnessed.add(p.series().suite());
      }
    }
    assertThat(suites).containsExactlyInAnyOrder("RoundTripBenchmark", "InsertBenchmark",
        "HibernateInsertBenchmark", "NPlusOneBenchmark", "ReadBenchmark", "TpcbBenchmark",
        "PipelineBenchmark");
    assertThat(witnessed).as("a witness of every suite measured at 20 and 320 ms")
        .isEqualTo(suites);
    // a pipelining client's round trips depend on the RTT: Vert.x is measured at each
    assertThat(plan).filteredOn(p -> p.series().key().contains("client=vertx256"))
        .hasSize(3).allMatch(quick.cellBudget::measuresAgain);
    assertThat(plan).filteredOn(p -> p.series().key().contains("client=r2dbcBatch"))
        .noneMatch(quick.cellBudget::measuresAgain);
    // --budget: a run measures every cell that fits it
    assertThat(plan).allMatch(quick.cellBudget.withLimit(Duration.ofSeconds(15))::measuresAgain);
  }
}
