package io.github.latencylab.bench.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.github.latencylab.latency.Rtt;
import io.github.latencylab.report.Cell;
import io.github.latencylab.report.ReportWriter;
import io.github.latencylab.report.Results;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JmhJsonTest {

  /** JMH's JSON of real runs here; latency-lab's results.json in core's test resources. */
  static Path fixture(String name) {
    return name.startsWith("jmh-") ? Path.of("src/test/resources/report", name)
        : Path.of("../core/src/test/resources/report", name);
  }

  static Cell cell(Results r, String strategy, String rows, String rtt) {
    return r.cells().stream()
        .filter(m -> m.strategy().equals(strategy) && rows.equals(m.params().get("rows"))
            && m.rtt().toString().equals(rtt))
        .findFirst().orElseThrow();
  }

  @Test
  void aRealRunsJsonBecomesCellsWithTheirSecondaryMetrics() {
    Results r = JmhJson.read(fixture("jmh-insert.json"));

    assertThat(r.kind()).isEqualTo("jmh");
    assertThat(r.cells()).hasSize(8);
    Cell m = cell(r, "multiRowValues", "10000", "20ms");
    assertThat(m.suite()).isEqualTo("InsertBenchmark");
    assertThat(m.params()).isEqualTo(Map.of("rows", "10000")); // rtt is not a parameter
    assertThat(m.rtt().millis()).isEqualTo(20.0);
    assertThat(m.timeMs()).isEqualTo(302.64634375);
    assertThat(m.timeErrorMs()).isNaN(); // JMH wrote "NaN"
    assertThat(m.roundTripsPerOp()).isEqualTo(11.0);
    assertThat(m.statementsPerOp()).isEqualTo(12.0);
    assertThat(m.rowsPerSecond()).isEqualTo(31787.56916568006);
    assertThat(m.addedRttMs()).isEqualTo(20.635970108108108);
    assertThat(m.baselineRttMs()).isEqualTo(0.3442193648648649);
    assertThat(m.predicted()).isFalse();

    Cell low = cell(r, "copyCsv", "1000", "0.5ms");
    assertThat(low.rtt().millis()).isEqualTo(0.5);
    assertThat(low.timeMs()).isEqualTo(10.524119875);
    assertThat(low.roundTripsPerOp()).isEqualTo(2.0);
    assertThat(low.statementsPerOp()).isEqualTo(1.0);
  }

  @Test
  void theEnvironmentIsWhatJmhRecordedAndTheDatabaseSideUnknown(@TempDir Path dir)
      throws Exception {
    Results r = JmhJson.read(fixture("jmh-insert.json"));

    assertThat(r.environment().backend()).isEqualTo("unknown");
    assertThat(r.environment().javaVersion()).isEqualTo("17.0.15");
    assertThat(r.environment().javaVm())
        .isEqualTo("OpenJDK 64-Bit Server VM 17.0.15+6-Debian-1deb12u1");
    assertThat(r.environment().postgresVersion()).isNull();
    assertThat(r.environment().description()).contains("jmh-insert.json", "JMH 1.37");
    ReportWriter.write(r, dir);
    assertThat(Files.readString(dir.resolve("report.md"))).doesNotContain("null")
        .contains("Java 17.0.15");
  }

  @Test
  void everyUnitBecomesMillisecondsPerOperation() {
    Results r = JmhJson.read(fixture("jmh-units.json"));

    Cell us = r.cells().get(0); // 35,200 us/op +- 1,200
    assertThat(us.timeMs()).isCloseTo(35.2, within(1e-9));
    assertThat(us.timeErrorMs()).isCloseTo(1.2, within(1e-9));
    assertThat(us.rtt()).isEqualTo(Rtt.parse("20ms"));
    assertThat(us.addedRttMs()).isEqualTo(20.31);
    assertThat(us.roundTripsPerOp()).isEqualTo(4.0);

    Cell s = r.cells().get(1); // 0.586 s/op, no secondary metrics
    assertThat(s.timeMs()).isCloseTo(586, within(1e-9));
    assertThat(s.roundTripsPerOp()).isNaN();
    assertThat(s.addedRttMs()).isEqualTo(0.5); // the setting, for want of a measurement

    Cell thrpt = r.cells().get(2); // 400 ops/s +- 40: 2.5 ms/op +- 0.25
    assertThat(thrpt.timeMs()).isCloseTo(2.5, within(1e-9));
    assertThat(thrpt.timeErrorMs()).isCloseTo(0.25, within(1e-9));
    assertThat(thrpt.suite()).isEqualTo("RoundTripBenchmark");
    assertThat(thrpt.strategy()).isEqualTo("selectOne");
    assertThat(thrpt.params()).isEmpty();
    assertThat(thrpt.rtt()).isEqualTo(Rtt.parse("1ms")); // from the runner's JVM argument
    assertThat(thrpt.rtt().millis()).isEqualTo(1.0);
    assertThat(thrpt.addedRttMs()).isEqualTo(1.04);

    Cell ns = r.cells().get(3); // 250,000 ns/op, no rtt anywhere
    assertThat(ns.timeMs()).isCloseTo(0.25, within(1e-12));
    assertThat(ns.suite()).isEqualTo("Other");
    assertThat(ns.params()).isEqualTo(Map.of("size", "10"));
    assertThat(ns.rtt()).isEqualTo(Rtt.parse("0ms"));
    assertThat(ns.rtt().millis()).isZero();
  }

  @Test
  void ourOwnResultsJsonIsRecognisedByItsShape() {
    Results r = JmhJson.read(fixture("results-hibernate.json"));

    assertThat(r.kind()).isEqualTo("bench");
    assertThat(r.profile()).isEqualTo("quick");
    assertThat(r.environment().postgresVersion()).isEqualTo("17.6");
    assertThat(r.cells()).hasSize(6);
    Cell predicted = cell(r, "hibernatePersist", "10000", "0.5ms");
    assertThat(predicted.predicted()).isTrue();
    assertThat(predicted.note()).startsWith("predicted: scaled x10 from");
    assertThat(predicted.timeErrorMs()).isNaN();
    assertThat(predicted.roundTripsPerOp()).isEqualTo(10010.0);
  }

  @Test
  void aResultsJsonWithFieldsThisVersionDoesNotKnowStillReads(@TempDir Path dir)
      throws Exception {
    String json = Files.readString(fixture("results-hibernate.json"))
        .replace("\"kind\": \"bench\",", "\"kind\": \"bench\", \"gitCommit\": \"abc\",")
        .replace("\"predicted\": false,", "\"predicted\": false, \"p99Ms\": 1.5,");
    assertThat(json).contains("gitCommit", "p99Ms");
    Path file = Files.writeString(dir.resolve("results.json"), json);

    assertThat(JmhJson.read(file)).isEqualTo(JmhJson.read(fixture("results-hibernate.json")));
  }

  @Test
  void serverCountersAreTheSecondaryMetricsNamedServerAndOldFilesHaveNone(@TempDir Path dir)
      throws Exception {
    assertThat(JmhJson.serverCounter("serverWalBytesPerOp")).isEqualTo("walBytesPerOp");
    assertThat(JmhJson.serverCounter("serverCacheHitRatio")).isEqualTo("cacheHitRatio");
    assertThat(JmhJson.serverCounter("serverless")).isNull();
    assertThat(JmhJson.serverCounter("roundTripsPerOp")).isNull();

    Results old = JmhJson.read(fixture("results-hibernate.json"));
    assertThat(old.cells()).allSatisfy(c -> assertThat(c.server()).isEmpty());

    Cell c = old.cells().get(0);
    Cell counted = new Cell(c.series(), c.rtt(), c.addedRttMs(), c.baselineRttMs(), c.timeMs(),
        c.timeErrorMs(), c.roundTripsPerOp(), c.statementsPerOp(), c.rowsPerSecond(),
        Map.of("walBytesPerOp", 412.5, "commitsPerOp", 1.0), null, 0, null);
    Path file = dir.resolve("results.json");
    new Results("bench", null, null, old.environment(), java.util.List.of(counted)).write(file);
    assertThat(JmhJson.read(file).cells().get(0).server())
        .containsOnly(Map.entry("commitsPerOp", 1.0), Map.entry("walBytesPerOp", 412.5));
  }

  @Test
  void aMissingFileIsNamed() {
    Path missing = Path.of("src/test/resources/report/no-such.json");
    assertThatThrownBy(() -> JmhJson.read(missing))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Cannot read " + missing + ": no such file");
  }

  @Test
  void aDirectoryIsNotAResultFile(@TempDir Path dir) {
    assertThatThrownBy(() -> JmhJson.read(dir))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Cannot read " + dir + ": a directory, not a file (expected JMH's JSON"
            + " results or a results.json)");
  }

  @Test
  void badContentSaysWhatIsWrong(@TempDir Path dir) throws Exception {
    Path notJson = Files.writeString(dir.resolve("a.json"), "# Benchmark results\n| x |\n");
    assertThatThrownBy(() -> JmhJson.read(notJson))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("Cannot read " + notJson + ": not JSON (")
        .hasMessageEndingWith(" at line 1)");

    Path empty = Files.writeString(dir.resolve("empty.json"), "");
    assertThatThrownBy(() -> JmhJson.read(empty))
        .hasMessage("Cannot read " + empty + ": the file is empty");

    Path none = Files.writeString(dir.resolve("none.json"), "[ ]");
    assertThatThrownBy(() -> JmhJson.read(none))
        .hasMessage("No benchmark in " + none + ": JMH's JSON results are an empty array");

    Path other = Files.writeString(dir.resolve("other.json"), "{\"rows\": 3}");
    assertThatThrownBy(() -> JmhJson.read(other))
        .hasMessage("Cannot read " + other + ": neither JMH's JSON results (an array of"
            + " benchmarks) nor latency-lab's results.json (an object with measurements)");

    Path noCells = Files.writeString(dir.resolve("results.json"),
        "{\"kind\": \"bench\", \"measurements\": []}");
    assertThatThrownBy(() -> JmhJson.read(noCells))
        .hasMessage("No benchmark in " + noCells + ": its measurements are empty");

    Path notABenchmark = Files.writeString(dir.resolve("b.json"),
        "[{\"benchmark\": \"a.B.c\", \"primaryMetric\": {\"score\": 1, \"scoreUnit\":"
            + " \"ms/op\"}}, {\"name\": \"x\"}]");
    assertThatThrownBy(() -> JmhJson.read(notABenchmark))
        .hasMessage("Cannot read " + notABenchmark + ", benchmark #2: not a JMH result (no"
            + " \"benchmark\" and \"primaryMetric\")");

    Path badUnit = Files.writeString(dir.resolve("u.json"),
        "[{\"benchmark\": \"a.B.c\", \"primaryMetric\": {\"score\": 1, \"scoreUnit\":"
            + " \"furlongs\"}}]");
    assertThatThrownBy(() -> JmhJson.read(badUnit))
        .hasMessage("Cannot read " + badUnit + ", benchmark #1 (a.B.c): unknown score unit"
            + " 'furlongs' (expected a time per operation such as ms/op, or a throughput such"
            + " as ops/s)");

    Path badRtt = Files.writeString(dir.resolve("r.json"),
        "[{\"benchmark\": \"a.B.c\", \"params\": {\"rtt\": \"fast\"}, \"primaryMetric\":"
            + " {\"score\": 1, \"scoreUnit\": \"ms/op\"}}]");
    assertThatThrownBy(() -> JmhJson.read(badRtt))
        .hasMessage("Cannot read " + badRtt + ", benchmark #1 (a.B.c): Invalid RTT 'fast':"
            + " expected a non-negative number and a unit (us, ms, s), e.g. 0.25ms, 20ms, 320ms");
  }
}
