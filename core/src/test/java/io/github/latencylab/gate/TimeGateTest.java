package io.github.latencylab.gate;

import static io.github.latencylab.report.Cells.measured;
import static io.github.latencylab.report.Cells.results;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.github.latencylab.gate.Baseline.Tolerances;
import io.github.latencylab.gate.BaselineComparison.Finding;
import io.github.latencylab.report.Cell;
import io.github.latencylab.report.Results;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The time gate sized by each cell's noise, on a baseline of four repeats: executeBatch at
 * 0.5 ms (4 round trips: 2 ms of its time on the wire) and at 20 ms (80 ms on the wire), and a
 * quiet executeEach at 0.5 ms; each measured four times.
 */
class TimeGateTest {

  static final String BATCH_05 = "InsertBenchmark.executeBatch rows=1000 @ 0.5ms";
  static final String BATCH_20 = "InsertBenchmark.executeBatch rows=1000 @ 20ms";
  static final String EACH_05 = "InsertBenchmark.executeEach rows=1000 @ 0.5ms";

  static Results repeat(double batch05, double batch20, double each05) {
    return results(List.of(
        measured("executeBatch", "0.5ms", 0.5, batch05, 4, 1000),
        measured("executeBatch", "20ms", 20, batch20, 4, 1000),
        measured("executeEach", "0.5ms", 0.5, each05, 1000, 1000)));
  }

  static final List<Results> REPEATS = List.of(repeat(14, 94, 586), repeat(16, 95, 590),
      repeat(12, 93, 588), repeat(15, 94, 584));

  static final Baseline BASELINE = Baseline.from(REPEATS, Tolerances.DEFAULTS);

  static Results run(double batch05, double added20, double batch20) {
    return results(List.of(
        measured("executeBatch", "0.5ms", 0.5, batch05, 4, 1000),
        measured("executeBatch", "20ms", added20, batch20, 4, 1000),
        measured("executeEach", "0.5ms", 0.5, 587, 1000, 1000)));
  }

  static List<String> lines(BaselineComparison c) {
    return c.findings().stream().map(Finding::toString).toList();
  }

  @Test
  void theNormalTailIsExactEnoughForAFalseAlarmRate() {
    assertThat(NormalTail.probability(1.959963985)).isCloseTo(0.025, within(1e-9));
    assertThat(NormalTail.quantile(0.001)).isCloseTo(3.090232, within(1e-6));
    assertThat(NormalTail.quantile(0.01 / 49)).isCloseTo(3.534749, within(1e-6));
  }

  @Test
  void theBaselineOfRepeatsKeepsEachCellsMedianAndItsNoiseOffTheWire() {
    TimeNoise batch = BASELINE.noise().get(BATCH_05);
    // off the wire: 14, 16, 12, 15 less 4 x 0.5 ms; the spread of ln(that + 2 ms)
    double[] logs = {Math.log(14), Math.log(16), Math.log(12), Math.log(15)};
    double mean = (logs[0] + logs[1] + logs[2] + logs[3]) / 4;
    double ss = 0;
    for (double x : logs) {
      ss += (x - mean) * (x - mean);
    }
    assertThat(batch.repeats()).isEqualTo(4);
    assertThat(batch.offWireMs()).isCloseTo(Math.exp(mean) - 2, within(1e-9));
    assertThat(batch.logSd()).isCloseTo(Math.sqrt(ss / 3), within(1e-9));
    assertThat(BASELINE.byKey().get(BATCH_05).timeMs()).isEqualTo(14.5); // the median
    assertThat(BASELINE.noise()).containsOnlyKeys(BATCH_05, BATCH_20, EACH_05);
  }

  @Test
  void unchangedCodePassesAndTheSummarySaysTheRule() {
    BaselineComparison c = BaselineComparison.compare(BASELINE, run(15.5, 20, 95.5));

    assertThat(c.passed()).isTrue();
    assertThat(c.summary()).isEqualTo("Baseline check passed: 3 cells compared (round trips"
        + " and statements per operation exact within 0.01; time off the wire within 2.7 sd of"
        + " each cell's noise (a 1% false-alarm rate over 3 cells), elsewhere within 3x the"
        + " baseline and 2x the model, + 2 ms)");
  }

