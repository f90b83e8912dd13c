package io.github.latencylab.report;

import static io.github.latencylab.report.Cells.measured;
import static io.github.latencylab.report.Cells.results;
import static io.github.latencylab.report.Cells.run;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.latencylab.gate.Baseline;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** results.json: what it holds, and every file the project has committed still reads. */
class ResultsTest {

  @Test
  void writtenThenReadIsTheSameWithServerCountersAndTheModelsCheck(@TempDir Path dir)
      throws Exception {
    List<Cell> cells = new ArrayList<>(run());
    Cell c = measured("copyCsv", "0.5ms", 0.5, 10.5, 2, 1);
    cells.add(new Cell(c.series(), c.rtt(), c.addedRttMs(), c.baselineRttMs(), c.timeMs(),
        c.timeErrorMs(), c.roundTripsPerOp(), c.statementsPerOp(), c.rowsPerSecond(),
        Map.of("walBytesPerOp", 81920.0, "cacheHitRatio", 0.999), null, 0, null));
    cells.add(measured("copyBinary", "0.5ms", 0.5, 9.5, 2, 1).withSpread(
        new TimeSpread(12, 9.4, 9.1, 9.8, "\u00b1 14% of the mean (asked: 10%): why")));
    Results r = results(cells);
    Path file = dir.resolve("results.json");

    r.write(file);

    assertThat(Results.read(file)).isEqualTo(r);
    JsonNode json = new ObjectMapper().readTree(file.toFile());
    JsonNode batch20 = json.at("/measurements/1");
    assertThat(batch20.get("rtt").asText()).isEqualTo("20ms");
    // what a page generator needs to check the model: its time from the cells below
    assertThat(batch20.at("/model/timeMs").asDouble()).isEqualTo(14 + 4 * 19.5);
    assertThat(batch20.at("/model/from/0").asText()).isEqualTo("0.5ms");
    assertThat(json.at("/measurements/0/model").isMissingNode()).isTrue();
    assertThat(json.at("/measurements/3/predicted").asBoolean()).isTrue();
    assertThat(json.at("/measurements/3/note").asText())
        .startsWith("predicted from executeEach at 0.5ms: ");
    assertThat(json.at("/measurements/4/server/walBytesPerOp").asDouble()).isEqualTo(81920);
    assertThat(json.at("/measurements/5/spread/samples").asInt()).isEqualTo(12);
    assertThat(json.at("/measurements/5/spread/noisy").asText()).endsWith(": why");
  }

  @Test
  void everyResultsFileAndTheBaselineInTheRepositoryRead() throws IOException {
    Path root = Path.of("..").toAbsolutePath().normalize();
    List<Path> files;
    try (Stream<Path> all = Files.walk(root.resolve("docs/results"))) {
      files = all.filter(p -> p.getFileName().toString().equals("results.json")).toList();
    }
    assertThat(files).isNotEmpty();
    for (Path f : files) {
      assertThat(Results.read(f).cells()).as(f.toString()).isNotEmpty();
    }
    assertThat(Baseline.read(root.resolve("src/latency-baseline.json")).cells()).isNotEmpty();
  }

  @Test
  void aBadRttNamesTheFileAndTheMeasurement(@TempDir Path dir) throws Exception {
    Path file = Files.writeString(dir.resolve("r.json"), "{\"measurements\": [{\"benchmark\":"
        + " \"S\", \"strategy\": \"s\", \"rtt\": \"0.05ms\"}]}");

    assertThatThrownBy(() -> Results.read(file)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("Cannot read " + file + ", measurement #1: Invalid RTT '0.05ms'");
  }
}
