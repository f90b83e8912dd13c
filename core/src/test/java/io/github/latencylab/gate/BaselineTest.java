package io.github.latencylab.gate;

import static io.github.latencylab.report.Cells.measured;
import static io.github.latencylab.report.Cells.results;
import static io.github.latencylab.report.Cells.run;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.latencylab.gate.Baseline.Tolerances;
import io.github.latencylab.latency.Rtt;
import io.github.latencylab.report.Cell;
import io.github.latencylab.report.Series;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BaselineTest {

  @Test
  void fromResultsKeepsCountsAndTimeRoundedAndThePredictingModel() {
    List<Cell> cells = new ArrayList<>(run());
    cells.add(measured("copyCsv", "0.5ms", 0.5, 10.524119875, 2, 1));

    Baseline b = Baseline.from(results(cells));

    assertThat(b.format()).isEqualTo(2);
    assertThat(b.profile()).isEqualTo("quick");
    assertThat(b.tolerances()).isEqualTo(new Tolerances(3.0, 2.0, 2.0, 0.01));
    Map<String, Cell> byKey = b.byKey();
    assertThat(byKey.get("InsertBenchmark.copyCsv rows=1000 @ 0.5ms"))
        .isEqualTo(new Cell(Series.of("InsertBenchmark", "copyCsv", Map.of("rows", "1000")),
            Rtt.parse("0.5ms"), Double.NaN, Double.NaN, 10.524, Double.NaN, 2, 1, Double.NaN,
            Map.of(), null, 0, null));
    Cell predicted = byKey.get("InsertBenchmark.executeEach rows=1000 @ 20ms");
    assertThat(predicted.predicted()).isTrue();
    assertThat(predicted.prediction()).isEqualTo("predicted from executeEach at 0.5ms");
    assertThat(predicted.timeMs()).isEqualTo(586 + 1000 * 19.5);
  }

  @Test
  void eachKeysOwnEntryIsOnlyOfThatKey() {
    List<Cell> cells = new ArrayList<>(run());
    cells.add(measured("copyCsv", "0.5ms", 0.5, 10.524119875, 2, 1));
    Baseline from = Baseline.from(results(cells));
    String first = from.cells().get(0).key();
    Baseline b = new Baseline(from.format(), from.createdAt(), from.profile(), from.measuredOn(),
        from.tolerances(), from.cells(), from.noise(), Map.of(first, Map.of()),
        Map.of(first, "after 0 tests (e3b0c442)", "a.Gone.test @ 0ms",
            "after 3 tests (0a1b2c3d)"));

    Map<String, Baseline> split = b.onlyByKey();

    assertThat(split.keySet()).containsAll(b.byKey().keySet()).contains("a.Gone.test @ 0ms");
    split.forEach((key, only) -> assertThat(only).as(key)
        .isEqualTo(b.only(java.util.Set.of(key))));
    assertThat(split.get(first).cells()).hasSize(1);
  }

  @Test
  void theModelOfANoteIsTheNoteWithoutItsNumbers() {
    assertThat(Baseline.model("predicted from executeBatch at 0.5ms: 4.840 ms + 3 round trips"
        + " x (20.636 - 0.533) ms")).isEqualTo("predicted from executeBatch at 0.5ms");
    assertThat(Baseline.model("predicted from lazyLoop at 0.5ms, 20ms: least squares over 2"
        + " RTTs, 3.100 ms + 105.200 ms per ms of RTT (102 round trips) x 320.400 ms"))
        .isEqualTo("predicted from lazyLoop at 0.5ms, 20ms");
    assertThat(Baseline.model("predicted by scaling x10 from InsertBenchmark.copyCsv rows=1000"
        + " @ 0.5ms: time, round trips and statements grow with the size"))
        .isEqualTo("predicted by scaling x10 from InsertBenchmark.copyCsv rows=1000 @ 0.5ms");
    // a note of an earlier version, whose scaled notes had no numbers to strip
    assertThat(Baseline.model("predicted: scaled x10 from InsertBenchmark.copyCsv rows=1000"
        + " (time, round trips and statements grow with the size)"))
        .isEqualTo("predicted: scaled x10 from InsertBenchmark.copyCsv rows=1000 (time, round"
            + " trips and statements grow with the size)");
    assertThat(Baseline.model(null)).isEqualTo("predicted");
  }

  @Test
  void writeThenReadGivesTheSameBaseline(@TempDir Path dir) throws Exception {
    List<Cell> cells = new ArrayList<>(run());
    cells.add(measured("RoundTripBenchmark", "selectOne", Map.of(), "0.5ms", 0.5, 0.61,
        1, Double.NaN)); // no statement count: written as null
    Baseline b = new Baseline(Baseline.FORMAT, "2026-11-22T15:00:00Z", "quick", "a machine",
        new Tolerances(2.5, 1.5, 1.0, 0.02), Baseline.from(results(cells)).cells());
    Path file = dir.resolve("src/latency-baseline.json");

    b.write(file);
    Baseline back = Baseline.read(file);

    assertThat(back).isEqualTo(b);
    assertThat(Files.readString(file)).contains("\"statementsPerOp\" : null").endsWith("}\n");
  }

  @Test
  void theFileHasAStableReviewableOrder(@TempDir Path dir) throws Exception {
    List<Cell> cells = new ArrayList<>();
    for (String rtt : new String[] {"320ms", "20ms", "5ms", "0.5ms"}) {
      for (String rows : new String[] {"10000", "100", "1000"}) {
        cells.add(measured("InsertBenchmark", "copyCsv", Map.of("rows", rows), rtt,
            Rtt.parse(rtt).millis(), 10, 2, 1));
      }
    }
    cells.add(0, measured("HibernateInsertBenchmark", "hibernatePersist", Map.of("rows",
        "100"), "0.5ms", 0.5, 100, 101, 102));
    Path a = dir.resolve("a.json");
    Path b = dir.resolve("b.json");
    Baseline baseline = Baseline.from(results(cells));
    baseline.write(a);
    List<Cell> reversed = new ArrayList<>(cells);
    java.util.Collections.reverse(reversed);
    new Baseline(Baseline.FORMAT, baseline.createdAt(), "quick", null, null,
        Baseline.from(results(reversed)).cells()).write(b);

    String text = Files.readString(a);
    assertThat(Files.readString(b)).isEqualTo(text);
    List<String> keys = text.lines().filter(l -> l.startsWith("    \"") && l.endsWith("{")
        && l.contains(" @ "))
        .map(l -> l.substring(5, l.indexOf("\" :"))).toList();
    assertThat(keys).containsExactly(
        "HibernateInsertBenchmark.hibernatePersist rows=100 @ 0.5ms",
        "InsertBenchmark.copyCsv rows=100 @ 0.5ms",
        "InsertBenchmark.copyCsv rows=100 @ 5ms",
        "InsertBenchmark.copyCsv rows=100 @ 20ms",
        "InsertBenchmark.copyCsv rows=100 @ 320ms",
        "InsertBenchmark.copyCsv rows=1000 @ 0.5ms",
        "InsertBenchmark.copyCsv rows=1000 @ 5ms",
        "InsertBenchmark.copyCsv rows=1000 @ 20ms",
        "InsertBenchmark.copyCsv rows=1000 @ 320ms",
        "InsertBenchmark.copyCsv rows=10000 @ 0.5ms",
        "InsertBenchmark.copyCsv rows=10000 @ 5ms",
        "InsertBenchmark.copyCsv rows=10000 @ 20ms",
        "InsertBenchmark.copyCsv rows=10000 @ 320ms");
  }

  @Test
  void anUpdateKeepsTheTolerancesOfTheFile(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("latency-baseline.json");
    Baseline first = Baseline.update(results(run()), file);
    assertThat(first.tolerances()).isEqualTo(Tolerances.DEFAULTS);
    new Baseline(1, null, null, null, new Tolerances(5, 3, 4, 0.1), first.cells()).write(file);

    List<Cell> cells = new ArrayList<>(run());
    cells.add(measured("copyCsv", "0.5ms", 0.5, 10.5, 2, 1));
    Baseline.update(results(cells), file);

    Baseline back = Baseline.read(file);
    assertThat(back.tolerances()).isEqualTo(new Tolerances(5, 3, 4, 0.1));
    assertThat(back.cells()).hasSize(5);
  }

  @Test
  void tolerancesMissingFromTheFileTakeTheirDefaults(@TempDir Path dir) throws Exception {
    Path file = Files.writeString(dir.resolve("b.json"), """
        {
          "tolerances": { "timeRatio": 4 },
          "cells": {
            "InsertBenchmark.copyCsv rows=1000 @ 20ms": {
              "suite": "InsertBenchmark", "strategy": "copyCsv", "params": { "rows": "1000" },
              "rtt": "20ms", "rttMs": 20, "roundTripsPerOp": 2, "statementsPerOp": 1,
              "timeMs": 46.82
            }
          }
        }
        """);

    Baseline b = Baseline.read(file);

    assertThat(b.tolerances()).isEqualTo(new Tolerances(4, 2.0, 2.0, 0.01));
    assertThat(b.cells()).singleElement().satisfies(c -> {
      assertThat(c.key()).isEqualTo("InsertBenchmark.copyCsv rows=1000 @ 20ms");
      assertThat(c.roundTripsPerOp()).isEqualTo(2);
      assertThat(c.predicted()).isFalse();
    });
  }

  @Test
  void badFilesSayWhatIsWrong(@TempDir Path dir) throws Exception {
    Path missing = dir.resolve("latency-baseline.json");
    assertThatThrownBy(() -> Baseline.read(missing))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Cannot read the baseline " + missing + ": no such file (create it with"
            + " -Dlatencylab.updateBaseline=true)");

    Path results = Files.writeString(dir.resolve("r.json"), "[]");
    assertThatThrownBy(() -> Baseline.read(results))
        .hasMessage("Cannot read the baseline " + results + ": expected an object with"
            + " \"cells\" (a latency-lab baseline, format 2)");

    Path tolerance = Files.writeString(dir.resolve("t.json"),
        "{\"tolerances\": {\"timeRatio\": 0.5}, \"cells\": {}}");
    assertThatThrownBy(() -> Baseline.read(tolerance))
        .hasMessage("Cannot read the baseline " + tolerance + ": Invalid baseline tolerance"
            + " timeRatio = 0.5: must be a finite number of at least 1");

    Path cell = Files.writeString(dir.resolve("c.json"),
        "{\"cells\": {\"x @ 1ms\": {\"strategy\": \"x\", \"rtt\": \"1ms\"}}}");
    assertThatThrownBy(() -> Baseline.read(cell))
        .hasMessage("Cannot read the baseline " + cell + ": cell 'x @ 1ms' has no \"suite\"");

    Path future = Files.writeString(dir.resolve("f.json"), "{\"format\": 3, \"cells\": {}}");
    assertThatThrownBy(() -> Baseline.read(future))
        .hasMessage("Cannot read the baseline " + future + ": format 3, this version reads"
            + " formats 1 to 2");
  }
}
