package io.github.latencylab.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.latencylab.env.LabEnvironment;
import io.github.latencylab.latency.Link;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One report from runs made suite by suite: their cells joined, never two databases mixed. */
class ResultsMergeTest {

  static LabEnvironment database(String version, String fsync) {
    return new LabEnvironment("embedded", "embedded PostgreSQL on 127.0.0.1:5432", version,
        Map.of("fsync", fsync), "42.7.13", "2.5.0", Map.of(), Link.LINUX.describe(), "17.0.15",
        "OpenJDK",
        "Linux", 2, 6028);
  }

  /** The same database on the machine {@code host}. */
  static LabEnvironment machine(String host, int cpus) {
    LabEnvironment db = database("17.6", "off");
    return new LabEnvironment(db.backend(), "embedded PostgreSQL on 127.0.0.1:" + (5400 + cpus),
        db.postgresVersion(), db.postgresSettings(), db.pgjdbcVersion(), db.toxiproxyVersion(),
        db.libraries(), db.link(), db.javaVersion(), db.javaVm(), "Linux 6.8 amd64", cpus, 6028,
        host);
  }

  static Results run(String createdAt, String profile, LabEnvironment env,
      List<Cell> cells) {
    return new Results("bench", createdAt, profile, env, cells);
  }

  static List<Map.Entry<Path, Results>> runs(Results a, Results b) {
    return List.of(Map.entry(Path.of("n-plus-one/results.json"), a),
        Map.entry(Path.of("inserts/results.json"), b));
  }

  @Test
  void joinsTheCellsOfRunsOnOneDatabase() {
    List<Cell> cells = Cells.run();
    Results merged = Results.merge(runs(
        run("2026-11-22T17:00:00Z", "full", database("17.6", "off"), cells.subList(0, 2)),
        run("2026-11-22T18:00:00Z", "full", database("17.6", "off"), cells.subList(2, 4))));

    assertThat(merged.cells()).containsExactlyElementsOf(cells);
    assertThat(merged.createdAt()).isEqualTo("2026-11-22T18:00:00Z");
    assertThat(merged.profile()).isEqualTo("full");
    assertThat(merged.environment()).isEqualTo(database("17.6", "off"));
  }

  @Test
  void namesEveryProfileWhenTheyDiffer() {
    List<Cell> cells = Cells.run();
    Results merged = Results.merge(runs(
        run("2026-11-22T17:00:00Z", "full", null, cells.subList(0, 1)),
        run("2026-11-22T18:00:00Z", "quick", null, cells.subList(1, 2))));

    assertThat(merged.profile()).isEqualTo("full+quick");
  }

