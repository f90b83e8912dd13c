package io.github.latencylab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import io.github.latencylab.report.ReportWriter;
import io.github.latencylab.report.Results;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every results page's numbers, recomputed from the JSON it cites by the generator that wrote
 * it: the page scripts in docs/results (run with python3, as the pages' own commands do) and
 * ReportWriter for the report.md files beside their results.json. A page edited by hand, or a
 * generator changed without its page being regenerated, fails here with the page's fix: the
 * command to run.
 */
class ResultsPagesTest {

  static final Path RESULTS = Path.of("../docs/results");

  @Test
  void calibrationIsItsJson() throws Exception {
    assertWholePage("calibration.md", "calibration-table.py", "calibration-embedded.json",
        "calibration-testcontainers.json");
  }

  @Test
  void fullIsItsJson() throws Exception {
    assertWholePage("full.md", "full-page.py", "full/results.json", "full/remarks.md",
        "full/previous-results.json");
  }

  @Test
  void serverKnobsIsItsJson() throws Exception {
    assertWholePage("server-knobs.md", "server-knobs-page.py", "server-knobs",
        "server-knobs/remarks.md");
  }

  @Test
  void linkCheckIsItsJson() throws Exception {
    assertWholePage("link-check.md", "link-check-page.py", "link-check/link-check.json",
        "link-check/link-check-busy.json", "link-check/remarks.md");
  }

  @Test
  void durabilityIsItsJson() throws Exception {
    assertWholePage("durability.md", "durability-page.py", "durability/fast/results.json",
        "durability/stock/results.json");
  }

  @Test
  void suiteCostIsItsJson() throws Exception {
    assertWholePage("suite-cost.md", "suite-cost-page.py", "suite-cost");
  }

  @Test
  void noiseIsItsJson() throws Exception {
    assertWholePage("noise.md", "noise-page.py", "noise");
  }

  @Test
  void gateCampaignIsItsRuns() throws Exception {
    assertWholePage("gate-campaign.md", "gate-campaign-page.py", "gate-campaign");
  }

  @Test
  void workGateCampaignsAreTheirRuns() throws Exception {
    assertWholePage("work-gate.md", "work-gate-page.py", "work-gate");
    assertWholePage("work-gate-verify.md", "work-gate-verify-page.py", "work-gate-verify");
  }

  /** inserts.md: generated tables in prose that says which run they come from. */
  @Test
  void insertsTablesAreItsJson() throws Exception {
    // "-": the 1,000,000-row row-by-row load not measured (the model's cell; inserts.sh --each-1m)
    assertTablesIn("inserts.md", "field-figures.py", "inserts/results.json", "-",
        "inserts/copy-reference.txt", "inserts/rows-10000/results.json");
  }

  /** n-plus-one.md's table of the sweep's measured times. */
  @Test
  void nPlusOneSweepTableIsItsJson() throws Exception {
    assertTablesIn("../n-plus-one.md", "n-plus-one-table.py", "n-plus-one-sweep.json");
    // does going reactive fix the N+1: the runs at 20 and 320 ms, the sweep's 80 ms
    assertTablesIn("../n-plus-one.md", "n-plus-one-table.py", "--reactive",
        "n-plus-one-20ms.json", "n-plus-one-sweep.json", "n-plus-one-320ms.json");
  }

  /** docs/reads.md's tables of ReadBenchmark's run. */
  @Test
  void readsTablesAreItsJson() throws Exception {
    assertTablesIn("../reads.md", "reads-table.py", "reads");
    assertTablesIn("../reads.md", "reads-table.py", "reads-1m");
    assertTablesIn("../reads.md", "reads-table.py", "reads-1m-wide");
  }

  /** docs/batching.md's table of the copyable helpers, by rows and RTT. */
  @Test
  void helpersTableIsItsJson() throws Exception {
    assertTablesIn("../batching.md", "helpers-table.py", "helpers");
  }

  /** Each report.md beside a results.json: its tables are what ReportWriter makes of it. */
  @Test
  void eachReportIsItsResults(@TempDir Path tmp) throws IOException {
    for (String dir : List.of("full", "inserts", "helpers", "verify", "reads", "reads-1m",
        "reads-1m-wide",
        "durability/fast",
        "durability/stock",
        "server-knobs/tpcb", "server-knobs/tpcb-fsync-off")) {
      Path out = tmp.resolve(dir);
      ReportWriter.write(Results.read(RESULTS.resolve(dir).resolve("results.json")), out);
      List<String> committed = Files.readAllLines(RESULTS.resolve(dir).resolve("report.md"));
      assertThat(committed).as("docs/results/%s/report.md: regenerate it with ./latency-lab"
              + " report --results docs/results/%s/results.json --out docs/results/%s", dir,
              dir, dir)
          .containsAll(tableRows(Files.readString(out.resolve("report.md"))));
    }
  }

  private static void assertWholePage(String page, String script, String... args)
      throws Exception {
    String generated = run(script, args);
    assertThat(Files.readString(RESULTS.resolve(page)))
        .as("docs/results/%s differs from what its JSON gives: python3 docs/results/%s %s >"
            + " docs/results/%s", page, script, String.join(" ", args), page)
        .isEqualTo(generated);
  }

  private static void assertTablesIn(String page, String script, String... args)
      throws Exception {
    List<String> rows = tableRows(run(script, args));
    assertThat(rows).as("%s prints tables", script).isNotEmpty();
    assertThat(Files.readAllLines(RESULTS.resolve(page)))
        .as("the tables of docs/results/%s differ from what its JSON gives: paste in the"
            + " output of python3 docs/results/%s %s", page, script, String.join(" ", args))
        .containsAll(rows);
  }

  /** The body rows of a Markdown text's tables: where its numbers are. */
  static List<String> tableRows(String markdown) {
    List<String> rows = new ArrayList<>();
    for (String line : markdown.split("\n")) {
      if (line.startsWith("|") && !line.startsWith("|---") && !line.startsWith("|:")) {
        rows.add(line);
      }
    }
    return rows;
  }

  private static String run(String script, String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of("python3", script));
    command.addAll(List.of(args));
    Process p;
    try {
      p = new ProcessBuilder(command).directory(RESULTS.toFile()).start();
    } catch (IOException e) {
      if (System.getenv("CI") != null) {
        throw new AssertionError("python3 is needed to recompute the results pages (.ci/run"
            + " installs it)", e);
      }
      assumeThat(false).as("python3 on this machine (%s)", e.getMessage()).isTrue();
      throw e;
    }
    p.getOutputStream().close();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    byte[] err = p.getErrorStream().readAllBytes(); // a few lines at most
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as("%s: %s", command, new String(err, StandardCharsets.UTF_8))
        .isZero();
    return out;
  }
}