  @Test
  void theRoundTripsPartIsNeverJudgedAsNoise() {
    // the path added 21 ms this time: 4 ms more on the wire, none more off it
    assertThat(BaselineComparison.compare(BASELINE, run(14, 21, 98)).passed()).isTrue();
  }

  @Test
  void aSlowerServerAtTwentyMillisecondsFailsThoughTheTotalMovedByAQuarter() {
    // off the wire 14 -> 38 ms; the total 94 -> 118 ms, within the old 3x
    BaselineComparison c = BaselineComparison.compare(BASELINE, run(14, 20, 118));

    assertThat(c.passed()).isFalse();
    assertThat(c.failedOnTimeOnly()).containsExactly(BATCH_20);
    assertThat(lines(c)).containsExactly("FAIL " + BATCH_20 + ": time/op 94.00 ms -> 118 ms"
        + " (off the wire 13.98 ms -> 38.00 ms, +16.1 sd of its noise; the limit is 2.7 sd ="
        + " 96.66 ms for a 1% false-alarm rate over 3 cells; noise: sd 0.051 of ln(ms + 2 ms)"
        + " over 4 repeats)");
  }

  @Test
  void aNoisyCellIsAllowedItsNoiseAndAQuietOneItsSuitesMedian() {
    TimeGate gate = BASELINE.timeGate(false);
    // executeBatch at 0.5 ms is the noisiest; executeEach is quieter than its suite's median
    assertThat(gate.logSd(BATCH_05)).isEqualTo(BASELINE.noise().get(BATCH_05).logSd());
    assertThat(BASELINE.noise().get(EACH_05).logSd()).isLessThan(TimeGate.MIN_LOG_SD);
    assertThat(gate.logSd(EACH_05)).isEqualTo(Math.max(TimeGate.MIN_LOG_SD,
        BASELINE.noise().get(BATCH_20).logSd()));
    // 14.5 ms at 0.5 ms with a 12-16 ms spread (sd 0.124): 20 ms is within its noise, 22 ms
    // is not; executeBatch at 20 ms (sd 0.051) may not move so far off the wire
    assertThat(BaselineComparison.compare(BASELINE, run(20, 20, 94)).passed()).isTrue();
    assertThat(BaselineComparison.compare(BASELINE, run(22, 20, 94)).failedOnTimeOnly())
        .containsExactly(BATCH_05);
  }

  @Test
  void aCellWithoutNoiseIsJudgedByTheRatio() {
    Baseline one = Baseline.from(REPEATS.get(0));
    assertThat(one.noise()).isEmpty();
    // off the wire 14 -> 38 ms is within 3x 94 ms + 2 ms
    assertThat(BaselineComparison.compare(one, run(14, 20, 118)).passed()).isTrue();
    assertThat(lines(BaselineComparison.compare(one, run(14, 20, 300)))).containsExactly(
        "FAIL " + BATCH_20 + ": time/op 94.00 ms -> 300 ms (more than 3x the baseline + 2 ms"
            + " = 284 ms)", "FAIL " + BATCH_20 + ": time/op model 92.00 ms -> measured 300 ms"
            + " (more than 2x the model + 2 ms = 186 ms: T(L) from 0.5ms = 14.000 ms + 4 round"
            + " trips x (20.000 - 0.500) ms; time the round trips do not explain)");
  }

  @Test
  void theNoiseIsWrittenAndReadBack(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("baseline.json");
    Baseline.update(REPEATS, file);

    Baseline back = Baseline.read(file);
    assertThat(back.noise()).containsOnlyKeys(BATCH_05, BATCH_20, EACH_05);
    assertThat(back.noise().get(BATCH_05).logSd())
        .isCloseTo(BASELINE.noise().get(BATCH_05).logSd(), within(1e-4));
    assertThat(back.tolerances().falseAlarmRate()).isEqualTo(0.01);
    assertThat(Files.readString(file)).contains("\"falseAlarmRate\" : 0.01",
        "\"repeats\" : 4,");
    // a run of part of the cells is judged as strictly: the rate is shared by all three
    assertThat(back.only(java.util.Set.of(BATCH_20)).timeGate(false).cells()).isEqualTo(3);
  }

