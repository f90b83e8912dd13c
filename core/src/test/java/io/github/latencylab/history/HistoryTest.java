package io.github.latencylab.history;

import static io.github.latencylab.report.Cells.measured;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.latencylab.env.LabEnvironment;
import io.github.latencylab.report.Cell;
import io.github.latencylab.report.Results;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The history: appended and read back, its bad lines named, and the steps found in it
 * (Otava's change points for times, any move for counts), each naming its first commit.
 */
class HistoryTest {

  static final LabEnvironment CI = environment("ci-runner-1", 2);
  static final LabEnvironment LAPTOP = environment("laptop", 8);
  static final String KEY = "InsertBenchmark.executeBatch rows=1000 @ 0.5ms";

  static LabEnvironment environment(String host, int cpus) {
    return new LabEnvironment("embedded", "embedded PostgreSQL 16.4", "16.4",
        Map.of("synchronous_commit", "on"), "42.7.10", "2.12.0", Map.of(), null, "17.0.15",
        "OpenJDK 64-Bit Server VM 17.0.15", "Linux 6.1 amd64", cpus, 1024, host);
  }

  /** A commit hash of n, 40 hex digits: the seventh digit tells runs apart. */
  static String commit(int n) {
    return String.format("%07x", 0xa000000 + n) + "0".repeat(33);
  }

  /** One run at commit n: executeBatch at {@code timeMs} with {@code roundTrips}. */
  static History.Run run(int n, LabEnvironment env, double timeMs, double roundTrips) {
    Cell c = measured("executeBatch", "0.5ms", 0.5, timeMs, roundTrips, 1000);
    return new History.Run(commit(n), "main", true,
        new Results("bench", "2026-11-" + (10 + n) + "T12:00:00Z", "verify", env, List.of(c)));
  }

  /** 12 runs, 6 at 4 ms then 6 at {@code after}, +-10% noise from a fixed seed. */
  static List<History.Run> stepAtRun7(double after) {
    Random noise = new Random(42);
    List<History.Run> runs = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      double level = i < 6 ? 4.0 : after;
      runs.add(run(i, CI, level * (0.9 + 0.2 * noise.nextDouble()), 4));
    }
    return runs;
  }

  @Test
  void appendedRunsAndMarksReadBackAsTheyWere(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("history/latency.jsonl");
    History.Run first = run(1, CI, 4.1, 4);
    History.Run failed = new History.Run(commit(2), null, false, run(2, CI, 9.0, 5).results());
    History.Mark mark = new History.Mark(commit(2), "COPY instead of batches",
        "2026-11-13T09:00:00Z");

    History.append(file, first);
    History.append(file, failed);
    History.append(file, mark);

    assertThat(Files.readAllLines(file)).hasSize(3)
        .allSatisfy(line -> assertThat(line).startsWith("{").endsWith("}"));
    assertThat(Files.readAllLines(file).get(2)).isEqualTo("{\"mark\":\"" + commit(2)
        + "\",\"reason\":\"COPY instead of batches\",\"at\":\"2026-11-13T09:00:00Z\"}");
    History read = History.read(file);
    assertThat(read.runs()).containsExactly(first, failed);
    assertThat(read.runs().get(1).failed()).isTrue();
    assertThat(read.marks()).containsExactly(mark);
  }

  @Test
  void aMalformedLineFailsNamingTheFileAndLine(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("latency.jsonl");
    History.append(file, run(1, CI, 4.1, 4));
    Files.writeString(file, "{\"commit\": \"a1b2c3d\", \"measurements\": [\n",
        java.nio.file.StandardOpenOption.APPEND);

    assertThatThrownBy(() -> History.read(file))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("Cannot read the history " + file + " line 2: not JSON (");
  }

  @Test
  void aLineThatIsNeitherRunNorMarkIsNamedToo(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("latency.jsonl");
    Files.writeString(file, "\n{\"sha\": \"a1b2c3d\"}\n");

    assertThatThrownBy(() -> History.read(file))
        .hasMessage("Cannot read the history " + file + " line 2: neither a run (with"
            + " \"commit\") nor a mark (with \"mark\")");
  }

  @Test
  void aCommitThatIsNoHashIsRefused() {
    assertThatThrownBy(() -> new History.Mark("HEAD", "why", null))
        .hasMessage("Invalid commit 'HEAD' for a mark: expected a git commit hash (7 to 64 hex"
            + " digits, e.g. from git rev-parse HEAD)");
  }

  @Test
  void aStepOfFiftyPercentIsFoundAtItsFirstRunAndNamesItsCommit() {
    HistoryAnalysis a = HistoryAnalysis.of(new History(stepAtRun7(6.0), List.of()));

    assertThat(a.steps()).hasSize(1);
    HistoryAnalysis.Step step = a.steps().get(0);
    assertThat(step.kind()).isEqualTo(HistoryAnalysis.Kind.TIME);
    assertThat(step.run()).isEqualTo(6);
    assertThat(step.first().commit()).isEqualTo(commit(6));
    assertThat(step.pValue()).isLessThan(ChangePoints.MAX_P_VALUE);
    assertThat(step.line(12)).matches(KEY + ": time/op 4\\.\\d\\d ms -> 6\\.\\d\\d ms"
        + " \\(\\+\\d\\d%\\) from commit a000006 \\(run 7 of 12; p [=<] [0-9.]+\\)");
    assertThat(a.trends().get(0).since()).isEqualTo(6);
  }

  @Test
  void aFlatNoisySeriesHasNoChangePoint() {
    Random noise = new Random(7);
    List<History.Run> runs = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      runs.add(run(i, CI, 4.0 * (0.9 + 0.2 * noise.nextDouble()), 4));
    }

    HistoryAnalysis a = HistoryAnalysis.of(new History(runs, List.of()));

    assertThat(a.steps()).isEmpty();
    assertThat(a.trends().get(0).since()).isZero();
  }

  @Test
  void aRoundTripCountThatMovesOnceIsAStepAtItsCommitWithoutStatistics() {
    List<History.Run> runs = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      runs.add(run(i, CI, 4.0 + 0.01 * (i % 3), i < 5 ? 4 : 5));
    }

    HistoryAnalysis a = HistoryAnalysis.of(new History(runs, List.of()));

    assertThat(a.steps()).extracting(s -> s.line(8)).containsExactly(KEY
        + ": round trips/op 4 -> 5 from commit a000005 (run 6 of 8)");
  }

  @Test
  void aMarkedStepIsIntendedAndTheLevelStartsAgainFromIt() {
    List<History.Run> runs = stepAtRun7(6.0);
    History.Mark mark = new History.Mark(commit(6).substring(0, 10), "row-by-row audit"
        + " trigger, on purpose", null);

    HistoryAnalysis a = HistoryAnalysis.of(new History(runs, List.of(mark)));

    assertThat(a.steps()).hasSize(1);
    assertThat(a.steps().get(0).intended()).isEqualTo(mark);
    assertThat(a.steps().get(0).run()).isEqualTo(6);
    assertThat(a.steps().get(0).line(12)).endsWith(") intended: row-by-row audit trigger,"
        + " on purpose");
    assertThat(a.trends().get(0).since()).isEqualTo(6);
    assertThat(a.trends().get(0).currentMs()).isBetween(5.4, 6.6);
    assertThat(a.unmatchedMarks()).isEmpty();
  }

  @Test
  void runsFromAnotherMachineAreListedApartInOneLineAndNotCompared() {
    List<History.Run> runs = new ArrayList<>();
    // a laptop's runs are twice as fast: compared with CI's, they would be a step
    for (int i = 0; i < 3; i++) {
      runs.add(run(100 + i, LAPTOP, 2.0, 4));
    }
    Random noise = new Random(3);
    for (int i = 0; i < 8; i++) {
      runs.add(run(i, CI, 4.0 * (0.95 + 0.1 * noise.nextDouble()), 4));
    }

    HistoryAnalysis a = HistoryAnalysis.of(new History(runs, List.of()));

    assertThat(a.steps()).isEmpty();
    assertThat(a.compared()).hasSize(8);
    assertThat(a.excluded()).hasSize(3);
    assertThat(a.excludedLine()).isEqualTo("3 runs from another machine or environment not"
        + " compared (3 from laptop: Linux 6.1 amd64, 8 CPUs, Java 17.0.15; PostgreSQL 16.4;"
        + " verify profile; compared: 8 from ci-runner-1: Linux 6.1 amd64, 2 CPUs, Java"
        + " 17.0.15; PostgreSQL 16.4; verify profile): results from different machines are"
        + " never compared as if alike");
  }

  @Test
  void hostedRunnersOfOneClassCompareWhenNamedAsOneMachine(@TempDir Path dir) throws Exception {
    // a hosted runner has a new host every run: without a name, only the last run compares
    List<History.Run> named = new ArrayList<>();
    List<History.Run> unnamed = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      History.Run r = run(i, environment("runner-" + i, 2), 4.0 + 0.01 * i, 4);
      unnamed.add(r);
      named.add(new History.Run(r.commit(), r.ref(), r.passed(), "github Linux X64",
          r.results()));
    }
    Path file = dir.resolve("h.jsonl");
    for (History.Run r : named) {
      History.append(file, r);
    }

    assertThat(HistoryAnalysis.of(new History(unnamed, List.of())).compared()).hasSize(1);
    HistoryAnalysis a = HistoryAnalysis.of(History.read(file));
    assertThat(a.compared()).hasSize(6);
    assertThat(a.excluded()).isEmpty();
    assertThat(History.describeEnvironment(History.read(file).runs().get(0)))
        .startsWith("github Linux X64: Linux 6.1 amd64, 2 CPUs");
    // the rest of the environment still has to match
    History.Run bigger = run(9, environment("runner-9", 8), 4.0, 4);
    named.add(new History.Run(bigger.commit(), null, true, "github Linux X64",
        bigger.results()));
    assertThat(HistoryAnalysis.of(new History(named, List.of())).compared()).hasSize(1);
  }

  @Test
  void aBusierMachineMovesEveryCellAlikeAndIsNoStep() {
    // 12 cells over 12 runs; runs 3 to 6 on a machine 1.6x busier; cell s5 50% slower from run 8
    Random noise = new Random(7);
    List<History.Run> runs = new ArrayList<>();
    for (int r = 0; r < 12; r++) {
      List<Cell> cells = new ArrayList<>();
      for (int c = 0; c < 12; c++) {
        double busy = r >= 2 && r <= 5 ? 1.6 : 1.0;
        double step = c == 5 && r >= 7 ? 1.5 : 1.0;
        cells.add(measured("InsertBenchmark", "s" + c, Map.of(), "0.5ms", 0.5,
            (10 + c) * busy * step * (0.97 + 0.06 * noise.nextDouble()), 1, 1));
      }
      runs.add(new History.Run(commit(r), "main", true,
          new Results("bench", "2026-11-28T12:00:00Z", "verify", CI, cells)));
    }

    HistoryAnalysis a = HistoryAnalysis.of(new History(runs, List.of()));

    assertThat(a.drift().get(3)).isBetween(1.5, 1.7);
    assertThat(a.steps()).extracting(HistoryAnalysis.Step::cell, HistoryAnalysis.Step::run)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("InsertBenchmark.s5 @ 0.5ms", 7));
    assertThat(a.steps().get(0).first().commit()).isEqualTo(commit(7));
  }

  @Test
  void theReportWritesPagesAnOverviewAndAChartPerCellWithAStep(@TempDir Path dir)
      throws Exception {
    List<History.Run> runs = new ArrayList<>(stepAtRun7(6.0));
    runs.set(8, new History.Run(runs.get(8).commit(), "main", false, runs.get(8).results()));
    HistoryAnalysis a = HistoryAnalysis.of(new History(runs, List.of()));

    List<Path> written = HistoryReport.write(a, dir);

    assertThat(written).extracting(p -> dir.relativize(p).toString()).containsExactly(
        "history.md", "history.html", "charts/history-overview.svg",
        "charts/InsertBenchmark-executeBatch-rows-1000-0.5ms-history.svg");
    String chart = Files.readString(dir.resolve(
        "charts/InsertBenchmark-executeBatch-rows-1000-0.5ms-history.svg"));
    assertThat(chart).contains(">a000006 +").contains(">a000008 \u2717</text>");
    assertThat(Files.readString(dir.resolve("history.md")))
        .contains("| " + KEY + " | time/op | 4.")
        .contains("| 9 | `" + commit(8) + "` | main | 2026-11-18T12:00:00Z | FAILED | 1 |");
    assertThat(HistoryReport.console(a)).endsWith("12 runs compared (a000000 to a00000b),"
        + " 1 measured cell, 1 step\ndrift per run (each run's times divided by it before the"
        + " search): " + String.join(", ", java.util.Collections.nCopies(12, "1.00x")) + "\n");
  }
}
