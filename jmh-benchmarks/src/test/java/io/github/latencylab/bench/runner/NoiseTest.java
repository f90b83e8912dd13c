package io.github.latencylab.bench.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.latencylab.env.LabEnvironment;
import io.github.latencylab.latency.Rtt;
import io.github.latencylab.report.Cell;
import io.github.latencylab.report.Median;
import io.github.latencylab.report.Results;
import io.github.latencylab.report.Series;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The noise of an A/A run, on hand-made repeats whose statistics are worked out by hand: a
 * copyCsv cell at 10, 10, 10 and 20 ms, a selectOne cell at 8 ms each time, one count that
 * moves and one cell that a repeat lost. Nothing here is timed.
 */
class NoiseTest {

  private static final Series COPY = Series.of("InsertBenchmark", "copyCsv",
      Map.of("rows", "100"));
  private static final Series SELECT = Series.of("InsertBenchmark", "selectOne", Map.of());
  private static final Series LOST = Series.of("ReadBenchmark", "defaultFetch", Map.of());
  private static final Rtt HALF = Rtt.parse("0.5ms");
  private static final Rtt TWENTY = Rtt.parse("20ms");
  private static final LabEnvironment ENV = new LabEnvironment("embedded",
      "embedded PostgreSQL on 127.0.0.1:5432", "17.6", Map.of(), "42.7.13", "2.5.0", Map.of(),
      "linux", "17.0.15", "OpenJDK", "Linux", 2, 6028);

  private static Cell measured(Series s, double timeMs, double roundTrips, double statements) {
    return new Cell(s, HALF, 0.5, 0.1, timeMs, Double.NaN, roundTrips, statements, 1000,
        Map.of(), null, 0, null);
  }

  /** Repeat r (0 to 3): copyCsv's fourth time is twice the others; selectOne's third sends 4. */
  private static Results repeat(int r) {
    List<Cell> cells = new ArrayList<>();
    Cell copy = measured(COPY, r == 3 ? 20 : 10, 2, 1);
    cells.add(copy);
    // predicted at 20 ms in every repeat: its time is the model's, not a measurement
    cells.add(new Cell(COPY, TWENTY, 20, 0.1, copy.timeMs() + 39, Double.NaN, 2, 1, 1000,
        Map.of(), "predicted from copyCsv at 0.5ms", 0, null));
    // round trips averaged over iterations may differ by less than 0.01: not a move
    cells.add(measured(SELECT, 8, r == 1 ? 1.004 : 1, r == 2 ? 4 : 3));
    if (r != 1) {
      cells.add(measured(LOST, 5, 1, 1));
    }
    return new Results("bench", "2026-11-28T00:00:00Z", "verify", ENV, cells);
  }

  private static Noise noise() {
    return Noise.of(List.of(repeat(0), repeat(1), repeat(2), repeat(3)));
  }

  @Test
  void aCellsTimeSpreadIsItsMeasuredRepeats() {
    Noise.CellNoise copy = noise().cells.stream()
        .filter(c -> c.key().equals("InsertBenchmark.copyCsv rows=100 @ 0.5ms")).findFirst()
        .orElseThrow();
    // 10, 10, 10, 20: mean 12.5, squares 3 x 6.25 + 56.25 = 75 over 3, sd 5
    assertThat(copy.time()).isEqualTo(new Noise.Spread(4, 10, 10, 20, 12.5, 5));
    assertThat(copy.time().cv()).isEqualTo(0.4);
    assertThat(copy.time().maxOverMin()).isEqualTo(2);
    // pair ratios 1, 1, 1, 2, 2, 2: Q1 = 1, Q3 = 2, so Q3 + 3 IQR = 5
    assertThat(Noise.pairRatios(copy.timesMs())).containsExactly(1.0, 1.0, 2.0, 1.0, 2.0, 2.0);
    assertThat(copy.threshold()).isEqualTo(5);
  }

  @Test
  void predictedCellsHaveNoTimeSpreadAndOneRepeatIsNone() {
    assertThat(noise().cells).extracting(Noise.CellNoise::key).containsExactly(
        "InsertBenchmark.copyCsv rows=100 @ 0.5ms", "InsertBenchmark.selectOne @ 0.5ms",
        "ReadBenchmark.defaultFetch @ 0.5ms");
    Noise.CellNoise lost = noise().cells.get(2);
    assertThat(lost.timesMs()).containsExactly(5.0, Double.NaN, 5.0, 5.0);
    assertThat(lost.time().n()).isEqualTo(3);
  }

  @Test
  void theSummaryPoolsEveryCellsPairRatios() {
    Noise noise = noise();
    // copyCsv's 1, 1, 1, 2, 2, 2 with selectOne's six 1s and defaultFetch's three: 15 ratios,
    // 12 of them 1; Q1 = 1, Q3 (h = 10.5) = 1, so the fence is 1 (most cells never moved)
    assertThat(noise.threshold).isEqualTo(1);
    assertThat(noise.suites).containsExactly(
        new Noise.SuiteNoise("InsertBenchmark", 2, 0.2, 0.4, 1.25 + 3 * 0.25),
        new Noise.SuiteNoise("ReadBenchmark", 1, 0, 0, 1));
    // CVs 0.4, 0, 0: median 0, 90th percentile (h = 1.8) 0.32, worst 0.4
    assertThat(noise.timeCv(0.5)).isZero();
    assertThat(noise.timeCv(0.9)).isCloseTo(0.32, within(1e-12));
    assertThat(noise.timeCv(1)).isEqualTo(0.4);
    // repeat 4 doubled copyCsv only: the median cell did not move
    assertThat(noise.drift).containsExactly(1.0, 1.0, 1.0, 1.0);
  }

