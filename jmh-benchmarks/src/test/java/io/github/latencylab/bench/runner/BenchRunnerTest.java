package io.github.latencylab.bench.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.github.latencylab.bench.runner.BenchCommand.Planned;
import io.github.latencylab.bench.support.MeasuredRtt;
import io.github.latencylab.latency.Rtt;
import io.github.latencylab.report.Cell;
import io.github.latencylab.report.Series;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The runner's planning and prediction, on fixed inputs. */
class BenchRunnerTest {

  private static final Profile.Budget QUICK = Profile.QUICK.cellBudget;

  private static MeasuredRtt measured(String rtt, double addedMs) {
    return new MeasuredRtt(Rtt.parse(rtt), addedMs, 0.2);
  }

  private static Series series(String strategy, String rows) {
    return Series.of("InsertBenchmark", strategy, Map.of("rows", rows));
  }

  private static Planned planned(String strategy, String rows) {
    return new Planned("x.InsertBenchmark." + strategy, series(strategy, rows),
        Profile.QUICK.iterations, Rtt.SWEEP);
  }

  private static Cell cell(String strategy, String rows, String rtt, double addedMs,
      double timeMs, double roundTrips) {
    return new Cell(series(strategy, rows), Rtt.parse(rtt), addedMs, 0.2, timeMs, 0.1,
        roundTrips, roundTrips, 1000, Map.of(), null, 0, null);
  }

  @Test
  void verifyMeasuresUpTo20msAndPredictsAbove() {
    Cell at05 = cell("copyCsv", "1000", "0.5ms", 0.5, 9, 2);
    Cell at20 = cell("copyCsv", "1000", "20ms", 19.8, 47, 2);
    // two round trips at 320 ms fit the budget, but verify does not measure there
    Cell predicted = BenchCommand.predict(planned("copyCsv", "1000"), measured("320ms", 319.9),
        List.of(at05, at20), Profile.VERIFY.cellBudget);
    assertThat(predicted).isNotNull();
    assertThat(predicted.predicted()).isTrue();
    assertThat(predicted.roundTripsPerOp()).isEqualTo(2);
    assertThat(BenchCommand.predict(planned("copyCsv", "1000"), measured("320ms", 319.9),
        List.of(at05, at20), QUICK)).isNull();
    assertThat(BenchCommand.predict(planned("copyCsv", "1000"), measured("20ms", 19.8),
        List.of(at05), Profile.VERIFY.cellBudget)).isNull();
  }

  @Test
  void anOperationThatMayFillTheWarmUpAloneGetsASecondWarmUpIteration() {
    // the full profile's: one 2 s warm-up; the model says 667 ms an operation at 320 ms
    Iterations full = new Iterations(1, 1, Duration.ofSeconds(2), 6,
        Duration.ofMillis(500));
    Planned copy = new Planned("x.InsertBenchmark.copyBinary", series("copyBinary", "10000"),
        full, Rtt.SWEEP);
    Cell at320 = cell("copyBinary", "10000", "320ms", 319.9, 667, 2);
    assertThat(copy.warmedFor(at320).iterations().warmups()).isEqualTo(2);
    assertThat(copy.warmedFor(cell("copyBinary", "10000", "0.5ms", 0.5, 25, 2)).iterations())
        .as("a 25 ms operation: 80 of them warm up").isEqualTo(full);
    assertThat(copy.warmedFor(null).iterations()).as("nothing known yet").isEqualTo(full);
    assertThat(copy.warmedFor(at320).iterations().estimatedCellMs(667))
        .as("the budget counts the second warm-up").isEqualTo(2 * 2000 + 6 * 667);
  }

  @Test
  void timeIsReportedApartFromHalfACoreOfOtherLoad() {
    assertThat(BenchCommand.shared(0.1, 2)).isNull();
    assertThat(BenchCommand.shared(1.73, 2))
        .isEqualTo("other processes kept 1.7 of 2 CPUs busy during the run");
  }