  @Test
  void refusesRunsOnDifferentDatabasesNamingTheFilesAndTheDifference() {
    List<Cell> cells = Cells.run();
    assertThatThrownBy(() -> Results.merge(runs(
        run("a", "full", database("17.6", "off"), cells.subList(0, 2)),
        run("b", "full", database("16.4", "off"), cells.subList(2, 4)))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Cannot merge inserts/results.json with n-plus-one/results.json: measured"
            + " on a different database (PostgreSQL 17.6 vs 16.4)");
    assertThatThrownBy(() -> Results.merge(runs(
        run("a", "full", database("17.6", "off"), cells.subList(0, 2)),
        run("b", "full", database("17.6", "on"), cells.subList(2, 4)))))
        .hasMessage("Cannot merge inserts/results.json with n-plus-one/results.json: measured"
            + " on a different database (settings {fsync=off} vs {fsync=on})");
  }

  @Test
  void refusesACellMeasuredTwice() {
    List<Cell> cells = Cells.run();
    assertThatThrownBy(() -> Results.merge(runs(
        run("a", "full", null, cells.subList(0, 2)),
        run("b", "full", null, cells.subList(1, 3)))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Cannot merge inserts/results.json with n-plus-one/results.json: both have"
            + " the cell InsertBenchmark.executeBatch rows=1000 @ 20ms");
  }

  @Test
  void shardsOfTwoMachinesMergeEachCellMarkedWithItsMachine(@TempDir Path dir) {
    // two CI runners, one database's settings: executeBatch's row on one, executeEach's on the other
    List<Cell> cells = Cells.run();
    Results merged = Results.merge(List.of(
        Map.entry(Path.of("shard-1/results.json"),
            run("2026-11-22T17:00:00Z", "full", machine("runner-a", 2), cells.subList(0, 2))),
        Map.entry(Path.of("shard-2/results.json"),
            run("2026-11-22T17:05:00Z", "full", machine("runner-b", 4), cells.subList(2, 4)))));

    assertThat(merged.cells()).containsExactlyElementsOf(cells);
    assertThat(merged.machines()).as("each shard's environment, kept")
        .containsExactly(Map.entry("runner-a", machine("runner-a", 2)),
            Map.entry("runner-b", machine("runner-b", 4)));
    assertThat(cells).extracting(merged::machine)
        .containsExactly("runner-a", "runner-a", "runner-b", "runner-b");
    assertThat(merged.environment(cells.get(3))).isEqualTo(machine("runner-b", 4));

    // written and read back, the marks stay
    Results read = Results.read(write(merged, dir.resolve("merged.json")));
    assertThat(read.machines()).isEqualTo(merged.machines());
    assertThat(cells).extracting(read::machine)
        .containsExactly("runner-a", "runner-a", "runner-b", "runner-b");

    String md = MarkdownReport.render(merged);
    assertThat(md).contains(Results.MACHINES_NOTE)
        .contains("| strategy | parameters | machine | round trips/op |")
        .contains("| executeBatch | rows=1000 | runner-a | 4 |")
        .contains("| executeEach | rows=1000 | runner-b | 1,000 |")
        .contains("- machine runner-a: Linux 6.8 amd64, 2 CPUs, Java 17.0.15\n"
            + "- machine runner-b: Linux 6.8 amd64, 4 CPUs, Java 17.0.15\n");
    assertThat(HtmlReport.render(merged)).contains(HtmlReport.esc(Results.MACHINES_NOTE))
        .contains("<th>machine</th>").contains("<td>runner-b</td>");
  }

  @Test
  void runsOfOneMachineMergeUnmarked() {
    List<Cell> cells = Cells.run();
    Results merged = Results.merge(runs(
        run("a", "full", machine("runner-a", 2), cells.subList(0, 2)),
        run("b", "full", machine("runner-a", 2), cells.subList(2, 4))));

    assertThat(merged.machines()).isEmpty();
    assertThat(merged.machine(cells.get(3))).isNull();
    assertThat(MarkdownReport.render(merged)).doesNotContain(Results.MACHINES_NOTE)
        .doesNotContain("| machine |");
  }

  @Test
  void twoMachinesOfOneHostNameAreToldApart() {
    List<Cell> cells = Cells.run();
    Results merged = Results.merge(runs(
        run("a", "full", machine("runner", 2), cells.subList(0, 2)),
        run("b", "full", machine("runner", 4), cells.subList(2, 4))));

    assertThat(merged.machines()).containsOnlyKeys("runner", "runner #2");
  }

  @Test
  void machinesStillNeedOneDatabase() {
    LabEnvironment other = machine("runner-b", 4);
    LabEnvironment otherDatabase = new LabEnvironment(other.backend(), other.description(),
        "16.4", other.postgresSettings(), other.pgjdbcVersion(), other.toxiproxyVersion(),
        other.libraries(), other.link(), other.javaVersion(), other.javaVm(), other.os(),
        other.cpus(), other.maxHeapMb(), other.host());
    List<Cell> cells = Cells.run();
    assertThatThrownBy(() -> Results.merge(runs(
        run("a", "full", machine("runner-a", 2), cells.subList(0, 2)),
        run("b", "full", otherDatabase, cells.subList(2, 4)))))
        .hasMessage("Cannot merge inserts/results.json with n-plus-one/results.json: measured"
            + " on a different database (PostgreSQL 17.6 vs 16.4)");
  }

  private static Path write(Results results, Path file) {
    try {
      results.write(file);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    return file;
  }
}
