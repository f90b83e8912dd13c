package io.github.latencylab.bench.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.github.latencylab.latency.Rtt;
import io.github.latencylab.latency.RttMeasurement;
import io.github.latencylab.latency.ToxicPlan;
import io.github.latencylab.report.Measurement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The runner's planning and prediction, on fixed inputs. */
class BenchRunnerTest {

  private static final BenchCommand.Budget QUICK =
      new BenchCommand.Budget(Profile.QUICK, Duration.ofSeconds(15));

  private static RttMeasurement measured(String rtt, double addedMs) {
    double[] base = {0.2, 0.2, 0.2, 0.2};
    double[] with = {0.2 + addedMs, 0.2 + addedMs, 0.2 + addedMs, 0.2 + addedMs};
    return RttMeasurement.paired(Rtt.parse(rtt), ToxicPlan.NONE, base, with);
  }

  private static Measurement cell(String strategy, String rows, String rtt, double addedMs,
      double timeMs, double roundTrips) {
    return new Measurement("InsertBenchmark", strategy, Map.of("rows", rows), rtt,
        Rtt.parse(rtt).millis(), addedMs, 0.2, timeMs, 0.1, roundTrips, roundTrips, 1000, false,
        "measured");
  }

  @Test
  void aCellThatWouldTakeTooLongIsPredictedByTheModel() {
    Measurement at05 = cell("executeEach", "1000", "0.5ms", 0.5, 700, 1000);
    BenchCommand.Cell next = new BenchCommand.Cell("x.InsertBenchmark", "executeEach",
        Map.of("rows", "1000"));
    Measurement predicted = BenchCommand.predict(next, measured("20ms", 19.8), List.of(at05),
        QUICK);
    assertThat(predicted).isNotNull();
    assertThat(predicted.predicted()).isTrue();
    // T(L) = T(L0) + round trips x (L - L0), with the measured added RTTs
    assertThat(predicted.timeMs()).isCloseTo(700 + 1000 * (19.8 - 0.5), within(1e-9));
    assertThat(predicted.roundTripsPerOp()).isEqualTo(1000);
    assertThat(predicted.note()).startsWith("predicted from executeEach at 0.5ms");
  }

  @Test
  void aCellThatFitsTheBudgetIsMeasured() {
    Measurement at05 = cell("copyCsv", "1000", "0.5ms", 0.5, 10, 2);
    BenchCommand.Cell next = new BenchCommand.Cell("x.InsertBenchmark", "copyCsv",
        Map.of("rows", "1000"));
    assertThat(BenchCommand.predict(next, measured("320ms", 320), List.of(at05), QUICK))
        .isNull();
  }

  @Test
  void aLargerSizeAtTheFirstRttIsScaledFromTheLargestSmallerOne() {
    Measurement small = cell("executeEach", "1000", "0.5ms", 0.5, 700, 1000);
    BenchCommand.Cell big = new BenchCommand.Cell("x.InsertBenchmark", "executeEach",
        Map.of("rows", "1000000"));
    Measurement predicted = BenchCommand.predict(big, measured("0.5ms", 0.5), List.of(small),
        QUICK);
    assertThat(predicted.predicted()).isTrue();
    assertThat(predicted.timeMs()).isCloseTo(700_000, within(1e-6));
    assertThat(predicted.note()).contains("scaled x1000");
  }

  @Test
  void estimatesAtLeastOneOperationPerIteration() {
    // quick: 1 warmup + 2 measurement iterations of 0.5 s
    assertThat(Profile.QUICK.estimatedCellMs(1)).isEqualTo(1500);
    assertThat(Profile.QUICK.estimatedCellMs(2000)).isEqualTo(6000);
  }

  @Test
  void profilesAreNamedInTheError() {
    assertThat(BenchCommand.profile("FULL")).isEqualTo(Profile.FULL);
    assertThatThrownBy(() -> BenchCommand.profile("huge"))
        .hasMessage("Invalid --profile 'huge': expected quick, full or verify");
  }

  @Test
  void planCoversEveryDeclaredStrategyWithTheProfilesSizes() {
    List<BenchCommand.Cell> cells = BenchCommand.plan("InsertBenchmark.copy",
        Map.of("rows", new String[] {"100", "1000"}));
    assertThat(cells).extracting(BenchCommand.Cell::toString).containsExactlyInAnyOrder(
        "InsertBenchmark.copyBinary rows=100", "InsertBenchmark.copyBinary rows=1000",
        "InsertBenchmark.copyCsv rows=100", "InsertBenchmark.copyCsv rows=1000");
  }
}