  @Test
  void t0IsEachRepeatsFitOfItsMeasuredCells() {
    Noise.RowNoise copy = noise().rows.get(0);
    assertThat(copy.series()).isEqualTo(COPY);
    // T0 = T(0.5 ms) - 2 round trips x 0.5 ms; the predicted cell at 20 ms is not fitted on
    assertThat(copy.t0Ms()).containsExactly(9.0, 9.0, 9.0, 19.0);
    assertThat(copy.t0()).isEqualTo(new Noise.Spread(4, 9, 9, 19, 11.5, 5));
    assertThat(copy.t0().cv()).isEqualTo(5 / 11.5);
  }

  @Test
  void aCountThatMovesIsFlaggedAndOneThatAveragesIsNot() {
    assertThat(noise().moved).extracting(Object::toString).containsExactly(
        "InsertBenchmark.selectOne @ 0.5ms: statements/op moved across repeats: 3, 3, 4, 3",
        "ReadBenchmark.defaultFetch @ 0.5ms: round trips/op moved across repeats: 1, -, 1, 1",
        "ReadBenchmark.defaultFetch @ 0.5ms: statements/op moved across repeats: 1, -, 1, 1");
    // window flights per operation follow the clock (an iteration's flights over its
    // operations): listed apart, never a failure
    assertThat(noise().flightsMoved).extracting(Object::toString).containsExactly(
        "ReadBenchmark.defaultFetch @ 0.5ms: window flights/op moved across repeats: 0, -, 0,"
            + " 0");
    assertThat(noise().markdown()).contains("**COUNTS MOVED**")
        .contains("Window flights per operation moved in 1 cell (an");
  }

  @Test
  void unchangedCountsMoveNothing() {
    Noise quiet = Noise.of(List.of(repeat(0), repeat(3)));
    assertThat(quiet.moved).isEmpty();
    assertThat(quiet.markdown()).doesNotContain("COUNTS MOVED");
    // two repeats: one ratio per cell, no spread around it, so the fence is the ratio
    assertThat(quiet.cells.get(0).threshold()).isEqualTo(2);
  }

  @Test
  void quantilesInterpolateLinearly() {
    double[] xs = {1, 2, 3, 4};
    assertThat(Median.quantile(xs, 0.5)).isEqualTo(2.5);
    assertThat(Median.quantile(xs, 0.9)).isCloseTo(3.7, within(1e-12));
    assertThat(Median.quantile(xs, 1)).isEqualTo(4);
    assertThat(Noise.fence(List.of(1.0, 2.0, 3.0, 4.0))).isEqualTo(3.25 + 3 * 1.5);
  }

  @Test
  void noiseJsonHasEveryNumberAndNullsForNone(@TempDir Path dir) throws Exception {
    noise().write(dir, List.of(Path.of("repeat-1/results.json")), repeat(0));
    JsonNode json = new ObjectMapper().readTree(dir.resolve("noise.json").toFile());
    assertThat(json.path("repeats").asInt()).isEqualTo(4);
    assertThat(json.path("summary").path("countsMoved").asInt()).isEqualTo(3);
    assertThat(json.path("summary").path("windowFlightsMoved").asInt()).isEqualTo(1);
    assertThat(json.path("summary").path("timeCvP90").asDouble()).isCloseTo(0.32, within(1e-12));
    assertThat(json.path("cells").get(2).path("timesMs").get(1).isNull()).isTrue();
    assertThat(json.path("cells").get(0).path("cv").asDouble()).isEqualTo(0.4);
    assertThat(Files.readString(dir.resolve("noise.md"))).contains("| InsertBenchmark.copyCsv rows=100"
        + " @ 0.5ms | 10.00 ms | 10.00 ms | 20.00 ms | 40.0% | 2.00x | 5.00x |");
  }

  @Test
  void oneRepeatIsNoNoise() {
    assertThatThrownBy(() -> Noise.of(List.of(repeat(0))))
        .hasMessage("Noise needs two repeats at least, got 1");
  }

  @Test
  void anAaRunComparesWithNoBaselineButMayRewriteIt() {
    BenchCommand bench = new BenchCommand();
    new CommandLine(bench).parseArgs("--profile", "verify", "--repeat", "4", "--baseline",
        "src/latency-baseline.json");
    assertThatThrownBy(bench::call).hasMessage("Invalid --repeat 4: expected 1 or more, and"
        + " with more than 1 a --baseline only to --update-baseline it (an A/A run measures the"
        + " noise, not a change; its baseline keeps each cell's noise for the time gate)");
  }
}
