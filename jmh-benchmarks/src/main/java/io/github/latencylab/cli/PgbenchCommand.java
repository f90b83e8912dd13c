package io.github.latencylab.cli;

import io.github.latencylab.bench.pipeline.PgbenchWorkload;
import io.github.latencylab.bench.tpcb.TpcbData;
import io.github.latencylab.bench.tpcb.TpcbDriver;
import io.github.latencylab.bench.tpcb.TpcbTransaction;
import io.github.latencylab.env.Lab;
import io.github.latencylab.env.LabConfig;
import io.github.latencylab.env.LabEnvironment;
import io.github.latencylab.env.PostgresTarget;
import io.github.latencylab.env.Setting;
import io.github.latencylab.latency.Rtt;
import io.github.latencylab.latency.RttMeasurement;
import io.github.latencylab.server.PgSetting;
import io.github.latencylab.server.SettingChange;
import io.github.latencylab.wire.WireDataSource;
import io.github.latencylab.wire.WireStats;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code ./latency-lab pgbench}: PostgreSQL's own pgbench and the JDBC twin of its TPC-B-like
 * transaction through the same proxy, at each RTT, client count, query mode and
 * synchronous_commit, on the same tables for the same duration; both tools' TPS and latency
 * side by side, with the round trips per transaction and the model's TPS.
 */
@Command(name = "pgbench", mixinStandardHelpOptions = true,
    description = {"Runs pgbench's built-in TPC-B-like transaction with the real pgbench and"
        + " over JDBC through the Lab's proxy, at each RTT, client count, query mode (simple,"
        + " prepared) and synchronous_commit (on, off), and prints both tools' TPS and latency,"
        + " the round trips per transaction and the model's TPS = clients / (round trips x RTT"
        + " + server time)."})
public final class PgbenchCommand implements Callable<Integer> {

  static final List<String> MODES = List.of("simple", "prepared", "pipeline");
  /** Fewer transactions in a run than this and it is not run: the model says its time. */
  static final int LEAST_TRANSACTIONS = 10;
  /** The rows of --local: no proxy, so no RTT. */
  static final List<String> LOCAL = List.of("direct", "unix");
  // pgjdbc's paths need the JIT; pgbench, native code, needs no warmup
  private static final Duration WARMUP = Duration.ofSeconds(1);

  @Option(names = "--rtt", paramLabel = "LIST", converter = RttConverter.class,
      defaultValue = "0.5ms,20ms", description = "RTT settings (default: ${DEFAULT-VALUE})")
  List<Rtt> rtts;

  @Option(names = "--clients", paramLabel = "LIST", split = ",", defaultValue = "1,4",
      description = "Concurrent clients, each its own connection (default: ${DEFAULT-VALUE})")
  List<Integer> clients;

  @Option(names = "--duration", paramLabel = "D",
      description = "How long each tool runs each configuration, whole seconds or minutes"
          + " (pgbench -T; default: 10s)")
  String duration;

  @Option(names = "--transactions", paramLabel = "N",
      description = "Instead of --duration: each client runs N transactions (pgbench -t; the"
          + " JDBC twin warms up with as many first), so a run's length does not depend on the"
          + " machine's speed")
  Integer transactions;

  @Option(names = "--scale", paramLabel = "N", defaultValue = "1",
      description = "pgbench's scale: N branches, 10N tellers, 100,000N accounts (default:"
          + " ${DEFAULT-VALUE})")
  int scale;

  @Option(names = "--modes", paramLabel = "LIST", split = ",", defaultValue = "simple,prepared",
      description = "Query modes: simple (one Query message per statement), prepared"
          + " (statements parsed once, then Bind/Execute) and/or pipeline (the same transaction"
          + " in one libpq pipeline; the JDBC twin sends it as one multi-statement string)"
          + " (default: ${DEFAULT-VALUE})")
  List<String> modes;

