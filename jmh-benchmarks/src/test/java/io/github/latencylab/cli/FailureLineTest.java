package io.github.latencylab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** A Lab that cannot start is one line and exit code 2; the stack trace only with --verbose. */
class FailureLineTest {

  private final StringWriter err = new StringWriter();

  private int run(String... args) {
    CommandLine cl = LatencyLab.commandLine();
    cl.setErr(new PrintWriter(err, true));
    return cl.execute(args);
  }

  @Test
  void aLabThatCannotStartIsOneLineAndExitCode2() {
    int code = run("calibrate", "--rtt", "1ms", "--backend", "external");
    assertThat(code).isEqualTo(2);
    assertThat(err.toString()).isEqualTo("latency-lab: The external backend needs"
        + " latencylab.jdbc.url (LATENCYLAB_JDBC_URL), e.g."
        + " -Dlatencylab.jdbc.url=jdbc:postgresql://host:5432/db" + System.lineSeparator());
  }

  @Test
  void verboseAddsTheStackTrace() {
    int code = run("calibrate", "--rtt", "1ms", "--backend", "external", "--verbose");
    assertThat(code).isEqualTo(2);
    assertThat(err.toString().lines()).first().asString()
        .startsWith("latency-lab: The external backend needs latencylab.jdbc.url");
    assertThat(err.toString()).contains("java.lang.IllegalArgumentException: The external"
        + " backend needs")
        .contains("\tat io.github.latencylab.env.backend.ExternalBackend.target(");
  }
}