  @Test
  void verifyMeasuresAt20msOnlyEachSuitesWitnesses() {
    Cell copy = cell("copyCsv", "1000", "0.5ms", 0.5, 9, 2);
    Cell batch = cell("executeBatch", "1000", "0.5ms", 0.5, 30, 8);
    assertThat(BenchCommand.predict(planned("copyCsv", "1000"), measured("20ms", 19.8),
        List.of(copy), Profile.VERIFY.cellBudget)).isNull();
    Cell predicted = BenchCommand.predict(planned("executeBatch", "1000"),
        measured("20ms", 19.8), List.of(batch), Profile.VERIFY.cellBudget);
    assertThat(predicted.predicted()).isTrue();
    assertThat(predicted.timeMs()).isCloseTo(30 + 8 * (19.8 - 0.5), within(1e-9));
    // the first RTT a series runs at is measured, witness or not (the testcontainers pass)
    assertThat(BenchCommand.predict(planned("executeBatch", "1000"), measured("20ms", 19.8),
        List.of(), Profile.VERIFY.cellBudget)).isNull();
  }

  @Test
  void aSuitesClientsAreJmhThreads() {
    assertThat(BenchCommand.threads(Series.of("TpcbBenchmark", "functionCall",
        Map.of("clients", "4", "scale", "1")))).isEqualTo(4);
    assertThat(BenchCommand.threads(Series.of("InsertBenchmark", "executeBatch",
        Map.of("rows", "1000")))).isEqualTo(1);
  }

  @Test
  void aCellThatWouldTakeTooLongIsPredictedByTheModel() {
    Cell at05 = cell("executeEach", "1000", "0.5ms", 0.5, 700, 1000);
    Cell predicted = BenchCommand.predict(planned("executeEach", "1000"), measured("20ms", 19.8),
        List.of(at05), QUICK);
    assertThat(predicted).isNotNull();
    assertThat(predicted.predicted()).isTrue();
    // T(L) = T(L0) + round trips x (L - L0), with the measured added RTTs
    assertThat(predicted.timeMs()).isCloseTo(700 + 1000 * (19.8 - 0.5), within(1e-9));
    assertThat(predicted.roundTripsPerOp()).isEqualTo(1000);
    assertThat(predicted.prediction()).startsWith("predicted from executeEach at 0.5ms: ");
  }

  @Test
  void aPredictionUsesEveryMeasuredRttOfItsSeries() {
    // T0 from both: (300 + 40 x 0.5 + 300 + 40 x 20) / 2 = 710 ms
    List<Cell> done = List.of(cell("executeEach", "1000", "0.5ms", 0.5, 300 + 1040 * 0.5, 1000),
        cell("executeEach", "1000", "20ms", 20, 300 + 1040 * 20, 1000),
        cell("copyCsv", "1000", "1ms", 1, 10, 2));
    Cell predicted = BenchCommand.predict(planned("executeEach", "1000"),
        measured("320ms", 320), done, QUICK);
    assertThat(predicted.timeMs()).isCloseTo(710 + 1000 * 320, within(1e-6));
    assertThat(predicted.prediction()).startsWith("predicted from executeEach at 0.5ms, 20ms: ");
  }

  @Test
  void aCellThatFitsTheBudgetIsMeasured() {
    Cell at05 = cell("copyCsv", "1000", "0.5ms", 0.5, 10, 2);
    assertThat(BenchCommand.predict(planned("copyCsv", "1000"), measured("320ms", 320),
        List.of(at05), QUICK)).isNull();
  }

  @Test
  void aLargerSizeAtTheFirstRttIsScaledFromTheLargestSmallerOne() {
    List<Cell> done = List.of(cell("executeEach", "100", "0.5ms", 0.5, 70, 100),
        cell("executeEach", "1000", "0.5ms", 0.5, 700, 1000));
    Cell predicted = BenchCommand.predict(planned("executeEach", "1000000"),
        measured("0.5ms", 0.5), done, QUICK);
    assertThat(predicted.predicted()).isTrue();
    assertThat(predicted.timeMs()).isCloseTo(700_000, within(1e-6));
    assertThat(predicted.prediction()).contains("scaling x1,000 from"
        + " InsertBenchmark.executeEach rows=1000 @ 0.5ms");
  }

  @Test
  void estimatesAtLeastOneOperationPerIteration() {
    // quick: 1 warmup + 2 measurement iterations of 0.5 s
    assertThat(Profile.QUICK.iterations.estimatedCellMs(1)).isEqualTo(1500);
    assertThat(Profile.QUICK.iterations.estimatedCellMs(2000)).isEqualTo(6000);
  }

  @Test
  void profilesAreNamedInTheError() {
    assertThat(BenchCommand.profile("FULL")).isEqualTo(Profile.FULL);
    assertThatThrownBy(() -> BenchCommand.profile("huge"))
        .hasMessage("Invalid --profile 'huge': expected quick, full or verify");
  }

