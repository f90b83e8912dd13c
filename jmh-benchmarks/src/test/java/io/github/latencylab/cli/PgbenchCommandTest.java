package io.github.latencylab.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.assertj.core.api.Assumptions.assumeThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.latencylab.bench.pipeline.PgbenchWorkload;
import io.github.latencylab.bench.tpcb.TpcbData;
import io.github.latencylab.env.BackendKind;
import io.github.latencylab.env.Lab;
import io.github.latencylab.env.LabConfig;
import io.github.latencylab.env.PostgresTarget;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * {@code ./latency-lab pgbench} with the real pgbench (installed by .ci/run; elsewhere the
 * tests that need it are skipped with a line saying so).
 */
class PgbenchCommandTest {

  private static Optional<Path> pgbench() throws Exception {
    Optional<Path> found = PgbenchCommand.locate(LabConfig.fromEnvironment());
    if (found.isEmpty() && System.getenv("CI") != null) {
      throw new AssertionError(PgbenchCommand.NOT_FOUND + " (.ci/run installs it)");
    }
    return found;
  }

  @Test
  void isASubcommandOfTheLauncher() {
    Object command = new picocli.CommandLine(new LatencyLab()).getSubcommands().get("pgbench")
        .getCommand();
    assertThat(command).isInstanceOf(PgbenchCommand.class);
  }

  @Test
  void ourTablesAreTheOnesPgbenchInitialises() throws Exception {
    Optional<Path> pgbench = pgbench();
    assumeThat(pgbench).as("pgbench on this machine").isPresent();
    try (Lab lab = Lab.start(LabConfig.fromEnvironment().withBackend(BackendKind.EMBEDDED))) {
      TpcbData.initialize(lab.directDataSource(), 1);
      try (Connection c = lab.directDataSource().getConnection(); Statement st = c.createStatement()) {
        st.execute("CREATE DATABASE pgbench_reference");
      }
      PostgresTarget direct = lab.directTarget();
      ProcessBuilder pb = new ProcessBuilder(pgbench.get().toString(), "-i", "-s", "1", "-q",
          "-h", direct.host(), "-p", Integer.toString(direct.port()), "-U", direct.user(),
          "pgbench_reference").redirectErrorStream(true);
      pb.environment().put("PGPASSWORD", direct.password());
      Process p = pb.start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
      assertThat(p.exitValue()).as(out).isZero();

      DataSource reference = dataSource(direct, "pgbench_reference");
      for (String sql : List.of(
          "SELECT table_name, column_name, data_type, character_maximum_length, is_nullable"
              + " FROM information_schema.columns WHERE table_name LIKE 'pgbench%'"
              + " ORDER BY table_name, ordinal_position",
          "SELECT relname, reloptions FROM pg_class WHERE relname LIKE 'pgbench%' ORDER BY 1",
          // the Lab's tables are in its schema, pgbench's in public
          "SELECT tablename, indexname, replace(indexdef, schemaname || '.', '') FROM pg_indexes"
              + " WHERE tablename LIKE 'pgbench%' ORDER BY 1, 2",
          "SELECT md5(string_agg(b::text, ',' ORDER BY bid)) FROM pgbench_branches b",
          "SELECT md5(string_agg(t::text, ',' ORDER BY tid)) FROM pgbench_tellers t",
          "SELECT md5(string_agg(a::text, ',' ORDER BY aid)) FROM pgbench_accounts a",
          "SELECT count(*) FROM pgbench_history")) {
        assertThat(rows(lab.directDataSource(), sql)).as(sql).isEqualTo(rows(reference, sql));
      }
    }
  }

  @Test
  void bothToolsRunTheSameTransactionsAndBothAreCounted(@TempDir Path dir)
      throws Exception {
    Optional<Path> pgbench = pgbench();
    assumeThat(pgbench).as("pgbench on this machine").isPresent();
    Path json = dir.resolve("pgbench.json");
    ReportCommandTest.Run r = ReportCommandTest.run("pgbench", "--rtt", "0ms", "--clients", "1",
        "--transactions", "50", "--synchronous-commit", "off", "--backend", "embedded",
        "--modes", "simple,pipeline",
        "--pgbench", pgbench.get().toString(), "--json", json.toString());
    assertThat(r.exitCode()).as(r.err()).isZero();
    JsonNode report = new ObjectMapper().readTree(json.toFile());
    assertThat(report.path("pgbenchVersion").asText()).startsWith("pgbench (PostgreSQL)");
    assertThat(report.path("transactionsPerClient").asInt()).isEqualTo(50);
    assertThat(report.path("durationSeconds").asInt()).isZero();
    JsonNode rows = report.path("rows");
    assertThat(rows).hasSize(4);
    List<String> seen = new ArrayList<>();
    for (JsonNode row : rows) {
      seen.add(row.path("tool").asText() + " " + row.path("mode").asText());
      assertThat(row.path("rttMs").asDouble()).isZero();
      assertThat(row.path("clients").asInt()).isEqualTo(1);
      assertThat(row.path("synchronousCommit").asText()).isEqualTo("off");
      assertThat(row.path("transactions").asLong()).as(row.toString()).isEqualTo(50);
      assertThat(row.path("tps").asDouble()).isPositive();
      assertThat(row.path("latencyMs").asDouble()).isPositive();
      // one RTT: nothing but the row itself to fit the model on, so no model
      assertThat(row.path("modelTps").asDouble()).as(row.toString()).isNaN();
      // counted, both: pgbench's at the relay, pgjdbc's at its socket
      assertThat(row.path("roundTripsPerTransaction").asDouble()).as(row.toString())
          .isEqualTo(row.path("mode").asText().equals("pipeline") ? 1.0 : 7.0);
    }
    assertThat(seen).containsExactly("pgbench simple", "jdbc simple", "pgbench pipeline",
        "jdbc pipeline");
    assertThat(report.path("serverSettings").findValuesAsText("name"))
        .contains("synchronous_commit", "shared_buffers");
  }

