package io.github.latencylab.junit;

import static io.github.latencylab.junit.LabExtensionTest.select;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.testkit.engine.EventConditions.event;
import static org.junit.platform.testkit.engine.EventConditions.finishedSuccessfully;
import static org.junit.platform.testkit.engine.EventConditions.finishedWithFailure;
import static org.junit.platform.testkit.engine.EventConditions.test;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.message;

import io.github.latencylab.gate.Baseline;
import io.github.latencylab.junit.a.SameName;
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

  /** The row of a test of {@link Reported}: its class's full name. */
  static final String REPORTED = Reported.class.getName() + ".";

  @TempDir
  Path dir;

  @Test
  void aRunWritesTheReportAndTheBaselineThenARegressionFailsItsTest() throws Exception {
    Path report = dir.resolve("latency-report");
    Path baseline = dir.resolve("latency-baseline.json");

    Reported.authors = 3;
    run(report, baseline, true).assertStatistics(stats -> stats.started(2).succeeded(2));
    Map<String, Cell> cells = Baseline.read(baseline).byKey();
    assertThat(cells).containsOnlyKeys(REPORTED + "oneQuery @ 0ms",
        REPORTED + "queryPerAuthor @ 0ms");
    Cell perAuthor = cells.get(REPORTED + "queryPerAuthor @ 0ms");
    assertThat(perAuthor.roundTripsPerOp()).isEqualTo(3);
    assertThat(perAuthor.statementsPerOp()).isEqualTo(3);
    assertThat(perAuthor.timeMs()).as("the baseline gates counts, never a test's time").isNaN();

    Results results = Results.read(report.resolve("results.json"));
    assertThat(results.kind()).isEqualTo("tests");
    assertThat(results.cells()).extracting(Cell::key).contains(
        REPORTED + "queryPerAuthor @ 0ms",
        REPORTED + "queryPerAuthor @ 0.5ms",
        REPORTED + "queryPerAuthor @ 20ms",
        REPORTED + "queryPerAuthor @ 320ms");
    String md = Files.readString(report.resolve("report.md"));
    assertThat(md).contains("| queryPerAuthor |  | 3 | 3 |")
        .contains(REPORTED + "queryPerAuthor: 3 round trips, 3 SQL statements,")
        .contains("  repeated: `SELECT ?::int AS n` ran 3 times from `LabExtensionTest.select("
            + "LabExtensionTest.java:");
    assertThat(Files.readString(report.resolve("report.html"))).contains("<svg");
    // both tests' 1 + 3 round trips come from one line: 4 x 20 and 4 x 80 ms; one per test
    // would leave 2, saving 2 x 80 ms
    assertThat(md).contains("### Where a region move would hurt: the application's lines by"
        + " round trips, all tests").containsPattern("\\n`?LabExtensionTest\\.select\\("
            + "LabExtensionTest\\.java:\\d+\\)`? +2 +4 +80(\\.0+)? ms +320(\\.0+)? ms"
            + " +160(\\.0+)? ms"
            + " \\(2 round trips\\)\\n");

    Reported.authors = 5; // the regression
    Events again = run(report, baseline, false);
    again.assertStatistics(stats -> stats.started(2).succeeded(1).failed(1));
    again.assertThatEvents().haveExactly(1, event(test("oneQuery"), finishedSuccessfully()));
    again.assertThatEvents().haveExactly(1, event(test("queryPerAuthor"), finishedWithFailure(
        message(m -> m.startsWith("latency regression against the baseline (if intended,"
            + " rewrite it with -Dlatencylab.updateBaseline=true and commit it):\n"
            + REPORTED + "queryPerAuthor @ 0ms: round"
            + " trips/op 3 -> 5 (+2: +2 ms/op at 1ms, +10 ms/op at 5ms, +40 ms/op at 20ms, +160"
            + " ms/op at 80ms, +640 ms/op at 320ms; +40.00 s per 1,000 ops at 20ms; must match"
            + " exactly: round trips are deterministic); statements/op 3 -> 5 (must match"
            + " exactly: statements are deterministic); the statements now, by call site:"
            + " 5 x `SELECT ?::int AS n` from `LabExtensionTest.select(LabExtensionTest.java:")
            // the N+1 the baseline run had, in more round trips: the findings' ratchet too
            && m.contains(")`\nlatency-lab findings the committed ones do not allow (if"
                + " intended, rewrite them with -Dlatencylab.updateBaseline=true and commit"
                + " them):\nmore expensive N+1: `SELECT ?::int AS n` ran 5 times in 5 round"
                + " trips from `LatencyReportTest$Reported.queryPerAuthor(")
            && m.endsWith(": 5 round trips in this test, 3 allowed by "
                + baseline.resolveSibling("latency-findings.json"))))));
    assertThat(Files.readString(report.resolve("report.md")))
        .contains("Baseline check FAILED: 2 failures, 2 cells compared")
        .contains("### Regressions against the baseline\n\n```\nio.github.latencylab.junit"
            + ".LatencyReportTest$Reported.queryPerAuthor @ 0ms: round trips/op 3 -> 5")
        .contains("FAIL io.github.latencylab.junit.LatencyReportTest$Reported.queryPerAuthor"
            + " @ 0ms: round trips/op 3 -> 5");
  }

  @Test
  void twoClassesOfOneSimpleNameAndEveryInvocationKeepARowEach() throws Exception {
    Path report = dir.resolve("latency-report");
    Path baseline = dir.resolve("latency-baseline.json");
    run(report, baseline, true, SameName.class, io.github.latencylab.junit.b.SameName.class)
        .assertStatistics(stats -> stats.started(6).succeeded(6));

    String a = "io.github.latencylab.junit.a.SameName.";
    String b = "io.github.latencylab.junit.b.SameName.";
    Map<String, Cell> cells = Baseline.read(baseline).byKey();
    assertThat(cells).containsOnlyKeys(a + "sameMethod @ 0ms", b + "sameMethod @ 0ms",
        b + "selects[1] @ 0ms", b + "selects[2] @ 0ms", b + "dynamic[1] @ 0ms",
        b + "dynamic[2] @ 0ms");
    assertThat(cells.get(a + "sameMethod @ 0ms").roundTripsPerOp()).isEqualTo(1);
    assertThat(cells.get(b + "sameMethod @ 0ms").roundTripsPerOp()).isEqualTo(2);
    assertThat(cells.get(b + "selects[2] @ 0ms").roundTripsPerOp()).isEqualTo(3);
    assertThat(cells.get(b + "dynamic[2] @ 0ms").roundTripsPerOp()).isEqualTo(4);
    assertThat(Files.readString(report.resolve("report.md")))
        .as("the shortest names that tell them apart")
        .contains("### a.SameName\n").contains("### b.SameName\n");

    // the same two classes against that baseline: both pass, each on its own row
    run(report, baseline, false, SameName.class, io.github.latencylab.junit.b.SameName.class)
        .assertStatistics(stats -> stats.started(6).succeeded(6));
    assertThat(Files.readString(report.resolve("report.md")))
        .contains("Baseline check passed: 6 cells compared");
  }

  @Test
  void aBaselineKeyedBySimpleNamesIsRefusedWithOneLine() throws Exception {
    Path report = dir.resolve("latency-report");
    Path baseline = dir.resolve("latency-baseline.json");
    run(report, baseline, true, SameName.class).assertStatistics(stats -> stats.succeeded(1));
    Files.writeString(baseline, Files.readString(baseline)
        .replace("\"format\" : 2", "\"format\" : 1"));

    run(report, baseline, false, SameName.class).assertThatEvents().haveExactly(1,
        event(test("sameMethod"), finishedWithFailure(message("The baseline " + baseline
            + " keys tests by their simple class names (format 1, latency-lab 0.1.0), so two"
            + " classes of one name would share a row: rewrite it with"
            + " -Dlatencylab.updateBaseline=true, review it, commit it"))));
  }

  private static Events run(Path report, Path baseline, boolean update) {
    return run(report, baseline, update, Reported.class);
  }

  static Events run(Path report, Path baseline, boolean update, Class<?>... classes) {
    return EngineTestKit.engine("junit-jupiter")
        .configurationParameter("latencylab.backend", "embedded")
        .configurationParameter("latencylab.report", "true")
        .configurationParameter("latencylab.report.dir", report.toString())
        .configurationParameter("latencylab.report.baseline", baseline.toString())
        .configurationParameter("latencylab.findings",
            baseline.resolveSibling("latency-findings.json").toString())
        .configurationParameter("latencylab.updateBaseline", String.valueOf(update))
        .selectors(java.util.Arrays.stream(classes).map(c -> selectClass(c))
            .toArray(org.junit.platform.engine.DiscoverySelector[]::new))
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
