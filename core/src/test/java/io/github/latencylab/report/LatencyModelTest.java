package io.github.latencylab.report;

import static io.github.latencylab.report.Cells.measured;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.github.latencylab.gate.Baseline;
import io.github.latencylab.latency.Rtt;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** T(L) = T0 + slope x L, fitted on fixed cells so that each test shows its arithmetic. */
class LatencyModelTest {

  static Cell lazyLoop(String rtt, double addedMs, double timeMs) {
    return measured("NPlusOneBenchmark", "lazyLoop", Map.of("parents", "100"), rtt, addedMs,
        timeMs, 102, 103);
  }

  @Test
  void fromOneCellEachRoundTripCostsTheWholeDifferenceInRtt() {
    LatencyModel model = LatencyModel.fit(List.of(measured("executeBatch", "0.5ms", 0.5, 14, 4,
        1000)));

    assertThat(model.roundTrips()).isEqualTo(4);
    assertThat(model.t0Ms()).isEqualTo(14 - 4 * 0.5);
    assertThat(model.fittedSlope()).isNaN();
    assertThat(model.timeMs(20)).isEqualTo(14 + 4 * 19.5);
    Cell at20 = model.predict(Rtt.parse("20ms"), 20, 0.13);
    assertThat(at20.key()).isEqualTo("InsertBenchmark.executeBatch rows=1000 @ 20ms");
    assertThat(at20.timeMs()).isEqualTo(92);
    assertThat(at20.roundTripsPerOp()).isEqualTo(4);
    assertThat(at20.statementsPerOp()).isEqualTo(1000);
    assertThat(at20.timeErrorMs()).isNaN();
    assertThat(at20.prediction()).isEqualTo("predicted from executeBatch at 0.5ms: 14.000 ms"
        + " + 4 round trips x (20.000 - 0.500) ms");
    // the same rows move per operation: rows/s scale with the time
    Cell at05 = measured("executeBatch", "0.5ms", 0.5, 14, 4, 1000);
    assertThat(at20.rowsPerSecond()).isCloseTo(at05.rowsPerSecond() * 14 / 92, within(1e-9));
  }

  @Test
  void fromSeveralCellsT0IsTheirLeastSquaresValueWithTheRoundTripsAsSlope() {
    // a million rows by COPY: 2 round trips, 2 s of work that moves by 10%
    List<Cell> cells = List.of(measured("copyCsv", "0.5ms", 0.5, 2000, 2, 1),
        measured("copyCsv", "1ms", 1, 2200, 2, 1), measured("copyCsv", "2ms", 2, 1900, 2, 1));

    LatencyModel model = LatencyModel.fit(cells);

    assertThat(model.t0Ms()).isCloseTo((1999 + 2198 + 1896) / 3.0, within(1e-9));
    assertThat(model.timeMs(320)).isCloseTo(2031 + 2 * 320, within(1e-9));
    // the slope the noisy times give is no round trip's cost: -100 ms per ms of RTT
    assertThat(model.fittedSlope()).isCloseTo(-100, within(1e-9));
    assertThat(model.predict(Rtt.parse("320ms"), 320, 0.13).prediction())
        .startsWith("predicted from copyCsv at 0.5ms, 1ms, 2ms: 2031.000 ms (T0, least squares"
            + " over 3 RTTs) + 2 round trips x 320.000 ms");
  }

  @Test
  void theFittedSlopeSaysWhatEachRoundTripCostBeyondTheMeasuredRtt() {
    // 102 round trips that each cost 5% more than the probe's added RTT
    List<Cell> cells = List.of(lazyLoop("0.5ms", 0.5, 10 + 102 * 0.5 * 1.05),
        lazyLoop("20ms", 20, 10 + 102 * 20 * 1.05), lazyLoop("5ms", 5, 10 + 102 * 5 * 1.05));

    LatencyModel model = LatencyModel.fit(cells);

    assertThat(model.fittedSlope()).isCloseTo(102 * 1.05, within(1e-9));
    assertThat(model.measuredAt()).isEqualTo("0.5ms, 5ms, 20ms");
    // the prediction keeps R: on real runs that was the better bet (LatencyModel's comment)
    double t0 = (10 + 102 * 0.05 * 0.5 + 10 + 102 * 0.05 * 20 + 10 + 102 * 0.05 * 5) / 3;
    assertThat(model.t0Ms()).isCloseTo(t0, within(1e-9));
    Cell at320 = model.predict(Rtt.parse("320ms"), 320, 0.13);
    assertThat(at320.timeMs()).isCloseTo(t0 + 102 * 320, within(1e-6));
    assertThat(Baseline.model(at320.prediction()))
        .isEqualTo("predicted from lazyLoop at 0.5ms, 5ms, 20ms");
  }

