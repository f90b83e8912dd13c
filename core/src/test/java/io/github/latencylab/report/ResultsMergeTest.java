package io.github.latencylab.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.latencylab.env.LabEnvironment;
import io.github.latencylab.latency.Link;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** One report from runs made suite by suite: their cells joined, never two databases mixed. */
class ResultsMergeTest {

  static LabEnvironment database(String version, String fsync) {
    return new LabEnvironment("embedded", "embedded PostgreSQL on 127.0.0.1:5432", version,
        Map.of("fsync", fsync), "42.7.13", "2.5.0", Map.of(), Link.LINUX.describe(), "17.0.15",
        "OpenJDK",
        "Linux", 2, 6028);
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
}
