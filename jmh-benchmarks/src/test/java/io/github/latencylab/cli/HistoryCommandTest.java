package io.github.latencylab.cli;

import static io.github.latencylab.cli.ReportCommandTest.run;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.latencylab.history.History;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code ./latency-lab history}: append, mark and report through the launcher. */
class HistoryCommandTest {

  // a real run of the verify profile (docs/results/noise, repeat 1)
  static final Path RESULTS = Path.of("../docs/results/noise/repeat-1/results.json")
      .toAbsolutePath().normalize();
  static final String A = "1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d";
  static final String B = "2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e";

  @Test
  void isASubcommandOfTheLauncher() {
    Object command = new CommandLine(new LatencyLab()).getSubcommands().get("history")
        .getCommand();
    assertThat(command).isInstanceOf(HistoryCommand.class);
  }

  @Test
  void appendsRunsAndAMarkThenReportsThem(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("latency-history.jsonl");

    ReportCommandTest.Run first = run("history", "append", "--results", RESULTS.toString(),
        "--history", file.toString(), "--commit", A, "--ref", "main", "--gate", "success");
    ReportCommandTest.Run second = run("history", "append", "--results", RESULTS.toString(),
        "--history", file.toString(), "--commit", B, "--gate", "failed");
    ReportCommandTest.Run mark = run("history", "mark", "--history", file.toString(),
        "--commit", B, "--reason", "on purpose");
    ReportCommandTest.Run report = run("history", "report", "--history", file.toString(),
        "--out", dir.resolve("out").toString());

    assertThat(first.exitCode()).as(first.err()).isZero();
    assertThat(first.out()).startsWith("appended run 1a2b3c4 (").contains(", gate passed) to ");
    assertThat(second.out()).contains(", gate FAILED) to ");
    assertThat(mark.out()).isEqualTo("marked " + B + " as an intended step (on purpose) in "
        + file + "\n");
    History h = History.read(file);
    assertThat(h.runs()).extracting(History.Run::commit).containsExactly(A, B);
    assertThat(h.runs()).extracting(History.Run::passed).containsExactly(true, false);
    assertThat(report.exitCode()).as(report.err()).isZero();
    // the same results twice: nothing moved
    assertThat(report.out()).startsWith("2 runs compared (1a2b3c4 to 2b3c4d5), ")
        .contains(" measured cells, 0 steps\ndrift per run (each run's times divided by it before"
            + " the search): 1.00x, 1.00x\nwrote 3 files to ");
    assertThat(dir.resolve("out/history.html")).isNotEmptyFile();
  }

  @Test
  void aBrokenHistoryExitsTwoNamingItsLine(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("h.jsonl");
    Files.writeString(file, "{\"mark\":\"" + A + "\",\"reason\":\"x\"}\nnot json\n");

    ReportCommandTest.Run r = run("history", "report", "--history", file.toString(), "--out",
        dir.toString());

    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.err()).startsWith("latency-lab: Cannot read the history " + file
        + " line 2: not JSON (");
  }

  @Test
  void theCommitComesFromTheOptionThenGitHubThenGitLabThenGit(@TempDir Path notARepo) {
    Map<String, String> both = Map.of("GITHUB_SHA", A, "CI_COMMIT_SHA", B);
    assertThat(HistoryCommand.commit("abc1234", both, notARepo)).isEqualTo("abc1234");
    assertThat(HistoryCommand.commit(null, both, notARepo)).isEqualTo(A);
    assertThat(HistoryCommand.commit(null, Map.of("CI_COMMIT_SHA", B), notARepo)).isEqualTo(B);
    assertThat(HistoryCommand.commit(null, Map.of(), Path.of(".."))).matches("[0-9a-f]{40}");
    assertThatThrownBy(() -> HistoryCommand.commit(null, Map.of(), notARepo))
        .hasMessage("No commit for the history: give --commit SHA, or run in CI ($GITHUB_SHA,"
            + " $CI_COMMIT_SHA) or in a git checkout (git rev-parse HEAD found none in "
            + notARepo.toAbsolutePath() + ")");
  }
}
