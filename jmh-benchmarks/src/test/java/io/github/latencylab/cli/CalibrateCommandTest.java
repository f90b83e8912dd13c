package io.github.latencylab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code ./latency-lab calibrate}: the JSON keeps the paired samples, the charts draw them. */
class CalibrateCommandTest {

  private static int run(StringWriter err, String... args) {
    CommandLine cl = new CommandLine(new CalibrateCommand());
    cl.setErr(new PrintWriter(err, true));
    return cl.execute(args);
  }

  @Test
  void writesThePairedSamplesAndAHistogramBesideAnEarlierRun(@TempDir Path dir) throws Exception {
    // an earlier run, as --json writes it (a few samples of whole-millisecond toxics at 0.5 ms)
    Path before = Files.writeString(dir.resolve("before.json"), "{\"toxics\": \"whole-ms\","
        + " \"rows\": [{\"configured\": \"0.5ms\", \"addedSamplesMs\": [0.02, 0.03, 1.1, 2.2]}]}");
    Path json = dir.resolve("after.json");
    StringWriter err = new StringWriter();
    int code = run(err, "--backend", "embedded", "--rtt", "0.5ms", "--samples", "40", "--json",
        json.toString(), "--charts", dir.toString(), "--before", before.toString());

    assertThat(code).as(err.toString()).isZero();
    JsonNode report = new ObjectMapper().readTree(json.toFile());
    assertThat(report.path("toxics").asText()).isEqualTo("latency_us");
    JsonNode row = report.at("/rows/0");
    assertThat(row.path("configured").asText()).isEqualTo("0.5ms");
    assertThat(row.path("toxics").asText()).matches("0\\.\\d+ms up, 0\\.\\d+ms down");
    assertThat(row.path("addedSamplesMs")).hasSize(40);
    assertThat(row.path("addedP1Ms").asDouble()).isLessThanOrEqualTo(row.path("addedP50Ms")
        .asDouble());
    assertThat(row.path("addedP50Ms").asDouble()).isLessThanOrEqualTo(row.path("addedP99Ms")
        .asDouble());
    assertThat(Files.readString(dir.resolve("added-rtt-0.5ms.svg")))
        .contains("data-series=\"whole-millisecond toxics\"")
        .contains("data-series=\"latency_us toxics (per round trip)\"")
        .contains(">setting 0.5 ms<");
  }

  @Test
  void beforeWithoutChartsIsAUsageError() {
    StringWriter err = new StringWriter();
    assertThat(run(err, "--before", "x.json")).isEqualTo(2);
    assertThat(err.toString()).contains("--before needs --charts DIR").contains("Usage: calibrate");
  }

  @Test
  void anEarlierRunWithoutSamplesIsNamed(@TempDir Path dir) throws Exception {
    Path old = Files.writeString(dir.resolve("old.json"),
        "{\"rows\": [{\"configured\": \"0.5ms\", \"addedMeanMs\": 0.54}]}");
    StringWriter err = new StringWriter();
    assertThat(run(err, "--charts", dir.toString(), "--before", old.toString())).isEqualTo(2);
    assertThat(err.toString()).contains("--before " + old + ": row 0.5ms has no addedSamplesMs"
        + " (written before calibrate kept samples? run it again with --json)");
  }
}
