package io.github.latencylab.junit;

import static io.github.latencylab.junit.LabExtensionTest.select;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.testkit.engine.EventConditions.event;
import static org.junit.platform.testkit.engine.EventConditions.finishedSuccessfully;
import static org.junit.platform.testkit.engine.EventConditions.finishedWithFailure;
import static org.junit.platform.testkit.engine.EventConditions.test;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.message;

import io.github.latencylab.report.Baseline;
import io.github.latencylab.report.Cell;
import io.github.latencylab.report.Results;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;

/**
 * The users' report: with latencylab.report=true each test's wire cost goes into results.json,
 * report.md and report.html, priced at 0.5, 20 and 320 ms; the baseline is written on purpose,
 * and a later run whose counts differ fails the test with one line naming it, before -> after,
 * and where the statements come from.
 */
class LatencyReportTest {

  @TempDir
  Path dir;

  @Test
  void aRunWritesTheReportAndTheBaselineThenARegressionFailsItsTest() throws Exception {
    Path report = dir.resolve("latency-report");
    Path baseline = dir.resolve("latency-baseline.json");

    Reported.authors = 3;
    run(report, baseline, true).assertStatistics(stats -> stats.started(2).succeeded(2));
    Map<String, Cell> cells = Baseline.read(baseline).byKey();
    assertThat(cells).containsOnlyKeys("LatencyReportTest.Reported.oneQuery @ 0ms",
        "LatencyReportTest.Reported.queryPerAuthor @ 0ms");
    Cell perAuthor = cells.get("LatencyReportTest.Reported.queryPerAuthor @ 0ms");
    assertThat(perAuthor.roundTripsPerOp()).isEqualTo(3);
    assertThat(perAuthor.statementsPerOp()).isEqualTo(3);
    assertThat(perAuthor.timeMs()).as("the baseline gates counts, never a test's time").isNaN();

    Results results = Results.read(report.resolve("results.json"));
    assertThat(results.kind()).isEqualTo("tests");
    assertThat(results.cells()).extracting(Cell::key).contains(
        "LatencyReportTest.Reported.queryPerAuthor @ 0ms",
        "LatencyReportTest.Reported.queryPerAuthor @ 0.5ms",
        "LatencyReportTest.Reported.queryPerAuthor @ 20ms",
        "LatencyReportTest.Reported.queryPerAuthor @ 320ms");
    String md = Files.readString(report.resolve("report.md"));
    assertThat(md).contains("| queryPerAuthor |  | 3 | 3 |")
        .contains("LatencyReportTest.Reported.queryPerAuthor: 3 round trips, 3 SQL statements,")
        .contains("  repeated: `SELECT ?::int AS n` ran 3 times from `LabExtensionTest.select("
            + "LabExtensionTest.java:");
    assertThat(Files.readString(report.resolve("report.html"))).contains("<svg");

    Reported.authors = 5; // the regression
    Events again = run(report, baseline, false);
    again.assertStatistics(stats -> stats.started(2).succeeded(1).failed(1));
    again.assertThatEvents().haveExactly(1, event(test("oneQuery"), finishedSuccessfully()));
    again.assertThatEvents().haveExactly(1, event(test("queryPerAuthor"), finishedWithFailure(
        message(m -> m.startsWith("latency regression against the baseline (if intended,"
            + " rewrite it with -Dlatencylab.updateBaseline=true and commit it):\n"
            + "LatencyReportTest.Reported.queryPerAuthor @ 0ms: round trips/op 3 -> 5 (must"
            + " match exactly: round trips are deterministic); statements/op 3 -> 5 (must match"
            + " exactly: statements are deterministic); the statements now, by call site:"
            + " 5 x `SELECT ?::int AS n` from `LabExtensionTest.select(LabExtensionTest.java:")
            && m.endsWith(")`")))));
    assertThat(Files.readString(report.resolve("report.md")))
        .contains("Baseline check FAILED: 2 failures, 2 cells compared")
        .contains("### Regressions against the baseline\n\n```\nLatencyReportTest.Reported"
            + ".queryPerAuthor @ 0ms: round trips/op 3 -> 5")
        .contains("FAIL LatencyReportTest.Reported.queryPerAuthor @ 0ms: round trips/op 3 -> 5");
  }

  private static Events run(Path report, Path baseline, boolean update) {
    return EngineTestKit.engine("junit-jupiter")
        .configurationParameter("latencylab.backend", "embedded")
        .configurationParameter("latencylab.report", "true")
        .configurationParameter("latencylab.report.dir", report.toString())
        .configurationParameter("latencylab.report.baseline", baseline.toString())
        .configurationParameter("latencylab.updateBaseline", String.valueOf(update))
        .selectors(selectClass(Reported.class))
        .execute()
        .testEvents();
  }

  /** Run by {@link LatencyReportTest} only. */
  @ExtendWith(LabExtension.class)
  static class Reported {

    static int authors;

    @Test
    void oneQuery(Connection connection) throws Exception {
      select(connection, 1);
    }

    @Test
    void queryPerAuthor(Connection connection) throws Exception {
      for (int i = 0; i < authors; i++) {
        select(connection, 1);
      }
    }
  }
}