  /** A timed run (pgbench -T): each tool runs for the duration, as many as fit, all counted. */
  @Test
  void aTimedRunRunsBothToolsForItsDuration(@TempDir Path dir) throws Exception {
    Optional<Path> pgbench = pgbench();
    assumeThat(pgbench).as("pgbench on this machine").isPresent();
    Path json = dir.resolve("timed.json");
    ReportCommandTest.Run r = ReportCommandTest.run("pgbench", "--rtt", "0ms", "--clients", "1",
        "--duration", "1s", "--modes", "simple", "--synchronous-commit", "off", "--backend",
        "embedded", "--pgbench", pgbench.get().toString(), "--json", json.toString());
    assertThat(r.exitCode()).as(r.err()).isZero();
    JsonNode report = new ObjectMapper().readTree(json.toFile());
    assertThat(report.path("durationSeconds").asInt()).isEqualTo(1);
    assertThat(report.path("transactionsPerClient").asInt()).isZero();
    List<String> seen = new ArrayList<>();
    for (JsonNode row : report.path("rows")) {
      seen.add(row.path("tool").asText() + " " + row.path("mode").asText() + " "
          + row.path("roundTripsPerTransaction").asDouble());
      assertThat(row.path("transactions").asLong()).as(row.toString()).isPositive();
    }
    assertThat(seen).containsExactly("pgbench simple 7.0", "jdbc simple 7.0");
  }

  /**
   * libpq's pipeline mode, the field report's own: 100 INSERTs in a transaction cost 102 round
   * trips sent one by one and 1 pipelined, counted at the relay. With --local pgbench also
   * runs straight to the server, over TCP and its Unix-domain socket.
   */
  @Test
  void pipelinedInsertsCostOneRoundTripInLibpq(@TempDir Path dir) throws Exception {
    Optional<Path> pgbench = pgbench();
    assumeThat(pgbench).as("pgbench on this machine").isPresent();
    Path json = dir.resolve("inserts.json");
    ReportCommandTest.Run r = ReportCommandTest.run("pgbench", "--workload", "inserts",
        "--rows", "100", "--modes", "prepared,pipeline", "--rtt", "0.5ms", "--clients", "2",
        "--transactions", "3", "--synchronous-commit", "off", "--local", "--backend", "embedded",
        "--pgbench", pgbench.get().toString(), "--json", json.toString());
    assertThat(r.exitCode()).as(r.err()).isZero();
    JsonNode report = new ObjectMapper().readTree(json.toFile());
    assertThat(report.path("workload").asText()).isEqualTo("inserts");
    assertThat(report.path("rowsPerTransaction").asInt()).isEqualTo(100);
    List<String> seen = new ArrayList<>();
    for (JsonNode row : report.path("rows")) {
      seen.add(row.path("tool").asText() + " " + row.path("rtt").asText() + " "
          + row.path("mode").asText() + " " + row.path("roundTripsPerTransaction").asDouble());
      assertThat(row.path("transactions").asLong()).as(row.toString()).isEqualTo(2 * 3);
    }
    assertThat(seen).as("pgbench alone: the JDBC clients are PipelineBenchmark's")
        .containsExactly("pgbench 0.5ms prepared 102.0", "pgbench 0.5ms pipeline 1.0",
            "pgbench direct prepared 102.0", "pgbench direct pipeline 1.0",
            "pgbench unix prepared 102.0", "pgbench unix pipeline 1.0");
  }

  /** The N+1's 100 lookups: 100 round trips one by one, 1 in a pipeline. */
  @Test
  void theLookupsScriptIsTheHundredLookupsOfTheSuite() {
    String oneByOne = PgbenchWorkload.lookups.script(false, 0);
    String pipelined = PgbenchWorkload.lookups.script(true, 0);
    assertThat(oneByOne.lines()).hasSize(100).allMatch(l -> l.startsWith(
        "SELECT id, name FROM lookup_author WHERE id = ") && l.endsWith(";"));
    assertThat(pipelined.lines()).hasSize(102).startsWith("\\startpipeline")
        .endsWith("\\endpipeline");
    assertThat(PgbenchWorkload.tpcb.script(false, 0)).as("pgbench's built-in").isNull();
  }