  @Test
  void aBadFalseAlarmRateIsRefusedByName(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("baseline.json");
    Baseline.update(REPEATS, file);
    Files.writeString(file, Files.readString(file).replace("\"falseAlarmRate\" : 0.01",
        "\"falseAlarmRate\" : 5"));

    assertThatThrownBy(() -> Baseline.read(file)).hasMessage("Cannot read the baseline " + file
        + ": Invalid baseline tolerance falseAlarmRate = 5.0: must be more than 0 and at most"
        + " 0.5 (e.g. 0.01: 1% of runs of unchanged code)");
  }

  @Test
  void aNoiseThatIsNotOneIsRefusedNamingTheCell(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("baseline.json");
    Baseline.update(REPEATS, file);
    Files.writeString(file, Files.readString(file).replaceFirst("\"repeats\" : 4",
        "\"repeats\" : 1"));

    assertThatThrownBy(() -> Baseline.read(file)).hasMessageStartingWith("Cannot read the"
        + " baseline " + file + ": cell '" + BATCH_05 + "': Invalid time noise: repeats 1");
  }

  /** Twelve cells of 10 to 21 ms at 0.5 ms (1 round trip), each time {@code factor[i]} x. */
  static Results twelve(double... factors) {
    List<Cell> cells = new java.util.ArrayList<>();
    for (int i = 0; i < 12; i++) {
      cells.add(measured("InsertBenchmark", "s" + i, java.util.Map.of(), "0.5ms", 0.5,
          (10 + i) * factors[factors.length == 1 ? 0 : i], 1, 1));
    }
    return results(cells);
  }

  static double[] all(double f, int except, double g) {
    double[] fs = new double[12];
    java.util.Arrays.fill(fs, f);
    fs[except] = g;
    return fs;
  }

  static final Baseline TWELVE = Baseline.from(List.of(twelve(1), twelve(1.05), twelve(0.95),
      twelve(1.02)), Tolerances.DEFAULTS);

  @Test
  void aBusierMachineSlowsEveryCellAlikeAndFailsNone() {
    BaselineComparison c = BaselineComparison.compare(TWELVE, twelve(1.3));

    assertThat(c.passed()).isTrue();
    assertThat(c.summary()).contains("time off the wire within 3.1 sd of each cell's noise (a 1%"
        + " false-alarm rate over 12 cells) above the run's drift 1.27x");
  }

  @Test
  void oneCellSlowerThanTheRestFailsAtTheRunsDrift() {
    BaselineComparison c = BaselineComparison.compare(TWELVE, twelve(all(1.3, 4, 1.3 * 1.4)));

    assertThat(c.failedOnTimeOnly()).containsExactly("InsertBenchmark.s4 @ 0.5ms");
    assertThat(lines(c)).containsExactly("FAIL InsertBenchmark.s4 @ 0.5ms: time/op 14.14 ms ->"
        + " 25.48 ms (off the wire 13.56 ms -> 24.98 ms, +5.6 sd of its noise; the limit is 3.1 sd"
        + " = 22.06 ms at the run's drift 1.27x for a 1% false-alarm rate over 12 cells; noise: sd"
        + " 0.050 of ln(ms + 2 ms) over 4 repeats)");
  }

  @Test
  void onAFasterMachineACellThatSpedUpLessThanTheRestIsNoRegression() {
    // everything 40% faster, one cell only 10% (verify's selectOne @ 0.5ms on a machine 0.62x
    // the baseline's: 460 -> 260 us off the wire, +3.9 sd against the drift)
    BaselineComparison c = BaselineComparison.compare(TWELVE, twelve(all(0.6, 4, 0.9)));

    assertThat(c.passed()).isTrue();
    assertThat(lines(c)).noneMatch(l -> l.startsWith("FAIL"));
  }

  @Test
  void onAFasterMachineACellSlowerThanItsBaselineStillFails() {
    BaselineComparison c = BaselineComparison.compare(TWELVE, twelve(all(0.6, 4, 1.4)));

    assertThat(c.failedOnTimeOnly()).containsExactly("InsertBenchmark.s4 @ 0.5ms");
  }

