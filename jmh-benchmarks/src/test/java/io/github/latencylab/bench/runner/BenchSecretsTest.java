package io.github.latencylab.bench.runner;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.latencylab.cli.LatencyLab;
import io.github.latencylab.env.BackendKind;
import io.github.latencylab.env.Lab;
import io.github.latencylab.env.LabConfig;
import io.github.latencylab.env.PostgresTarget;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The database password never leaves the runner: a real bench (one cell) on the external
 * backend, a role with a password that owns its database, the runner started with the
 * password as a system property (JMH would hand a JVM's own arguments to its forks). Every
 * fork's command line, read while it runs, and every file the run writes are searched for it.
 */
@Tag("alone") // runs JMH: runs alone, after the other tests (pom.xml)
class BenchSecretsTest {

  static final Pattern HANDLE = Pattern.compile("-Dlatencylab\\.lab\\.handle=(\\S+)");

  /** The whole command line: /proc has it all, ProcessHandle gives its first 4 kB only. */
  static Optional<String> commandLine(ProcessHandle p) {
    try {
      byte[] cmdline = Files.readAllBytes(Path.of("/proc", Long.toString(p.pid()), "cmdline"));
      return Optional.of(new String(cmdline, StandardCharsets.UTF_8).replace('\0', ' '));
    } catch (IOException e) {
      return p.isAlive() ? p.info().commandLine() : Optional.empty();
    }
  }

  @Test
  void thePasswordIsOnNoForksCommandLineAndInNoFileTheRunWrites(@TempDir Path dir)
      throws Exception {
    String password = "pw-" + UUID.randomUUID();
    try (Lab server = Lab.start(LabConfig.fromEnvironment().withBackend(BackendKind.EMBEDDED))) {
      try (Connection c = server.directDataSource().getConnection();
          Statement st = c.createStatement()) {
        st.execute("CREATE ROLE bench_user LOGIN PASSWORD '" + password + "'");
        st.execute("CREATE DATABASE bench OWNER bench_user");
      }
      PostgresTarget db = server.directTarget();
      Path out = dir.resolve("out");
      Path log = dir.resolve("runner.log");
      List<String> command = new ArrayList<>(List.of(
          Path.of(System.getProperty("java.home"), "bin", "java").toString(),
          "-Dlatencylab.jdbc.password=" + password,
          "-cp", System.getProperty("java.class.path"), LatencyLab.class.getName(), "bench",
          "--backend=external", "--profile=verify", "--include=RoundTripBenchmark.selectOne$",
          "--rtt=0ms", "--out=" + out));
      ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
          .redirectOutput(log.toFile());
      builder.environment().put("LATENCYLAB_JDBC_URL",
          "jdbc:postgresql://" + db.host() + ":" + db.port() + "/bench");
      builder.environment().put("LATENCYLAB_JDBC_USER", "bench_user");
      Process runner = builder.start();
      // a child caught between fork and exec still shows the runner's own command line
      String itself = commandLine(runner.toHandle()).orElseThrow();

      Set<String> forks = new LinkedHashSet<>();
      long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
      while (runner.isAlive() && System.nanoTime() < deadline) {
        runner.descendants().forEach(p -> commandLine(p).filter(c -> !c.equals(itself))
            .ifPresent(forks::add));
        Thread.sleep(20);
      }
      if (runner.isAlive()) {
        runner.destroyForcibly();
      }

      String output = Files.readString(log);
      assertThat(runner.waitFor()).as(output).isZero();
      assertThat(forks).as("JMH's forks, seen while they ran")
          .anyMatch(c -> c.contains(" org.openjdk.jmh.runner.ForkedMain "));
      assertThat(forks).allSatisfy(c -> assertThat(c).doesNotContain(password));
      List<Path> written;
      try (Stream<Path> files = Files.walk(out)) {
        written = files.filter(Files::isRegularFile).toList();
      }
      assertThat(written).extracting(f -> out.relativize(f).toString())
          .contains("jmh-results.json", "jmh-output.txt", "results.json", "report.md",
              "report.html");
      for (Path f : written) {
        assertThat(new String(Files.readAllBytes(f), StandardCharsets.UTF_8)).as(f.toString())
            .doesNotContain(password);
      }
      assertThat(output).doesNotContain(password);
      // the forks attached through a handle file, deleted when the run ended
      String fork = forks.stream().filter(c -> c.contains("ForkedMain")).findFirst()
          .orElseThrow();
      Matcher handle = HANDLE.matcher(fork);
      assertThat(handle.find()).as(fork).isTrue();
      assertThat(Path.of(handle.group(1))).doesNotExist();
      assertThat(Path.of(handle.group(1)).getParent()).doesNotExist();
    }
  }
}