  @Test
  void itKnowsWhenItExtrapolatesFarBelowItsPoints() {
    // the demo's case: measured at 20 ms only, 2.2 s for 102 round trips
    LatencyModel model = LatencyModel.fit(List.of(lazyLoop("20ms", 20.3, 2200)));

    assertThat(model.timeMs(0.5)).isCloseTo(2200 - 102 * 19.8, within(1e-9)); // 180 ms
    assertThat(model.farBelow(0.5)).isTrue(); // 2,020 ms taken away, 180 ms kept
    assertThat(model.farBelow(10)).isFalse(); // 1,051 ms taken away, 1,149 ms kept
    assertThat(model.farBelow(320)).isFalse();
    assertThat(model.predict(Rtt.parse("0.5ms"), 0.5, 0.13).prediction())
        .endsWith("(far below the measured RTTs: uncertain)");
  }

  @Test
  void eachMeasuredCellIsCheckedAgainstTheModelOfTheCellsBelowIt() {
    Cell at05 = lazyLoop("0.5ms", 0.5, 61);
    Cell at20 = lazyLoop("20ms", 20, 2050);
    Cell at320 = lazyLoop("320ms", 320, 32700);
    Cell predicted = LatencyModel.fit(List.of(at05)).predict(Rtt.parse("40ms"), 40, 0.1);

    Map<String, LatencyModel> models =
        LatencyModel.fromBelow(List.of(at320, predicted, at05, at20));

    assertThat(models).containsOnlyKeys(at20.key(), at320.key());
    assertThat(models.get(at20.key()).rtts()).containsExactly(Rtt.parse("0.5ms"));
    assertThat(models.get(at320.key()).rtts())
        .containsExactly(Rtt.parse("0.5ms"), Rtt.parse("20ms"));
  }

  @Test
  void aBiggerSizeIsScaledFromASmallerOne() {
    Cell small = measured("executeEach", "0.5ms", 0.5, 700, 1000, 1000);

    Cell big = LatencyModel.scale(small, Series.of("InsertBenchmark", "executeEach",
        Map.of("rows", "1000000")));

    assertThat(big.key()).isEqualTo("InsertBenchmark.executeEach rows=1000000 @ 0.5ms");
    assertThat(big.timeMs()).isEqualTo(700_000);
    assertThat(big.roundTripsPerOp()).isEqualTo(1_000_000);
    assertThat(big.rowsPerSecond()).isEqualTo(small.rowsPerSecond());
    assertThat(big.prediction()).isEqualTo("predicted by scaling x1,000 from"
        + " InsertBenchmark.executeEach rows=1000 @ 0.5ms: time, round trips and statements"
        + " grow with the size");
  }

  @Test
  void itFitsOnlyMeasuredCellsOfOneSeries() {
    Cell batch = measured("executeBatch", "0.5ms", 0.5, 14, 4, 1000);
    Cell each = measured("executeEach", "0.5ms", 0.5, 586, 1000, 1000);
    assertThatThrownBy(() -> LatencyModel.fit(List.of()))
        .hasMessage("No measured cell to fit the model on");
    assertThatThrownBy(() -> LatencyModel.fit(List.of(batch, each)))
        .hasMessageStartingWith("Cannot fit the model of InsertBenchmark.executeBatch"
            + " rows=1000 on InsertBenchmark.executeEach rows=1000 @ 0.5ms");
    Cell predicted = LatencyModel.fit(List.of(batch)).predict(Rtt.parse("20ms"), 20, 0.1);
    assertThatThrownBy(() -> LatencyModel.fit(List.of(batch, predicted)))
        .hasMessageContaining("only measured cells of that series");
  }
}