  @Option(names = "--synchronous-commit", paramLabel = "LIST", split = ",",
      defaultValue = "on,off", description = "synchronous_commit values (default:"
          + " ${DEFAULT-VALUE})")
  List<String> synchronousCommit;

  @Option(names = "--workload", paramLabel = "W", defaultValue = "tpcb",
      description = "tpcb (pgbench's TPC-B-like transaction, beside its JDBC twin), inserts"
          + " (--rows single-row INSERTs in one transaction) or lookups (the N+1's 100 lookups"
          + " by primary key): the pipelining suite's W3, W1 and W2 for libpq; the JDBC clients"
          + " of the last two are PipelineBenchmark's (default: ${DEFAULT-VALUE})")
  PgbenchWorkload workload;

  @Option(names = "--rows", paramLabel = "N", defaultValue = "1000",
      description = "INSERTs per transaction of --workload inserts (default: ${DEFAULT-VALUE})")
  int rowsPerTransaction;

  @Option(names = "--local", description = "Also run pgbench without the proxy: over TCP"
      + " straight to PostgreSQL (direct) and over its Unix-domain socket (unix, where the"
      + " server has one), the field report's local case")
  boolean local;

  @Option(names = "--pgbench", paramLabel = "PATH",
      description = "The pgbench binary (default: latencylab.pgbench, else pgbench on PATH, else"
          + " the newest /usr/lib/postgresql/*/bin/pgbench)")
  Path pgbench;

  @Mixin
  JsonOption json;

  @Mixin
  LabOptions labOptions;

  /**
   * One tool at one configuration.
   *
   * @param tool {@code pgbench} or {@code jdbc}
   * @param mode {@code simple}, {@code prepared} or {@code pipeline}
   * @param rtt the RTT setting
   * @param rttMs the RTT setting in ms
   * @param addedRttMs what the setting really added, measured by the Lab
   * @param transactions transactions completed
   * @param tps transactions per second (pgbench: without its initial connection time)
   * @param latencyMs mean time per transaction
   * @param roundTripsPerTransaction counted: for jdbc at its socket during the run, for
   *     pgbench at the Lab's relay ({@link #countedRoundTrips})
   * @param serverTimeMs the model's time per transaction without added latency: latency minus
   *     round trips x added RTT, averaged over the same tool, mode, clients and
   *     synchronous_commit at the run's other RTTs (never this row's own: a model fitted on the
   *     number it predicts would agree with it by construction); NaN with no other RTT
   * @param modelTps clients / (round trips x added RTT + server time); NaN when the server time
   *     cannot be computed
   */
  record Row(String tool, String mode, String rtt, double rttMs, double addedRttMs, int clients,
      String synchronousCommit, long transactions, double tps, double latencyMs,
      double roundTripsPerTransaction, double serverTimeMs, double modelTps) {

    Row withModel(double serverMs) {
      double model = clients / ((roundTripsPerTransaction * addedRttMs + serverMs) / 1000);
      return new Row(tool, mode, rtt, rttMs, addedRttMs, clients, synchronousCommit,
          transactions, tps, latencyMs, roundTripsPerTransaction, serverMs, model);
    }

    String configuration() {
      return rtt + " " + clients + " client(s) " + mode + " synchronous_commit=" + synchronousCommit;
    }
  }

  record Report(String kind, String measuredAt, String pgbenchVersion, String workload,
      int rowsPerTransaction, int scale, int durationSeconds, int transactionsPerClient,
      LabEnvironment environment,
      List<PgSetting> serverSettings, List<Row> rows, List<String> findings) {
  }