  @Test
  void theModelOfARowIsFittedOnTheOtherRttsNeverOnItself() {
    // 7 round trips; server time 2 ms at 0.5 ms and 3 ms at 20 ms (what a real run gives:
    // the model is a check, and here it is off by a millisecond each way)
    List<PgbenchCommand.Row> rows = List.of(row("0.5ms", 0.5, 2 + 7 * 0.5),
        row("20ms", 20, 3 + 7 * 20));
    List<PgbenchCommand.Row> modelled = PgbenchCommand.withModel(rows);
    assertThat(modelled.get(0).serverTimeMs()).isEqualTo(3.0);
    assertThat(modelled.get(0).modelTps()).isCloseTo(1000 / (7 * 0.5 + 3), within(1e-9));
    assertThat(modelled.get(1).serverTimeMs()).isEqualTo(2.0);
    assertThat(modelled.get(1).modelTps()).isCloseTo(1000 / (7 * 20 + 2.0), within(1e-9));
    assertThat(modelled.get(1).modelTps()).isNotEqualTo(modelled.get(1).tps());

    PgbenchCommand.Row alone = PgbenchCommand.withModel(List.of(row("20ms", 20, 143))).get(0);
    assertThat(alone.modelTps()).isNaN();
    assertThat(PgbenchCommand.table(List.of(alone))).contains(" n/a\n")
        .contains("n/a: the run has one RTT");
  }

  private static PgbenchCommand.Row row(String rtt, double addedMs, double latencyMs) {
    return new PgbenchCommand.Row("jdbc", "simple", rtt, addedMs, addedMs, 1, "on", 100,
        1000 / latencyMs, latencyMs, 7, Double.NaN, Double.NaN);
  }

  @Test
  void withoutPgbenchItSaysHowToGetIt(@TempDir Path dir) throws Exception {
    ReportCommandTest.Run r = ReportCommandTest.run("pgbench", "--pgbench",
        dir.resolve("pgbench").toString(), "--backend", "embedded");
    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.err()).isEqualTo("latency-lab: Invalid --pgbench '" + dir.resolve("pgbench")
        + "': not an executable file (expected the path of PostgreSQL's pgbench)\n");
    assertThat(PgbenchCommand.NOT_FOUND).startsWith("No pgbench found: install PostgreSQL's"
        + " client programs (Debian/Ubuntu: apt-get install postgresql-15");
  }

  @Test
  void badOptionsAreNamed() throws Exception {
    assertThat(ReportCommandTest.run("pgbench", "--duration", "1.5s").err())
        .isEqualTo("latency-lab: Invalid --duration '1.5s': expected whole seconds or minutes"
            + " such as 10s or 2m (pgbench -T counts whole seconds)\n");
    assertThat(ReportCommandTest.run("pgbench", "--modes", "extended").err())
        .isEqualTo("latency-lab: Invalid --modes value 'extended': expected simple,"
            + " prepared or pipeline\n");
    assertThat(ReportCommandTest.run("pgbench", "--workload", "inserts", "--rows", "0").err())
        .isEqualTo("latency-lab: --clients, --scale and --rows must be at least 1\n");
    assertThat(ReportCommandTest.run("pgbench", "--duration", "2s", "--transactions", "5").err())
        .isEqualTo("latency-lab: --duration and --transactions exclude each other: a run is"
            + " either timed (pgbench -T) or counted (pgbench -t)\n");
    assertThat(ReportCommandTest.run("pgbench", "--transactions", "0").err())
        .isEqualTo("latency-lab: Invalid --transactions 0: expected at least 1\n");
  }

  @Test
  void thePasswordGoesInTheEnvironmentNotOnTheCommandLine() {
    PostgresTarget target = new PostgresTarget("127.0.0.1", 5432, "app", "app", "s3cret");
    assertThat(PgbenchCommand.pgEnvironment(target, "latency_lab, public"))
        .containsExactly("PGPASSWORD=s3cret", "PGOPTIONS=-c search_path=latency_lab,\\ public");
  }

  private static DataSource dataSource(PostgresTarget t, String database) {
    PGSimpleDataSource ds = new PGSimpleDataSource();
    ds.setURL("jdbc:postgresql://" + t.host() + ":" + t.port() + "/" + database);
    ds.setUser(t.user());
    ds.setPassword(t.password());
    return ds;
  }

  private static List<String> rows(DataSource ds, String sql) throws SQLException {
    List<String> out = new ArrayList<>();
    try (Connection c = ds.getConnection(); Statement st = c.createStatement();
        ResultSet rs = st.executeQuery(sql)) {
      while (rs.next()) {
        StringBuilder row = new StringBuilder();
        for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
          row.append(i == 1 ? "" : "|").append(rs.getString(i));
        }
        out.add(row.toString());
      }
    }
    return out;
  }
}
