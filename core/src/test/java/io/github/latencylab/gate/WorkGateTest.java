package io.github.latencylab.gate;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.latencylab.latency.Rtt;
import io.github.latencylab.report.Cell;
import io.github.latencylab.report.Results;
import io.github.latencylab.report.Series;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The work gate's rules on a users' test: counts by their tolerances, and allocations failed
 * only after the same tests as when the baseline was taken.
 */
class WorkGateTest {

  static final String KEY = "com.example.LookupTest.tenLookups @ 0ms";

  static Cell test(Map<String, Double> work) {
    return new Cell(Series.of("com.example.LookupTest", "tenLookups", Map.of()), Rtt.ZERO,
        Double.NaN, Double.NaN, Double.NaN, Double.NaN, 11, 12, Double.NaN, work, null, 0, null);
  }

  static Map<String, Double> work(double values, double allocated, double blocks) {
    return Map.of(WorkGate.ROWS, 10.0, WorkGate.VALUES, values, WorkGate.VALUE_BYTES, 120.0,
        WorkGate.BLOCKS, blocks, WorkGate.WAL, 0.0, WorkGate.TEMP, 0.0, WorkGate.ALLOCATED,
        allocated);
  }

  static BaselineComparison compare(Map<String, Double> now, String ranAfter) {
    Baseline baseline = Baseline.from(new Results("tests", null, null, null,
        List.of(test(work(10, 900_000, 40))))).withTests(Map.of(),
        Map.of(KEY, "after 12 tests (3f2a9c1b)"));
    return BaselineComparison.compare(baseline, new Results("tests", null, null, null,
        List.of(test(now))), false, Map.of(), Map.of(KEY, ranAfter));
  }

  @Test
  void afterTheSameTestsAllocationsFailByTheirTolerance() {
    BaselineComparison c = compare(work(10, 12_000_000, 40), "after 12 tests (3f2a9c1b)");
    assertThat(c.failures()).extracting(BaselineComparison.Finding::message).containsExactly(
        "allocated bytes/op 878.9 kB -> 11.4 MB (more than 1.5x the baseline + 256.0 kB ="
            + " 1.5 MB; on the test's thread)");
  }

  @Test
  void afterOtherTestsTheyAreReportedNotFailed() {
    BaselineComparison c = compare(work(10, 12_000_000, 40), "after 0 tests (e3b0c442)");
    assertThat(c.passed()).isTrue();
    assertThat(c.findings()).extracting(BaselineComparison.Finding::message)
        .anyMatch(m -> m.startsWith("allocated bytes/op 878.9 kB -> 11.4 MB")
            && m.endsWith("(reported, not failed: the test ran after 0 tests (e3b0c442), the"
            + " baseline's after 12 tests (3f2a9c1b); a subset or another order, whose JVM and"
            + " connections did other things first)"));
  }

  @Test
  void aWiderSelectFailsByItsValuesWhateverRanBefore() {
    BaselineComparison c = compare(work(50, 900_000, 40), "after 0 tests (e3b0c442)");
    assertThat(c.failures()).extracting(BaselineComparison.Finding::message).containsExactly(
        "values received/op 10 -> 50 (must match exactly: rows x columns: a wider select, an"
            + " EAGER join, more)");
  }

  @Test
  void buffersFailWhateverRanBefore() {
    BaselineComparison c = compare(work(10, 900_000, 71_430), "after 0 tests (e3b0c442)");
    assertThat(c.failures()).extracting(BaselineComparison.Finding::message).containsExactly(
        "buffers touched/op 40 -> 71,430 (more than 1.5x the baseline + 32 = 92)");
  }

