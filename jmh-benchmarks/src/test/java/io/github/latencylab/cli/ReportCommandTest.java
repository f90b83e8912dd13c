package io.github.latencylab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.latencylab.bench.runner.JmhJson;
import io.github.latencylab.gate.Baseline;
import io.github.latencylab.report.Cell;
import io.github.latencylab.report.Results;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code ./latency-lab report} through the launcher's own command line (its exception handler
 * turns IllegalArgumentException and IllegalStateException into a message and exit code 2).
 */
class ReportCommandTest {

  // a real JMH run of the insert suite
  static final Path JMH = Path.of("src/test/resources/report/jmh-insert.json")
      .toAbsolutePath().normalize();

  record Run(int exitCode, String out, String err) {
  }

  static Run run(String... args) throws Exception {
    Method factory = LatencyLab.class.getDeclaredMethod("commandLine");
    factory.setAccessible(true);
    CommandLine cl = (CommandLine) factory.invoke(null);
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    cl.setOut(new PrintWriter(out, true));
    cl.setErr(new PrintWriter(err, true));
    int code = cl.execute(args);
    return new Run(code, out.toString(), err.toString());
  }

  @Test
  void isASubcommandOfTheLauncher() {
    Object command = new CommandLine(new LatencyLab()).getSubcommands().get("report")
        .getCommand();
    assertThat(command).isInstanceOf(ReportCommand.class);
  }

  @Test
  void rendersTheReportAndPrintsTheTable(@TempDir Path dir) throws Exception {
    Run r = run("report", "--results", JMH.toString(), "--out", dir.toString());

    assertThat(r.exitCode()).isZero();
    assertThat(r.err()).isEmpty();
    assertThat(r.out()).startsWith("suite            strategy        params      RT/op     0.5ms       20ms\n")
        .contains("InsertBenchmark  multiRowValues  rows=10000     11    146 ms     303 ms\n")
        .contains("wrote 7 files to " + dir + ": report.html, report.md, results.json,"
            + " charts/ (4 SVG)");
    assertThat(dir.resolve("report.html")).isNotEmptyFile();
    assertThat(dir.resolve("charts/InsertBenchmark-rows-10000-time.svg")).isNotEmptyFile();
  }

  @Test
  void aPassingBaselineExitsZeroAndAFailingOneExitsOne(@TempDir Path dir) throws Exception {
    Results results = JmhJson.read(JMH);
    Path good = dir.resolve("good.json");
    Baseline.from(results).write(good);
    Run pass = run("report", "--results", JMH.toString(), "--out", dir.resolve("a").toString(),
        "--baseline", good.toString());
    assertThat(pass.exitCode()).isZero();
    assertThat(pass.out()).contains("Baseline check passed: 8 cells compared");

    Baseline b = Baseline.from(results);
    java.util.List<Cell> cells = new java.util.ArrayList<>(b.cells());
    Cell c = cells.get(0);
    cells.set(0, new Cell(c.series(), c.rtt(), c.addedRttMs(), c.baselineRttMs(), c.timeMs(),
        c.timeErrorMs(), 1, c.statementsPerOp(), c.rowsPerSecond(), c.server(), null, 0, null));
    Path bad = dir.resolve("bad.json");
    new Baseline(1, null, null, null, null, cells).write(bad);
    Run fail = run("report", "--results", JMH.toString(), "--out", dir.resolve("b").toString(),
        "--baseline", bad.toString());
    assertThat(fail.exitCode()).isEqualTo(1);
    assertThat(fail.out()).contains("Baseline check FAILED: 1 failure, 8 cells compared",
        "FAIL InsertBenchmark.copyCsv rows=1000 @ 0.5ms: round trips/op 1 -> 2 (+1: +1 ms/op"
            + " at 1ms, +5 ms/op at 5ms, +20 ms/op at 20ms, +80 ms/op at 80ms, +320 ms/op at"
            + " 320ms; +20.00 s per 1,000 ops at 20ms; must match exactly: round trips are"
            + " deterministic)");
    assertThat(dir.resolve("b/baseline-comparison.txt")).content().startsWith(
        "Baseline check FAILED");
  }

