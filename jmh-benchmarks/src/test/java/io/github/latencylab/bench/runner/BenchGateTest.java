package io.github.latencylab.bench.runner;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.latencylab.gate.Baseline;
import io.github.latencylab.gate.Baseline.Tolerances;
import io.github.latencylab.latency.Rtt;
import io.github.latencylab.report.Cell;
import io.github.latencylab.report.Results;
import io.github.latencylab.report.Series;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The regression gate on a real bench of one cell: a cell that fails on time alone is measured
 * once more, and fails the run only when it fails again. Here it must: the baseline says
 * {@code SELECT 1} takes a microsecond.
 */
@Tag("alone") // runs JMH: runs alone, after the other tests (pom.xml)
class BenchGateTest {

  @Test
  void aTimeFailureThatReproducesFailsTheRunAfterOneMoreMeasurement(@TempDir Path dir)
      throws Exception {
    Path baseline = dir.resolve("latency-baseline.json");
    Series selectOne = Series.of("RoundTripBenchmark", "selectOne", Map.of());
    new Baseline(Baseline.FORMAT, null, "verify", null, new Tolerances(1, 1, 0, 0.01),
        List.of(new Cell(selectOne, Rtt.ZERO, Double.NaN, Double.NaN, 0.001,
            Double.NaN, 1, 1, Double.NaN, Map.of(), null, 0, null))).write(baseline);
    Path out = dir.resolve("out");

    // the gate, not the latency, is under test: at 0 ms there are no toxics to calibrate
    int exit = new CommandLine(new BenchCommand()).execute("--backend=embedded",
        "--profile=verify", "--include=RoundTripBenchmark.selectOne$", "--rtt=0ms",
        "--out=" + out, "--baseline=" + baseline);

    assertThat(exit).isEqualTo(1);
    String key = "RoundTripBenchmark.selectOne @ 0ms";
    assertThat(Files.readString(out.resolve("baseline-comparison.txt")))
        .startsWith("Baseline check FAILED: 1 failure, 1 cell compared")
        .contains("FAIL " + key + ": time/op 1 µs -> ")
        .contains("INFO " + key + ": measured again after failing on time alone; the first"
            + " measurement, not kept: ");
    // the second measurement is the one the results keep
    assertThat(Results.read(out.resolve("results.json")).cells()).singleElement()
        .satisfies(c -> assertThat(c.roundTripsPerOp()).isEqualTo(1));
  }
}