  @Test
  void onAnotherKindOfMachineAllocationsAreReportedNotFailed() {
    Cell copy = copyCsv(243_900);
    Baseline embedded = Baseline.from(TimeGateTest.on("embedded",
        new Results("bench", null, null, null, List.of(copy))));
    String more = "allocated bytes/op 238.2 kB -> 1.1 MB (more than 1.5x the baseline + 256.0 kB"
        + " = 613.3 kB; on the test's thread";

    BaselineComparison same = BaselineComparison.compare(embedded, TimeGateTest.on("embedded",
        new Results("bench", null, null, null, List.of(copyCsv(1_200_000)))));
    assertThat(same.failures()).extracting(BaselineComparison.Finding::message)
        .containsExactly(more + ")");

    BaselineComparison other = BaselineComparison.compare(embedded, TimeGateTest.on(
        "testcontainers", new Results("bench", null, null, null, List.of(copyCsv(1_200_000)))));
    assertThat(other.passed()).isTrue();
    assertThat(other.findings()).extracting(BaselineComparison.Finding::message)
        .contains(more + ") (reported, not failed: the backend (embedded backend, testcontainers"
            + " backend) differs from the baseline's machine)");
  }

  private static Cell copyCsv(double allocated) {
    return new Cell(Series.of("InsertBenchmark", "copyCsv", Map.of()), Rtt.parse("20ms"), 20,
        0.25, 45, Double.NaN, 2, 2, Double.NaN, Map.of(WorkGate.ALLOCATED, allocated), null, 0,
        null);
  }

  @Test
  void workTheBaselineCountsAndTheRunDidNotFailsNamingTheCounters() {
    Map<String, Double> withoutServer = Map.of(WorkGate.ROWS, 10.0, WorkGate.VALUES, 10.0,
        WorkGate.VALUE_BYTES, 120.0, WorkGate.ALLOCATED, 900_000.0);
    BaselineComparison c = compare(withoutServer, "after 12 tests (3f2a9c1b)");
    assertThat(c.failures()).extracting(BaselineComparison.Finding::toString).containsExactly(
        "FAIL buffers touched/op: not counted in this run for 1 cell the baseline counts it for"
            + " (" + KEY + "): the gate cannot judge work a run did not count; the run's log"
            + " says why (the server's work needs pg_stat_statements), or take the baseline"
            + " without it",
        "FAIL WAL/op: not counted in this run for 1 cell the baseline counts it for (" + KEY
            + "): the gate cannot judge work a run did not count; the run's log says why (the"
            + " server's work needs pg_stat_statements), or take the baseline without it",
        "FAIL temp bytes/op: not counted in this run for 1 cell the baseline counts it for ("
            + KEY + "): the gate cannot judge work a run did not count; the run's log says why"
            + " (the server's work needs pg_stat_statements), or take the baseline without it");
  }

  @Test
  void aBaselineWithoutWorkTakesTheMedianOfRunsWithTheSameCountsItsTimeKept() {
    Cell timed = new Cell(Series.of("NPlusOneBenchmark", "lazyLoop", Map.of()), Rtt.parse("0.5ms"),
        0.5, 0.2, 60, 1, 101, 101, Double.NaN, Map.of(), null, 0, null);
    Baseline before = Baseline.from(new Results("bench", null, null, null, List.of(timed)));
    List<Results> runs = List.of(1040.0, 1049.0, 1100.0).stream()
        .map(blocks -> new Results("bench", null, null, null, List.of(new Cell(timed.series(),
            timed.rtt(), 0.5, 0.2, 75, 1, 101, 101, Double.NaN, Map.of(WorkGate.BLOCKS, blocks,
            "commitsPerOp", 1.0), null, 0, null)))).toList();
    Results otherCounts = new Results("bench", null, null, null, List.of(new Cell(
        timed.series(), timed.rtt(), 0.5, 0.2, 75, 1, 102, 102, Double.NaN,
        Map.of(WorkGate.BLOCKS, 9_000.0), null, 0, null)));

    Cell after = before.withWork(List.of(runs.get(0), runs.get(1), runs.get(2), otherCounts))
        .byKey().get(timed.key());
    assertThat(after.server()).as("the median; a run with a round trip more is not this cell's")
        .containsExactly(Map.entry(WorkGate.BLOCKS, 1049.0));
    assertThat(after.timeMs()).isEqualTo(60);
  }
}
