package io.github.latencylab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code ./latency-lab knobs}: the facts each experiment must show, whatever the machine. */
class KnobsCommandTest {

  @Test
  void aSortSpillsUntilItFitsAndARestartEmptiesTheCache(@TempDir Path dir) throws Exception {
    Path json = dir.resolve("knobs.json");
    ReportCommandTest.Run r = ReportCommandTest.run("knobs", "--experiments",
        "wal-buffers,work-mem,cache", "--wal-buffers", "-1,16MB", "--work-mem", "64kB,64MB",
        "--scale", "1", "--duration", "1", "--backend", "embedded", "--json", json.toString());
    assertThat(r.exitCode()).as(r.err()).isZero();
    JsonNode report = new ObjectMapper().readTree(json.toFile());

    JsonNode wal = report.path("walBuffers");
    assertThat(wal.get(0).path("inEffect").asText()).as("-1: 1/32 of 128 MB").isEqualTo("4 MB");
    assertThat(wal.get(1).path("inEffect").asText()).isEqualTo("16 MB");
    assertThat(wal.get(1).path("walBytesPerTransaction").asDouble()).isPositive();

    JsonNode spills = report.path("workMem").get(0);
    assertThat(spills.path("sortMethod").asText()).isEqualTo("external merge");
    assertThat(spills.path("sortSpaceType").asText()).isEqualTo("Disk");
    assertThat(spills.path("tempBytes").asLong()).isPositive();
    assertThat(spills.path("tempFiles").asLong()).isPositive();
    JsonNode fits = report.path("workMem").get(1);
    assertThat(fits.path("sortMethod").asText()).isEqualTo("quicksort");
    assertThat(fits.path("tempBytes").asLong()).isZero();

    JsonNode cache = report.path("cache");
    long pages = cache.path("pages").asLong();
    assertThat(pages).isGreaterThan(3000);
    JsonNode cold = cache.path("runs").get(0);
    JsonNode warm = cache.path("runs").get(1);
    JsonNode prewarmed = cache.path("runs").get(2);
    assertThat(cold.path("sharedRead").asLong()).as("cold").isEqualTo(pages);
    assertThat(warm.path("sharedHit").asLong()).as("warm").isEqualTo(pages);
    assertThat(warm.path("sharedRead").asLong()).isZero();
    assertThat(prewarmed.path("sharedHit").asLong()).as("prewarmed").isEqualTo(pages);
    assertThat(prewarmed.path("sharedRead").asLong()).isZero();
    assertThat(report.path("environment").path("postgresSettings").path("track_io_timing")
        .isMissingNode()).as("restored").isTrue();
  }

  @Test
  void anUnknownExperimentIsNamed() throws Exception {
    assertThat(ReportCommandTest.run("knobs", "--experiments", "vacuum").err())
        .isEqualTo("latency-lab: Invalid --experiments value 'vacuum': expected one or more of"
            + " wal-buffers, work-mem, shared-buffers, cache\n");
  }
}