  @Test
  void aRunSlowerThanTheRatioEverywhereFailsAsAWhole() {
    BaselineComparison c = BaselineComparison.compare(TWELVE, twelve(4));

    assertThat(lines(c)).contains("FAIL the run: time off the wire 3.72x the baseline's at the"
        + " median of 12 cells (more than 3x: every cell slower alike, a far slower machine or a"
        + " change to everything)");
    assertThat(c.failedOnTimeOnly()).isEmpty(); // measuring a cell again would not answer it
  }

  @Test
  void fewerCellsThanADriftNeedsAreJudgedAsTheyAre() {
    assertThat(BASELINE.timeGate(false).drift(run(40, 20, 200).cells())).isZero();
  }

  static Results on(String backend, Results r) {
    return on(backend, "Linux 6.1 amd64", r);
  }

  static Results on(String backend, String os, Results r) {
    return new Results(r.kind(), r.createdAt(), r.profile(), new io.github.latencylab.env
        .LabEnvironment(backend, backend + " PostgreSQL 17.6", "17.6", java.util.Map.of(),
        "42.7.10", "2.12.0", java.util.Map.of(), null, "17.0.15", "OpenJDK 64-Bit Server VM",
        os, 2, 1024, "ci"), r.cells());
  }

  @Test
  void noiseMeasuredOnOneMachineSizesNoGateOnAnother() {
    Baseline embedded = Baseline.from(REPEATS.stream().map(r -> on("embedded", r)).toList(),
        Tolerances.DEFAULTS);

    // off the wire 14 -> 38 ms at 20 ms: beyond its noise here, within 3x over there
    assertThat(BaselineComparison.compare(embedded, on("embedded", run(14, 20, 118))).passed())
        .isFalse();
    BaselineComparison there = BaselineComparison.compare(embedded,
        on("testcontainers", run(14, 20, 118)));
    assertThat(there.passed()).isTrue();
    assertThat(lines(there)).containsExactly("INFO time: the baseline's noise was measured on"
        + " embedded backend, PostgreSQL 17.6, Java 17.0.15, Linux 6.1 amd64, 2 CPUs, this run on"
        + " testcontainers backend, PostgreSQL 17.6, Java 17.0.15, Linux 6.1 amd64, 2 CPUs: the"
        + " backend (embedded backend, testcontainers backend) differs, so times are judged by the"
        + " ratio rule only (results from machines of different kinds are never compared as if"
        + " alike)");
  }

  @Test
  void anotherVmOfTheSameKindIsJudgedByTheNoise() {
    Baseline here = Baseline.from(REPEATS.stream()
        .map(r -> on("embedded", "Linux 6.18.44-fc-v657 amd64", r)).toList(), Tolerances.DEFAULTS);
    // its kernel's build tag differs, nothing that changes time does: the noise rule judges
    BaselineComparison sameKind = BaselineComparison.compare(here,
        on("embedded", "Linux 6.18.44-fc-v782 amd64", run(14, 20, 118)));
    assertThat(sameKind.passed()).isFalse();
    assertThat(lines(sameKind)).noneMatch(l -> l.contains("ratio rule only"));
    BaselineComparison arm = BaselineComparison.compare(here,
        on("embedded", "Linux 6.18.44-fc-v657 aarch64", run(14, 20, 118)));
    assertThat(arm.passed()).isTrue();
    assertThat(lines(arm)).anyMatch(l -> l.contains(": the OS or architecture (Linux 6.18.44-fc"
        + "-v657 amd64, Linux 6.18.44-fc-v657 aarch64) differs, so times are judged by the ratio"
        + " rule only"));
  }

  @Test
  void aGateThatMeasuresFailuresAgainHoldsEachToTheSameLimit() {
    // a second measurement in the same Lab is no independent test: the limit stays 2.7 sd
    BaselineComparison once = BaselineComparison.compare(BASELINE, run(22, 20, 94));
    BaselineComparison twice = BaselineComparison.compare(BASELINE, run(22, 20, 94), true);

    assertThat(twice.findings()).isEqualTo(once.findings());
    assertThat(twice.summary()).contains("time off the wire within 2.7 sd of each cell's noise"
        + " (a 1% false-alarm rate over 3 cells, each failure measured again)");
  }
}