  @Test
  void severalResultFilesMakeOneReport(@TempDir Path dir) throws Exception {
    Results run = JmhJson.read(JMH);
    java.util.List<Cell> cells = run.cells();
    Path a = dir.resolve("a.json");
    Path b = dir.resolve("b.json");
    half(run, cells.subList(0, 4)).write(a);
    half(run, cells.subList(4, cells.size())).write(b);

    Run r = run("report", "--results", a.toString(), b.toString(), "--out",
        dir.resolve("out").toString());

    assertThat(r.exitCode()).isZero();
    assertThat(Results.read(dir.resolve("out/results.json")).cells())
        .containsExactlyElementsOf(cells);

    r = run("report", "--results", a.toString(), a.toString(), "--out",
        dir.resolve("out2").toString());
    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.err()).isEqualTo("latency-lab: Cannot merge " + a + " with " + a + ": both have"
        + " the cell InsertBenchmark.copyCsv rows=1000 @ 0.5ms" + System.lineSeparator());
  }

  /** Two surefire forks' JUnit reports: one report of both, and one set of findings. */
  @Test
  void theFindingsOfTwoForksReportsMergeIntoOne(@TempDir Path dir) throws Exception {
    Results run = JmhJson.read(JMH);
    java.util.List<Cell> cells = run.cells();
    Path a = java.nio.file.Files.createDirectories(dir.resolve("jvm-1")).resolve("results.json");
    Path b = java.nio.file.Files.createDirectories(dir.resolve("jvm-2")).resolve("results.json");
    half(run, cells.subList(0, 4)).write(a);
    half(run, cells.subList(4, cells.size())).write(b);
    String occurrence = "[{\"kind\": \"N_PLUS_ONE\", \"shape\": \"select id from book where"
        + " author_id = ?\", \"chain\": [{\"frame\": \"AuthorService.list(AuthorService.java:30)"
        + "\", \"source\": \"com/example/AuthorService.java\", \"line\": 30}], \"statements\":"
        + " 10, \"roundTrips\": 10, \"endpoint\": null}]";
    java.nio.file.Files.writeString(a.resolveSibling("findings.json"), "{\"format\": 1,"
        + " \"tests\": 2, \"notAudited\": 0, \"roundTrips\": 25, \"occurrences\":"
        + " {\"com.example.ATest.lists\": " + occurrence + "}}");
    java.nio.file.Files.writeString(b.resolveSibling("findings.json"), "{\"format\": 1,"
        + " \"tests\": 3, \"notAudited\": 1, \"roundTrips\": 40, \"occurrences\":"
        + " {\"com.example.BTest.pages\": " + occurrence + "}}");

    Run r = run("report", "--results", a.toString(), b.toString(), "--out",
        dir.resolve("all").toString());

    assertThat(r.exitCode()).isZero();
    assertThat(r.out()).contains("findings of 2 reports merged: 1 finding over 5 tests");
    assertThat(java.nio.file.Files.readString(dir.resolve("all/findings.md")))
        .contains("| `AuthorService.list(AuthorService.java:30)` | 2 | 20 | 18 |");
  }

  private static Results half(Results run, java.util.List<Cell> cells) {
    return new Results(run.kind(), run.createdAt(), run.profile(), run.environment(), cells);
  }

  @Test
  void badInputIsAMessageNamingTheFileNotAStackTrace(@TempDir Path dir) throws Exception {
    Path missing = dir.resolve("nope.json");
    Run r = run("report", "--results", missing.toString(), "--out", dir.toString());
    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.err()).isEqualTo("latency-lab: Cannot read " + missing + ": no such file"
        + System.lineSeparator());

    Path text = Files.writeString(dir.resolve("jmh-output.txt"), "Benchmark  Mode  Cnt\n");
    r = run("report", "--results", text.toString(), "--out", dir.toString());
    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.err()).startsWith("latency-lab: Cannot read " + text + ": not JSON (")
        .doesNotContain("Exception", "\tat ");

    Path empty = Files.writeString(dir.resolve("empty.json"), "[]");
    r = run("report", "--results", empty.toString(), "--out", dir.toString());
    assertThat(r.err()).isEqualTo("latency-lab: No benchmark in " + empty + ": JMH's JSON"
        + " results are an empty array" + System.lineSeparator());

    Path noBaseline = dir.resolve("latency-baseline.json");
    r = run("report", "--results", JMH.toString(), "--out", dir.resolve("o").toString(),
        "--baseline", noBaseline.toString());
    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.err()).isEqualTo("latency-lab: Cannot read the baseline " + noBaseline
        + ": no such file (create it with -Dlatencylab.updateBaseline=true)"
        + System.lineSeparator());

    Path file = Files.writeString(dir.resolve("a-file"), "x");
    r = run("report", "--results", JMH.toString(), "--out", file.toString());
    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.err()).startsWith("latency-lab: Cannot write the report to " + file + ": ");
  }

  @Test
  void theResultsOptionIsRequired() throws Exception {
    Run r = run("report");

    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.err()).startsWith("Missing required option: '--results=FILE'");
  }

  @Test
  void aBaselineIsRewrittenFromKeptRepeatsWithEachCellsNoise(@TempDir Path dir)
      throws Exception {
    // the five real repeats of docs/results/noise (the verify profile on unchanged code)
    String[] args = {"report", "--noise", "--out", dir.toString(), "--baseline",
        dir.resolve("baseline.json").toString(), "--update-baseline", "--results"};
    java.util.List<String> all = new java.util.ArrayList<>(java.util.List.of(args));
    for (int r = 1; r <= 5; r++) {
      all.add(Path.of("../docs/results/noise/repeat-" + r + "/results.json").toString());
    }
    Run r = run(all.toArray(String[]::new));

    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(r.out()).contains("latency-lab: baseline rewritten from 5 runs, 50 cells with"
        + " their noise: " + dir.resolve("baseline.json"));
    Baseline b = Baseline.read(dir.resolve("baseline.json"));
    assertThat(b.noise()).hasSize(50);
    assertThat(b.noise().values()).allSatisfy(n -> assertThat(n.repeats()).isEqualTo(5));
  }

  @Test
  void aBaselineIsRewrittenOnlyFromRepeats(@TempDir Path dir) throws Exception {
    Run r = run("report", "--results", JMH.toString(), "--out", dir.toString(), "--baseline",
        dir.resolve("b.json").toString(), "--update-baseline");

    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.err()).contains("--update-baseline needs --noise and --baseline FILE: a"
        + " baseline is rewritten from the repeats of unchanged code (one run: bench"
        + " --update-baseline)");
    assertThat(dir.resolve("b.json")).doesNotExist();
  }
}
