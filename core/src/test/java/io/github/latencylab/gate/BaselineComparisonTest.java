package io.github.latencylab.gate;

import static io.github.latencylab.report.Cells.measured;
import static io.github.latencylab.report.Cells.results;
import static io.github.latencylab.report.Cells.run;
import static io.github.latencylab.report.Cells.runWith;
import static io.github.latencylab.report.Cells.withCounts;
import static io.github.latencylab.report.Cells.withPrediction;
import static io.github.latencylab.report.Cells.withTime;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.latencylab.gate.Baseline.Tolerances;
import io.github.latencylab.gate.BaselineComparison.Finding;
import io.github.latencylab.report.Cell;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The comparison rules, on {@link Cells#run()}: executeBatch measured at 0.5 ms (14 ms) and
 * 20 ms (94 ms; the model says 14 + 4 x 19.5 = 92 ms), 4 round trips and 1,000 statements;
 * executeEach measured at 0.5 ms and predicted at 20 ms. Default tolerances: 3x the
 * baseline, 2x the model, + 2 ms, counts within 0.01.
 */
class BaselineComparisonTest {

  static final String BATCH_20 = "InsertBenchmark.executeBatch rows=1000 @ 20ms";
  static final String BATCH_05 = "InsertBenchmark.executeBatch rows=1000 @ 0.5ms";
  static final String EACH_20 = "InsertBenchmark.executeEach rows=1000 @ 20ms";

  static final Baseline BASELINE = Baseline.from(results(run()));

  static List<String> lines(BaselineComparison c) {
    return c.findings().stream().map(Finding::toString).toList();
  }

  @Test
  void theSameRunPassesWithNothingToSay() {
    BaselineComparison c = BaselineComparison.compare(BASELINE, results(run()));

    assertThat(c.passed()).isTrue();
    assertThat(c.findings()).isEmpty();
    assertThat(c.compared()).isEqualTo(4); // 3 measured, 1 predicted by the same model
    assertThat(c.report()).isEqualTo("Baseline check passed: 4 cells compared (round trips"
        + " and statements per operation exact within 0.01; time within 3x the baseline and"
        + " 2x the model, + 2 ms)\n");
  }

  @Test
  void aChangeInRoundTripsFailsWithTheExactMessage() {
    BaselineComparison c = BaselineComparison.compare(BASELINE,
        runWith(BATCH_20, m -> withCounts(m, 1000, 1000)));

    assertThat(c.passed()).isFalse();
    assertThat(lines(c)).containsExactly("FAIL InsertBenchmark.executeBatch rows=1000 @ 20ms:"
        + " round trips/op 4 -> 1,000 (+996: +996 ms/op at 1ms, +4.98 s/op at 5ms, +19.92 s/op"
        + " at 20ms, +79.68 s/op at 80ms, +5.3 min/op at 320ms; +5.5 h per 1,000 ops at 20ms;"
        + " must match exactly: round trips are deterministic)");
    assertThat(c.report()).startsWith("Baseline check FAILED: 1 failure, 4 cells compared");
  }

  @Test
  void aChangeInStatementsFails() {
    BaselineComparison c = BaselineComparison.compare(BASELINE,
        runWith(BATCH_05, m -> withCounts(m, 4, 1001)));

    assertThat(lines(c)).containsExactly("FAIL " + BATCH_05 + ": statements/op 1,000 -> 1,001"
        + " (must match exactly: statements are deterministic)");
  }

  @Test
  void countsMayDifferByTheEpsilonOnly() {
    assertThat(BaselineComparison.compare(BASELINE,
        runWith(BATCH_20, m -> withCounts(m, 4.009, 999.991))).passed()).isTrue();

    BaselineComparison c = BaselineComparison.compare(BASELINE,
        runWith(BATCH_20, m -> withCounts(m, 4.02, 1000)));
    assertThat(lines(c)).containsExactly("FAIL " + BATCH_20 + ": round trips/op 4 -> 4.02"
        + " (+0.02: +20 µs/op at 1ms, +100 µs/op at 5ms, +400 µs/op at 20ms, +1.60 ms/op at"
        + " 80ms, +6.40 ms/op at 320ms; +400 ms per 1,000 ops at 20ms; must match exactly:"
        + " round trips are deterministic)");
  }

  @Test
  void aCountMissingFromTheRunFails() {
    BaselineComparison c = BaselineComparison.compare(BASELINE,
        runWith(BATCH_20, m -> withCounts(m, Double.NaN, 1000)));

    assertThat(lines(c)).containsExactly("FAIL " + BATCH_20 + ": round trips/op 4 -> unknown"
        + " (must match exactly: round trips are deterministic)");
  }

  @Test
  void timeWithinTheToleranceOfTheBaselinePasses() {
    // 0.5 ms cell: 14 ms in the baseline, so up to 3 x 14 + 2 = 44 ms
    BaselineComparison c = BaselineComparison.compare(BASELINE,
        runWith(BATCH_05, m -> withTime(m, 43.9)));

    assertThat(c.passed()).isTrue();
    assertThat(c.findings()).isEmpty();
  }

  @Test
  void timeBeyondTheToleranceOfTheBaselineFails() {
    BaselineComparison c = BaselineComparison.compare(BASELINE,
        runWith(BATCH_05, m -> withTime(m, 44.5)));

    assertThat(lines(c)).containsExactly("FAIL " + BATCH_05 + ": time/op 14.00 ms -> 44.50 ms"
        + " (more than 3x the baseline + 2 ms = 44.00 ms)");
  }

  @Test
  void onASharedMachineTimeIsReportedApartAndCountsStillFail() {
    String why = "other processes kept 1.7 of 2 CPUs busy during the run";
    BaselineComparison slower = BaselineComparison.compare(BASELINE,
        runWith(BATCH_05, m -> withTime(m, 44.5))).withTimeApart(why);

    assertThat(slower.passed()).isTrue();
    assertThat(lines(slower)).containsExactly("INFO " + BATCH_05 + ": time reported, not"
        + " judged (" + why + "): time/op 14.00 ms -> 44.50 ms (more than 3x the baseline + 2 ms"
        + " = 44.00 ms)");
    assertThat(slower.summary()).endsWith("; time reported, not judged: " + why + ")");

    BaselineComparison moreTrips = BaselineComparison.compare(BASELINE,
        runWith(BATCH_05, m -> withTime(withCounts(m, 4, 1001), 44.5))).withTimeApart(why);
    assertThat(moreTrips.passed()).isFalse();
    assertThat(moreTrips.failures()).singleElement().asString()
        .startsWith("FAIL " + BATCH_05 + ": statements/op 1,000 -> 1,001");
  }

  @Test
  void theFloorKeepsSubMillisecondCellsFromFailingOnNoise() {
    Cell fast = measured("RoundTripBenchmark", "selectOne", Map.of(), "0.5ms", 0.5,
        0.3, 1, 1);
    Baseline baseline = Baseline.from(results(List.of(fast)));

    assertThat(BaselineComparison.compare(baseline,
        results(List.of(withTime(fast, 2.85)))).passed()).isTrue(); // 3 x 0.3 + 2 = 2.9
    assertThat(BaselineComparison.compare(baseline,
        results(List.of(withTime(fast, 2.95)))).passed()).isFalse();
  }

  @Test
  void beingMuchFasterIsReportedNotFailed() {
    BaselineComparison c = BaselineComparison.compare(BASELINE,
        runWith(BATCH_20, m -> withTime(m, 20)));

    assertThat(c.passed()).isTrue();
    assertThat(lines(c)).containsExactly("INFO " + BATCH_20 + ": time/op 94.00 ms -> 20.00 ms"
        + " (faster than the baseline by more than its tolerance: if that is the change's"
        + " purpose, update the baseline)");
  }

  @Test
  void timeTheRoundTripsDoNotExplainFailsTheModelCheck() {
    // model at 20 ms: 14 + 4 x (20 - 0.5) = 92 ms, so up to 2 x 92 + 2 = 186 ms;
    // 200 ms is within 3x the baseline's 94 ms, the model catches it
    BaselineComparison c = BaselineComparison.compare(BASELINE,
        runWith(BATCH_20, m -> withTime(m, 200)));

    assertThat(lines(c)).containsExactly("FAIL " + BATCH_20 + ": time/op model 92.00 ms ->"
        + " measured 200 ms (more than 2x the model + 2 ms = 186 ms: T(L) from 0.5ms ="
        + " 14.000 ms + 4 round trips x (20.000 - 0.500) ms; time the round trips do not"
        + " explain)");
    assertThat(c.failedOnTimeOnly()).containsExactly(BATCH_20);
    assertThat(lines(c.withInfo(BATCH_20, "measured again"))).containsExactly(lines(c).get(0),
        "INFO " + BATCH_20 + ": measured again");
    assertThat(BaselineComparison.compare(BASELINE, runWith(BATCH_20, m -> withTime(m, 185)))
        .passed()).isTrue();
  }

  @Test
  void theModelCheckNeedsNoBaselineAndSkipsPredictedCells() {
    List<Finding> ok = BaselineComparison.modelCheck(results(run()), Tolerances.DEFAULTS);
    assertThat(ok).isEmpty();

    List<Cell> cells = new ArrayList<>(run());
    // a predicted cell far from anything is not the model check's business
    cells.set(3, withTime(cells.get(3), 1e9));
    cells.set(1, withTime(cells.get(1), 500));
    List<Finding> found = BaselineComparison.modelCheck(results(cells), Tolerances.DEFAULTS);
    assertThat(found).extracting(Finding::subject).containsExactly(BATCH_20);
  }

  @Test
  void aMissingMeasuredCellFailsWhenItsSuiteRanAtItsRtt() {
    BaselineComparison c = BaselineComparison.compare(BASELINE, runWith(BATCH_20, m -> null));

    assertThat(lines(c)).containsExactly("FAIL " + BATCH_20 + ": missing (measured in the"
        + " baseline; this run ran InsertBenchmark at 20ms but not this cell)");
  }

  @Test
  void cellsOfASuiteOrRttNotRunAreInformational() {
    List<Cell> baselineCells = new ArrayList<>(run());
    baselineCells.add(measured("HibernateInsertBenchmark", "hibernatePersist",
        Map.of("rows", "100"), "0.5ms", 0.5, 100, 101, 102));
    baselineCells.add(measured("HibernateInsertBenchmark", "hibernatePersist",
        Map.of("rows", "1000"), "0.5ms", 0.5, 759, 1001, 1002));
    baselineCells.add(measured("executeBatch", "320ms", 320, 1300, 4, 1000));
    Baseline baseline = Baseline.from(results(baselineCells));

    BaselineComparison c = BaselineComparison.compare(baseline, results(run()));

    assertThat(c.passed()).isTrue();
    assertThat(lines(c)).containsExactly(
        "INFO HibernateInsertBenchmark: not run (2 baseline cells not compared)",
        "INFO InsertBenchmark @ 320ms: not run at this RTT (1 baseline cell not compared)");
  }

  @Test
  void aNewCellIsInformational() {
    List<Cell> cells = new ArrayList<>(run());
    cells.add(measured("copyCsv", "0.5ms", 0.5, 10.5, 2, 1));

    BaselineComparison c = BaselineComparison.compare(BASELINE, results(cells));

    assertThat(c.passed()).isTrue();
    assertThat(lines(c)).containsExactly("INFO InsertBenchmark.copyCsv rows=1000 @ 0.5ms: new"
        + " cell (not in the baseline)");
  }

  @Test
  void predictedCellsByTheSameModelCompareTheirCountsNotTheirTime() {
    BaselineComparison slower = BaselineComparison.compare(BASELINE,
        runWith(EACH_20, m -> withTime(m, m.timeMs() * 10)));
    assertThat(slower.findings()).isEmpty();

    BaselineComparison c = BaselineComparison.compare(BASELINE,
        runWith(EACH_20, m -> withCounts(m, 1001, 1000)));
    assertThat(lines(c)).containsExactly("FAIL " + EACH_20 + ": round trips/op 1,000 -> 1,001"
        + " (+1: +1 ms/op at 1ms, +5 ms/op at 5ms, +20 ms/op at 20ms, +80 ms/op at 80ms,"
        + " +320 ms/op at 320ms; +20.00 s per 1,000 ops at 20ms; must match exactly: predicted"
        + " by the same model from deterministic counts)");
  }

  @Test
  void predictedCellsByAnotherModelAreNotCompared() {
    BaselineComparison c = BaselineComparison.compare(BASELINE, runWith(EACH_20,
        m -> withCounts(withPrediction(m, "predicted from executeEach at 1ms: 590.000 ms +"
            + " 1,001 round trips x (20.000 - 1.000) ms"), 1001, 1001)));

    assertThat(c.passed()).isTrue();
    assertThat(c.compared()).isEqualTo(3);
    assertThat(lines(c)).containsExactly("INFO " + EACH_20 + ": not compared: predicted in the"
        + " baseline, predicted now by another model ('predicted from executeEach at 0.5ms' ->"
        + " 'predicted from executeEach at 1ms')");
  }

  @Test
  void aCellPredictedOnOneSideAndMeasuredOnTheOtherIsNotCompared() {
    BaselineComparison c = BaselineComparison.compare(BASELINE,
        runWith(EACH_20, m -> withCounts(withPrediction(m, null), 999, 999)));

    assertThat(c.passed()).isTrue();
    assertThat(lines(c)).containsExactly("INFO " + EACH_20 + ": not compared: predicted in"
        + " the baseline, measured now");
  }

  @Test
  void failuresComeFirstAndTheReportHasOneLineEach() {
    List<Cell> cells = new ArrayList<>(runWith(BATCH_20, m -> withCounts(m, 5, 1000))
        .cells());
    cells.add(0, measured("copyCsv", "0.5ms", 0.5, 10.5, 2, 1));

    BaselineComparison c = BaselineComparison.compare(BASELINE, results(cells));

    assertThat(c.report().split("\n")).containsExactly(
        "Baseline check FAILED: 1 failure, 4 cells compared (round trips and statements per"
            + " operation exact within 0.01; time within 3x the baseline and 2x the model, +"
            + " 2 ms)",
        "FAIL " + BATCH_20 + ": round trips/op 4 -> 5 (+1: +1 ms/op at 1ms, +5 ms/op at 5ms,"
            + " +20 ms/op at 20ms, +80 ms/op at 80ms, +320 ms/op at 320ms; +20.00 s per 1,000"
            + " ops at 20ms; must match exactly: round trips are deterministic)",
        "INFO InsertBenchmark.copyCsv rows=1000 @ 0.5ms: new cell (not in the baseline)");
  }

  @Test
  void theBaselinesOwnTolerancesApply() {
    Baseline strict = new Baseline(Baseline.FORMAT, null, null, null,
        new Tolerances(1.1, 2.0, 0, 0.01), BASELINE.cells());

    BaselineComparison c = BaselineComparison.compare(strict,
        runWith(BATCH_05, m -> withTime(m, 16)));

    assertThat(lines(c)).containsExactly("FAIL " + BATCH_05 + ": time/op 14.00 ms -> 16.00 ms"
        + " (more than 1.1x the baseline + 0 ms = 15.40 ms)");
  }
}