  @Override
  @SuppressWarnings("try") // each SettingChange is a scope: closing it restores the setting
  public Integer call() throws Exception {
    if (duration != null && transactions != null) {
      throw new IllegalArgumentException("--duration and --transactions exclude each other: a"
          + " run is either timed (pgbench -T) or counted (pgbench -t)");
    }
    if (transactions != null && transactions < 1) {
      throw new IllegalArgumentException("Invalid --transactions " + transactions
          + ": expected at least 1");
    }
    int seconds = transactions == null ? seconds(duration == null ? "10s" : duration) : 0;
    TpcbDriver.Length length = transactions == null
        ? TpcbDriver.Length.timed(Duration.ofSeconds(seconds))
        : TpcbDriver.Length.counted(transactions);
    for (String mode : modes) {
      if (!MODES.contains(mode)) {
        throw new IllegalArgumentException("Invalid --modes value '" + mode
            + "': expected simple, prepared or pipeline");
      }
    }
    for (String v : synchronousCommit) {
      if (!List.of("on", "off", "local", "remote_write", "remote_apply").contains(v)) {
        throw new IllegalArgumentException("Invalid --synchronous-commit value '" + v
            + "': expected on, off, local, remote_write or remote_apply");
      }
    }
    if (clients.stream().anyMatch(c -> c < 1) || scale < 1 || rowsPerTransaction < 1) {
      throw new IllegalArgumentException("--clients, --scale and --rows must be at least 1");
    }
    // pgbench's round trips are counted at the relay, and the JDBC twin goes the same way
    LabConfig config = labOptions.config().with(Setting.RELAY, "true");
    Path binary = pgbench != null ? requireExecutable(pgbench, "--pgbench")
        : locate(config).orElseThrow(() -> new IllegalStateException(NOT_FOUND));
    String version = run(List.of(binary.toString(), "--version"), null, 30).strip();

    List<Row> rows = new ArrayList<>();
    LabEnvironment environment;
    List<PgSetting> settings;
    boolean twin = workload == PgbenchWorkload.tpcb;
    long steps = (long) (rtts.size() * (twin ? 2 : 1) + (local ? 2 : 0))
        * synchronousCommit.size() * clients.size() * modes.size();
    try (Lab lab = Lab.start(config);
        Progress progress = new Progress("pgbench", steps)) {
      System.err.println("latency-lab: " + lab.describe() + "; " + version + "; " + workload
          + (workload == PgbenchWorkload.inserts ? " of " + rowsPerTransaction + " rows" : "")
          + ", scale " + scale + ", " + length.describe());
      progress.working("creating " + workload + "'s tables");
      workload.create(lab.directDataSource(), scale);
      String searchPath = searchPath(lab);
      Map<String, Path> scripts = new HashMap<>();
      Map<String, Double> pgbenchTrips = new HashMap<>();
      for (String mode : modes) {
        String text = workload.script(mode.equals("pipeline"), rowsPerTransaction);
        if (text != null) {
          Path script = Files.createTempFile("latency-lab-pgbench-" + workload, ".sql");
          script.toFile().deleteOnExit();
          scripts.put(mode, Files.writeString(script, text));
        }
        progress.working("counting pgbench's round trips, " + mode);
        pgbenchTrips.put(mode, countedRoundTrips(binary, lab, searchPath, mode,
            scripts.get(mode)));
      }
      List<Path> localScripts = new ArrayList<>();
      for (Rtt rtt : rtts) {
        progress.working("calibrating " + rtt);
        RttMeasurement measured = lab.measure(rtt);
        for (String sc : synchronousCommit) {
          try (SettingChange change = lab.settings().set("synchronous_commit", sc)) {
            for (int c : clients) {
              for (String mode : modes) {
                String what = rtt + ", " + c + " client(s), " + mode + ", synchronous_commit="
                    + sc;
                progress.working("pgbench " + what);
                workload.prepareRun(lab.directDataSource());
                rows.add(pgbench(binary, lab.target(), searchPath, mode, scripts.get(mode), c,
                    length, rtt.toString(), rtt.millis(), measured.addedMeanMs(), sc,
                    pgbenchTrips.get(mode)));
                progress.step();
                if (twin) {
                  progress.working("jdbc " + what);
                  workload.prepareRun(lab.directDataSource());
                  rows.add(jdbc(lab, mode, c, length, measured, sc));
                  progress.step();
                }
              }
            }
          }
        }
      }
      if (local) {
        Optional<String> socketDirectory = unixSocketDirectory(lab);
        List<Map.Entry<String, PostgresTarget>> places = new ArrayList<>();
        places.add(Map.entry("direct", lab.directTarget()));
        socketDirectory.ifPresentOrElse(
            dir -> places.add(Map.entry("unix", new PostgresTarget(dir,
                lab.directTarget().port(), lab.directTarget().database(),
                lab.directTarget().user(), lab.directTarget().password()))),
            () -> System.err.println("latency-lab: the server has no Unix-domain socket"
                + " (unix_socket_directories is empty): unix not run"));
        for (Map.Entry<String, PostgresTarget> place : places) {
          for (String sc : synchronousCommit) {
            try (SettingChange change = lab.settings().set("synchronous_commit", sc)) {
              for (int c : clients) {
                for (String mode : modes) {
                  progress.working("pgbench " + place.getKey() + ", " + c + " client(s), "
                      + mode);
                  workload.prepareRun(lab.directDataSource());
                  rows.add(pgbench(binary, place.getValue(), searchPath, mode,
                      scripts.get(mode), c, length, place.getKey(), 0, 0, sc,
                      pgbenchTrips.get(mode)));
                  progress.step();
                }
              }
            }
          }
        }
      }
      environment = lab.environment();
      settings = lab.settings().snapshot();
    }
    List<Row> modelled = withModel(rows);
    List<String> findings = findings(modelled);
    System.out.println();
    System.out.print(table(modelled));
    findings.forEach(f -> System.out.println("finding: " + f));
    json.write(() -> new Report("pgbench", Instant.now().toString(), version, workload.name(),
        workload == PgbenchWorkload.inserts ? rowsPerTransaction : 0, scale, seconds,
        (int) length.transactionsPerClient(), environment, settings, modelled, findings),
        System.out::println);
    return 0;
  }