  @Test
  void aBenchmarkTheProfileLeavesOutIsNamedSo() {
    BenchCommand bench = new BenchCommand();
    new CommandLine(bench).parseArgs("--profile", "verify", "--include",
        "ReadBenchmark.hibernateScroll$");
    assertThatThrownBy(bench::call).hasMessage("No benchmark matches --include"
        + " 'ReadBenchmark.hibernateScroll$' in the verify profile, which leaves out"
        + " \\.ReadBenchmark\\.hibernateScroll$ (the other profiles run it)");
    new CommandLine(bench).parseArgs("--profile", "verify", "--include", "NoSuchBenchmark");
    assertThatThrownBy(bench::call)
        .hasMessage("No benchmark matches --include 'NoSuchBenchmark'");
  }

  @Test
  void planCoversEveryDeclaredStrategyWithTheProfilesSizes() {
    List<Planned> plan = BenchCommand.plan("InsertBenchmark.copy",
        Map.of("rows", List.of("100", "1000")), Profile.QUICK.iterations);
    assertThat(plan).extracting(Planned::toString).containsExactlyInAnyOrder(
        "InsertBenchmark.copyBinary rows=100", "InsertBenchmark.copyBinary rows=1000",
        "InsertBenchmark.copyCsv rows=100", "InsertBenchmark.copyCsv rows=1000");
    assertThat(plan).allSatisfy(p -> assertThat(p.iterations()).isSameAs(
        Profile.QUICK.iterations));
  }

  @Test
  void aSizeKeyedBySuiteIsThatSuitesBeforeTheOneForAll() {
    Map<String, List<String>> sizes = Map.of("rows", List.of("100"),
        "ReadBenchmark.rows", List.of("1000"));
    assertThat(BenchCommand.plan("(InsertBenchmark.copyCsv|ReadBenchmark.defaultFetch)$", sizes,
        Map.of("width", List.of("narrow"), "window", List.of("cold")), null))
        .extracting(Planned::toString).containsExactlyInAnyOrder(
            "InsertBenchmark.copyCsv rows=100",
            "ReadBenchmark.defaultFetch rows=1000 width=narrow window=cold");
  }

  @Test
  void verifyReadsThroughHibernateOnceAndTheOtherProfilesBothWays() {
    for (Profile p : Profile.values()) {
      List<String> hibernateReads = BenchCommand.plan("ReadBenchmark.hibernate", p.excluded,
          p.sizes, Map.of(), p.iterations).stream()
          .map(planned -> planned.series().strategy()).distinct().toList();
      assertThat(hibernateReads).as(p.name()).containsExactlyInAnyOrderElementsOf(
          p == Profile.VERIFY ? List.of("hibernateStream")
              : List.of("hibernateStream", "hibernateScroll"));
    }
  }

  @Test
  void theFullProfileRunsTheSuitesAsTheyAreDeclared() {
    List<Planned> plan = BenchCommand.plan(".*", Profile.FULL.sizes, Profile.FULL.iterations);

    // every suite declares the whole sweep, and the full profile's iterations
    assertThat(BenchCommand.declaredRtts(plan)).isEqualTo(Rtt.SWEEP);
    assertThat(plan).allSatisfy(p -> {
      assertThat(p.rtts()).as(p.toString()).isEqualTo(Rtt.SWEEP);
      assertThat(p.iterations()).as(p.toString()).isEqualTo(new Iterations(1, 1,
          Duration.ofSeconds(2), 6, Duration.ofMillis(500)));
    });
    assertThat(plan).extracting(Planned::toString)
        .contains("InsertBenchmark.copyCsv rows=1000000", "NPlusOneBenchmark.lazyLoop parents=1000",
            "RoundTripBenchmark.selectOne");
    // the quick and verify profiles narrow it: sizes the suites declare
    List<Planned> declared = BenchCommand.plan(".*", Map.of(), null);
    for (Profile p : List.of(Profile.QUICK, Profile.VERIFY)) {
      p.sizes.forEach((key, values) -> {
        String name = key.substring(key.indexOf('.') + 1);
        String suite = key.contains(".") ? key.substring(0, key.indexOf('.')) : null;
        assertThat(declared).as(key).anySatisfy(d -> {
          assertThat(d.series().params()).containsKey(name);
          assertThat(suite == null || d.series().suite().equals(suite)).isTrue();
        });
      });
      assertThat(Rtt.SWEEP).containsAll(p.rtts);
    }
  }
}
