package io.github.latencylab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import io.github.latencylab.cli.DemoReport.AtRtt;
import io.github.latencylab.cli.DemoReport.Row;
import io.github.latencylab.latency.Rtt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

/** {@code ./latency-lab demo}: a real run on the embedded backend, and bad options. */
class DemoCommandTest {

  record Result(int exitCode, String out, String err) {
  }

  static Result run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cl = new CommandLine(new DemoCommand());
    cl.setOut(new PrintWriter(out, true));
    cl.setErr(new PrintWriter(err, true));
    int code = cl.execute(args);
    return new Result(code, out.toString(), err.toString());
  }

  @Test
  void runsTheStrategiesAndReportsWhatTheWireSaw(@TempDir Path dir) throws Exception {
    Path json = dir.resolve("demo.json");
    Path svg = dir.resolve("demo.svg");
    Result result = run("--backend", "embedded", "--rtt", "1ms", "--parents", "20",
        "--children", "3", "--strategy", "lazyLoop,joinFetch,batchFetch16,manyToOneLazyLoop",
        "--runs", "1", "--json", json.toString(), "--svg", svg.toString());

    assertThat(result.exitCode()).as(result.err()).isZero();
    assertThat(result.out())
        .contains("20 authors with their books (one-to-many)")
        // statements, round trips, window flights (60 small rows fit a cold window)
        .containsPattern("\nlazyLoop +21 +22 +0 +[\\d.,]+ m?s ")
        .containsPattern("\njoinFetch +1 +2 +0 +[\\d.,]+ m?s ")
        .containsPattern("\nbatchFetch16 +3 +4 +0 +[\\d.,]+ m?s ") // 1 + ceil(20 / 16)
        .containsPattern("\nmanyToOneLazyLoop +21 +22 +0 +[\\d.,]+ m?s ")
        .contains("What the N+1 (lazyLoop) sent, read at the wire: 21 SQL statements,"
            + " the first 4:")
        .contains("... and 17 more like it")
        .contains("PREDICTED at other latencies, not measured")
        .contains("Checked: the 3 strategies returned the same 20 authors and 60 books.")
        .doesNotContain("\u001b["); // no colour when stdout is not a terminal

    JsonNode report = new ObjectMapper().readTree(json.toFile());
    JsonNode lazy = report.at("/rtts/0/strategies/0");
    assertThat(lazy.get("strategy").asText()).isEqualTo("lazyLoop");
    assertThat(lazy.get("sqlStatements").asLong()).isEqualTo(21);
    assertThat(lazy.get("roundTrips").asLong()).isEqualTo(22);
    assertThat(report.at("/rtts/0/addedMeanMs").asDouble()).isPositive();
    JsonNode predicted = report.at("/predictions/0");
    assertThat(predicted.get("strategy").asText()).isEqualTo("lazyLoop");
    assertThat(predicted.at("/fittedOn/0").asText()).isEqualTo("1ms");
    assertThat(predicted.at("/predictedMs/intercontinental 320 ms").asDouble())
        .isGreaterThan(22 * 320);
    // measured at 1 ms: the other RTTs of the sweep are the model's, marked so
    assertThat(Files.readString(svg)).startsWith("<svg")
        .contains(">N+1 demo (authors=20, books=3): time per operation vs added RTT<")
        .contains(">lazyLoop<").contains("lazyLoop @ 320ms: ").contains(" at 320ms (model)<");
  }

  @Test
  void aPredictionFarBelowTheMeasuredRttSaysItIsUncertain() {
    // the N+1 of 100 authors measured at 20 ms only: 2.2 s for 102 round trips
    Row lazy = new Row("lazyLoop", "AUTHORS_WITH_BOOKS", "lazy", 101, 102, 0, 2200,
        List.of(2200.0), 1);
    Row join = new Row("joinFetch", "AUTHORS_WITH_BOOKS", "join fetch", 1, 2, 0, 48,
        List.of(48.0), 1);
    List<AtRtt> at20 = List.of(new AtRtt(Rtt.parse("20ms"), 20.3, 20.3, 20.9, 74, 0.3,
        List.of(lazy, join)));
    DemoReport report = new DemoReport("n-plus-one-demo", "now", null, "7", 100, 10, "",
        at20, DemoCommand.predictions(at20), null, List.of());

    String text = DemoText.predictions(report, DemoText.Style.plain());

    // T(0.5) = 2200 - 102 x 19.8 = 180 ms: 2 s taken away to keep 180 ms
    assertThat(text).contains("T0 from the run at 20ms")
        .containsPattern("\nlazyLoop +180 ms \\? +2.20 s \\* +32.77 s  \n")
        .containsPattern("\njoinFetch +8.40 ms \\? +48.00 ms \\* +647 ms  \n")
        .contains("? far below the RTTs measured (20ms): the small difference of two large"
            + " times,\n  uncertain")
        .contains("measure it\n  instead, e.g. --rtt 0.5ms,20ms");
    assertThat(report.predictions().get(0).uncertain()).containsExactly("LAN 0.5 ms");
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "--rtt 0.05ms       | Invalid RTT '0.05ms': below 0.1 ms, the smallest added RTT",
      "--rtt fast         | Invalid RTT 'fast'",
      "--parents 0        | --parents must be between 1 and 1,000,000, got 0",
      "--children x       | Invalid value for option '--children'",
      "--strategy eager   | Unknown strategy 'eager': expected one of lazyLoop,",
      "--backend docker   | Invalid value for option '--backend'",
      "--runs 0           | --runs must be between 1 and 100, got 0",
  })
  void badOptionsGiveAMessageAndTheUsage(String args, String message) {
    Result result = run(args.trim().split(" "));

    assertThat(result.exitCode()).isEqualTo(2);
    assertThat(result.err()).contains(message).contains("Usage: demo")
        .doesNotContain("Exception").doesNotContain("\tat ");
    assertThat(result.out()).isEmpty();
  }
}