  static final String NOT_FOUND = "No pgbench found: install PostgreSQL's client programs"
      + " (Debian/Ubuntu: apt-get install postgresql-15, or the postgresql package of your"
      + " release; macOS: brew install libpq), or point " + Setting.PGBENCH.property()
      + " (or --pgbench) at a pgbench binary";

  /** pgbench from the setting, PATH, the Debian/Ubuntu layout or Homebrew, newest first. */
  static Optional<Path> locate(LabConfig config) throws IOException {
    String configured = config.get(Setting.PGBENCH);
    if (!configured.isBlank()) {
      return Optional.of(requireExecutable(Path.of(configured), Setting.PGBENCH.property()));
    }
    List<Path> candidates = new ArrayList<>();
    for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
      if (!dir.isBlank()) {
        candidates.add(Path.of(dir, "pgbench"));
      }
    }
    Path debian = Path.of("/usr/lib/postgresql");
    if (Files.isDirectory(debian)) {
      try (Stream<Path> versions = Files.list(debian)) {
        versions.sorted(Comparator.comparing(PgbenchCommand::versionOf).reversed())
            .forEach(v -> candidates.add(v.resolve("bin/pgbench")));
      }
    }
    candidates.add(Path.of("/usr/local/opt/libpq/bin/pgbench"));
    candidates.add(Path.of("/opt/homebrew/bin/pgbench"));
    return candidates.stream().filter(Files::isExecutable).findFirst();
  }

  private static int versionOf(Path dir) {
    try {
      return Integer.parseInt(dir.getFileName().toString());
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  private static Path requireExecutable(Path path, String from) {
    if (!Files.isExecutable(path)) {
      throw new IllegalArgumentException("Invalid " + from + " '" + path + "': not an executable"
          + " file (expected the path of PostgreSQL's pgbench)");
    }
    return path;
  }

  static int seconds(String text) {
    Matcher m = Pattern.compile("(\\d+)\\s*(s|m|min)?").matcher(text.trim());
    if (!m.matches() || Integer.parseInt(m.group(1)) < 1) {
      throw new IllegalArgumentException("Invalid --duration '" + text + "': expected whole"
          + " seconds or minutes such as 10s or 2m (pgbench -T counts whole seconds)");
    }
    int n = Integer.parseInt(m.group(1));
    return m.group(2) == null || m.group(2).equals("s") ? n : n * 60;
  }

  // pgbench must find the tables where the Lab's connections do
  private static String searchPath(Lab lab) throws SQLException {
    try (Connection c = lab.dataSource().getConnection(); Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SHOW search_path")) {
      rs.next();
      return rs.getString(1);
    }
  }

  /**
   * pgbench's round trips per transaction, counted at the Lab's relay: those of 4 transactions
   * on one connection less those of 2, over 2, so that connecting, pgbench's own set-up
   * queries and the first transaction's Parse messages cancel out. Taken once per mode, at the
   * RTT the Lab starts with: they do not depend on it.
   */
  double countedRoundTrips(Path binary, Lab lab, String searchPath, String mode, Path script)
      throws IOException, InterruptedException, SQLException {
    long[] trips = new long[2];
    for (int i = 0; i < 2; i++) {
      workload.prepareRun(lab.directDataSource());
      WireStats before = lab.relay().wire().snapshot();
      run(command(binary, lab.target(), mode, script, 1, List.of("-t", i == 0 ? "2" : "4")),
          pgEnvironment(lab.target(), searchPath), 600);
      trips[i] = lab.relay().wire().snapshot().minus(before).roundTrips();
    }
    return (trips[1] - trips[0]) / 2.0;
  }

  // where the server listens on a Unix-domain socket, if it does: libpq takes it as -h
  private static Optional<String> unixSocketDirectory(Lab lab) throws SQLException {
    try (Connection c = lab.directDataSource().getConnection();
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SHOW unix_socket_directories")) {
      rs.next();
      String first = rs.getString(1).split(",")[0].trim();
      return first.isEmpty() ? Optional.empty() : Optional.of(first);
    }
  }

  private static List<String> command(Path binary, PostgresTarget target, String mode,
      Path script, int clients, List<String> length) {
    List<String> command = new ArrayList<>(List.of(binary.toString(), "-n", "-M",
        mode.equals("pipeline") ? "extended" : mode, "-c", Integer.toString(clients), "-j",
        Integer.toString(clients)));
    command.addAll(length);
    if (script != null) {
      command.addAll(List.of("-f", script.toString()));
    }
    command.addAll(List.of("-h", target.host(), "-p", Integer.toString(target.port()), "-U",
        target.user(), target.database()));
    return command;
  }

  /**
   * One pgbench run, or, where a timed run's round trips alone would leave fewer than
   * {@value #LEAST_TRANSACTIONS} transactions in it, none: pgbench's latency average is the
   * run's time over its transactions, so a run of one or two long ones is mostly its start and
   * its end. The row's time is then the model's (NaN here, filled in by {@link #withModel}).
   */
  private static Row pgbench(Path binary, PostgresTarget target, String searchPath, String mode,
      Path script, int clients, TpcbDriver.Length length, String rtt, double rttMs,
      double addedRttMs, String synchronousCommit, double roundTrips)
      throws IOException, InterruptedException {
    if (!length.isCounted()
        && roundTrips * addedRttMs * LEAST_TRANSACTIONS > length.duration().toMillis()) {
      return new Row("pgbench", mode, rtt, rttMs, addedRttMs, clients, synchronousCommit, 0,
          Double.NaN, Double.NaN, roundTrips, Double.NaN, Double.NaN);
    }
    List<String> command = command(binary, target, mode, script, clients, length.isCounted()
        ? List.of("-t", Long.toString(length.transactionsPerClient()))
        : List.of("-T", Long.toString(length.duration().toSeconds())));
    // a counted run: its round trips at the RTT, twice over, and room to start
    long timeout = length.isCounted() ? 120L + (long) (2 * roundTrips * addedRttMs
        * length.transactionsPerClient() / 1000) : length.duration().toSeconds() + 120L;
    String out = run(command, pgEnvironment(target, searchPath), timeout);
    double tps = number(out, "tps = ([0-9.]+) \\(without initial connection time\\)", command);
    double latency = number(out, "latency average = ([0-9.]+) ms", command);
    long transactions = (long) number(out, "number of transactions actually processed: (\\d+)",
        command);
    return new Row("pgbench", mode, rtt, rttMs, addedRttMs, clients, synchronousCommit,
        transactions, tps, latency, roundTrips, Double.NaN, Double.NaN);
  }

  /** The password and search_path go to pgbench in its environment, never on its command line. */
  static List<String> pgEnvironment(PostgresTarget target, String searchPath) {
    List<String> env = new ArrayList<>();
    env.add("PGPASSWORD=" + target.password());
    env.add("PGOPTIONS=-c search_path=" + searchPath.replace(" ", "\\ "));
    return env;
  }

  private static double number(String output, String regex, List<String> command) {
    Matcher m = Pattern.compile(regex).matcher(output);
    if (!m.find()) {
      throw new IllegalStateException("Cannot read pgbench's output (" + String.join(" ",
          command) + "): no '" + regex + "' in: " + output.strip());
    }
    return Double.parseDouble(m.group(1));
  }

  private static String run(List<String> command, List<String> env, long timeoutSeconds)
      throws IOException, InterruptedException {
    ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
    if (env != null) {
      for (String e : env) {
        int eq = e.indexOf('=');
        pb.environment().put(e.substring(0, eq), e.substring(eq + 1));
      }
    }
    Process p = pb.start();
    byte[] output = p.getInputStream().readAllBytes();
    if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new IllegalStateException(command.get(0) + " did not finish in " + timeoutSeconds
          + " s");
    }
    String text = new String(output, StandardCharsets.UTF_8);
    if (p.exitValue() != 0) {
      throw new IllegalStateException(String.join(" ", command) + " failed (exit "
          + p.exitValue() + "): " + text.strip());
    }
    return text;
  }

  /** The JDBC twin: the same transaction, statement by statement, from {@code clients} threads. */
  private static Row jdbc(Lab lab, String mode, int clients, TpcbDriver.Length length,
      RttMeasurement rtt, String synchronousCommit) throws Exception {
    WireDataSource ds = switch (mode) {
      case "simple" -> lab.dataSource().withProperty("preferQueryMode", "simple");
      case "prepared" -> lab.dataSource().withProperty("prepareThreshold", "1");
      default -> lab.dataSource(); // pipeline: one multi-statement string, one Sync
    };
    TpcbTransaction shape = mode.equals("pipeline") ? TpcbTransaction.multiStatement
        : TpcbTransaction.statementByStatement;
    int scale = scale(lab);
    TpcbDriver.Result r = TpcbDriver.run(ds, clients, length, WARMUP,
        (connection, i) -> {
          TpcbTransaction.Client client = new TpcbTransaction.Client(connection,
              shape, scale, 42L + i);
          return client::transaction;
        });
    return new Row("jdbc", mode, rtt.configured().toString(), rtt.configured().millis(),
        rtt.addedMeanMs(), clients, synchronousCommit, r.transactions(), r.tps(), r.latencyMs(),
        r.roundTripsPerTransaction(), Double.NaN, Double.NaN);
  }

  private static int scale(Lab lab) throws SQLException {
    return TpcbData.scale(lab.directDataSource());
  }

  /**
   * Each row with the model's TPS, its server time fitted on the same series at the run's other
   * RTTs, so that the model is a check on the row and not a copy of it; with one RTT there is
   * nothing else to fit on, and the model is NaN (printed as n/a). Rows not run (too slow for
   * the run's duration) and rows without the proxy ({@code --local}) are not fitted on.
   */
  static List<Row> withModel(List<Row> rows) {
    List<Row> out = new ArrayList<>();
    for (Row r : rows) {
      double serverMs = rows.stream().filter(b -> b.tool().equals(r.tool())
              && b.mode().equals(r.mode()) && b.clients() == r.clients()
              && b.synchronousCommit().equals(r.synchronousCommit()) && !b.rtt().equals(r.rtt())
              && !Double.isNaN(b.latencyMs()) && !LOCAL.contains(b.rtt()))
          .mapToDouble(b -> b.latencyMs() - b.roundTripsPerTransaction() * b.addedRttMs())
          .average().orElse(Double.NaN);
      // without the proxy there is no RTT to price: no model
      out.add(r.withModel(LOCAL.contains(r.rtt()) ? Double.NaN : serverMs));
    }
    return out;
  }

  /** Configurations where the two tools' TPS differ by more than 10%. */
  static List<String> findings(List<Row> rows) {
    List<String> out = new ArrayList<>();
    for (Row p : rows) {
      if (!p.tool().equals("pgbench")) {
        continue;
      }
      rows.stream().filter(j -> j.tool().equals("jdbc") && j.mode().equals(p.mode())
              && j.rtt().equals(p.rtt()) && j.clients() == p.clients()
              && j.synchronousCommit().equals(p.synchronousCommit()))
          .findFirst().ifPresent(j -> {
            double diff = (j.tps() - p.tps()) / p.tps();
            if (Math.abs(diff) > 0.10) {
              out.add(String.format(Locale.ROOT, "%s: jdbc %.1f tps vs pgbench %.1f tps (%+.0f%%)",
                  p.configuration(), j.tps(), p.tps(), 100 * diff));
            }
          });
    }
    return out;
  }

  static String table(List<Row> rows) {
    StringBuilder t = new StringBuilder();
    String format = "%-6s %-8s %7s %-8s %9s %9s %10s %10s %9s %6s %10s%n";
    t.append(String.format(Locale.ROOT, format, "RTT", "added", "clients", "mode", "sync",
        "tool", "TPS", "latency", "RT/txn", "diff", "model TPS"));
    t.append("-".repeat(104)).append('\n');
    for (Row r : rows) {
      String diff = "";
      if (r.tool().equals("jdbc")) {
        diff = rows.stream().filter(p -> p.tool().equals("pgbench") && p.mode().equals(r.mode())
                && p.rtt().equals(r.rtt()) && p.clients() == r.clients()
                && p.synchronousCommit().equals(r.synchronousCommit()))
            .filter(p -> !Double.isNaN(p.tps()) && !Double.isNaN(r.tps()))
            .findFirst().map(p -> String.format(Locale.ROOT, "%+.0f%%",
                100 * (r.tps() - p.tps()) / p.tps())).orElse("");
      }
      t.append(String.format(Locale.ROOT, format, r.rtt(),
          String.format(Locale.ROOT, "%.2f ms", r.addedRttMs()), r.clients(), r.mode(),
          r.synchronousCommit(), r.tool(),
          Double.isNaN(r.tps()) ? "-" : String.format(Locale.ROOT, "%.1f", r.tps()),
          Double.isNaN(r.latencyMs()) ? "-" : String.format(Locale.ROOT, "%.2f ms", r.latencyMs()),
          String.format(Locale.ROOT, "%.2f", r.roundTripsPerTransaction()), diff,
          Double.isNaN(r.modelTps()) ? "n/a" : String.format(Locale.ROOT, "%.1f", r.modelTps())));
    }
    t.append("TPS and mean latency per transaction; RT/txn: round trips per transaction, counted"
        + " at pgjdbc's socket for jdbc, at the Lab's relay for pgbench (4 transactions less"
        + " 2, so that connecting cancels out); -: not run, its round trips alone would leave"
        + " fewer than " + LEAST_TRANSACTIONS + " transactions in --duration (the model says"
        + " what it would do);"
        + " diff: jdbc vs pgbench; model TPS = clients / (RT x added RTT + server time), server"
        + " time from the same series at the run's other RTTs, never the row's own (n/a: the"
        + " run has one RTT; add another, e.g. --rtt 0.5ms,20ms).\n");
    return t.toString();
  }
}
