package io.github.latencylab.env.backend;

import eu.rekawek.toxiproxy.Proxy;
import eu.rekawek.toxiproxy.ToxiproxyClient;
import io.github.latencylab.env.BackendKind;
import io.github.latencylab.env.LabConfig;
import io.github.latencylab.env.PostgresTarget;
import io.github.latencylab.env.Setting;
import io.github.latencylab.env.link.ProxyToxics;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;

/**
 * Embedded PostgreSQL binaries from Maven Central plus a Toxiproxy server process.
 *
 * <p>zonky's EmbeddedPostgres starts the server with {@code -F} (fsync off) and
 * {@code -c synchronous_commit=off}, and a command-line option wins over ALTER SYSTEM. So once
 * it runs, the backend restarts it with {@code pg_ctl} on the same data directory and port with
 * nothing on its command line but the port: PostgreSQL's stock settings, every one of them
 * changeable with ALTER SYSTEM. zonky still stops it and deletes the data directory on close.
 * That is the JVM's first start; the later ones copy its cluster ({@link ClusterTemplate}) and
 * start the copy with {@code pg_ctl} alone.
 */
public final class EmbeddedBackend implements Backend {

  private final EmbeddedPostgres postgres; // the JVM's first start's; null on a copy
  private final ToxiproxyServer toxiproxy;
  private final Proxy proxy;
  private final PostgresTarget direct;
  private final PostgresTarget proxied;
  private final PostgresTarget baseline;
  private final Path pgCtl;
  private final Path dataDirectory;
  private final boolean dataInMemory;
  // zonky's output: its pg_ctl stop on close writes there too
  private final Path zonkyOutput;
  private final LabConfig config;
  private Path registration;

  private EmbeddedBackend(EmbeddedPostgres postgres, ToxiproxyServer toxiproxy, Proxy proxy,
      PostgresTarget direct, PostgresTarget proxied, PostgresTarget baseline, Path pgCtl,
      Path dataDirectory, Path zonkyOutput, LabConfig config) {
    this.postgres = postgres;
    this.toxiproxy = toxiproxy;
    this.proxy = proxy;
    this.direct = direct;
    this.proxied = proxied;
    this.baseline = baseline;
    this.pgCtl = pgCtl;
    this.dataDirectory = dataDirectory;
    this.dataInMemory = inMemory(dataDirectory);
    this.zonkyOutput = zonkyOutput;
    this.config = config;
  }

  public static EmbeddedBackend start(LabConfig config) throws IOException, InterruptedException {
    ToxiproxyServer toxiproxy = ToxiproxyServer.start(config);
    EmbeddedPostgres postgres = null;
    ClusterTemplate.Copy copy = null;
    boolean copyRuns = false;
    // initdb's and the first server's output to a file, not zonky's INFO log lines in the
    // user's test output: read back only when the start fails
    Path output = Files.createTempFile("latency-lab-initdb-", ".log");
    try {
      Path clusters = clusters(config);
      copy = ClusterTemplate.copy(clusters);
      Path data;
      Path pgCtl;
      int port;
      if (copy == null) {
        postgres = initdb(clusters, output);
        data = dataDirectory(postgres.getPostgresDatabase());
        pgCtl = pgCtl(data);
        port = postgres.getPort();
        // stopped for the restart anyway: this JVM's later starts copy it
        pgCtl(pgCtl, data, "stop", "");
        preloadStatementStatistics(data);
        ClusterTemplate.takeFrom(data, pgCtl);
        pgCtl(pgCtl, data, "start", "-p " + port);
      } else {
        data = copy.dataDirectory();
        pgCtl = copy.pgCtl();
        port = startCopy(pgCtl, data);
        copyRuns = true;
      }
      PostgresTarget direct = new PostgresTarget("127.0.0.1", port, "postgres", "postgres", "");
      ToxiproxyClient client = new ToxiproxyClient("127.0.0.1", toxiproxy.port());
      String upstream = "127.0.0.1:" + port;
      Proxy proxy = client.createProxy("postgres", "127.0.0.1:0", upstream);
      Proxy baseline = client.createProxy("postgres-baseline", "127.0.0.1:0", upstream);
      EmbeddedBackend backend = new EmbeddedBackend(postgres, toxiproxy, proxy, direct,
          direct.at("127.0.0.1", listenPort(proxy)), direct.at("127.0.0.1", listenPort(baseline)),
          pgCtl, data, output, config);
      backend.registerPostmaster();
      Files.deleteIfExists(output);
      return backend;
    } catch (IOException | RuntimeException e) {
      toxiproxy.close();
      if (postgres != null) {
        postgres.close();
      }
      Files.deleteIfExists(output); // after zonky's stop, which writes there too
      if (copy != null) {
        if (copyRuns) {
          try {
            pgCtl(copy.pgCtl(), copy.dataDirectory(), "stop", "");
          } catch (IOException stopFailed) {
            e.addSuppressed(stopFailed); // the start's failure is the one to tell
          }
        }
        Leftovers.deleteTree(copy.dataDirectory());
      }
      throw e;
    }
  }

  /** The JVM's first embedded start: zonky's binaries, initdb and a first server, on a port. */
  private static EmbeddedPostgres initdb(Path clusters, Path output) throws IOException {
    try {
      return EmbeddedPostgres.builder()
          .setOutputRedirector(ProcessBuilder.Redirect.appendTo(output.toFile()))
          .setErrorRedirector(ProcessBuilder.Redirect.appendTo(output.toFile()))
          .setDataDirectory(clusters.resolve(UUID.randomUUID().toString()))
          .start();
    } catch (IOException | RuntimeException e) {
      throw new IOException("The embedded PostgreSQL did not start: " + e.getMessage()
          + "; its output:\n" + tail(output), e);
    }
  }

  /**
   * A later start: the template's copy started by pg_ctl with nothing on its command line but
   * a port (zonky's start and a restart cost it twice the time). A port another process took
   * meanwhile fails the start: then another.
   */
  private static int startCopy(Path pgCtl, Path data) throws IOException {
    IOException last = null;
    for (int attempt = 0; attempt < 3; attempt++) {
      int port = LoopbackPort.free();
      try {
        pgCtl(pgCtl, data, "start", "-p " + port);
        return port;
      } catch (IOException e) {
        last = e;
      }
    }
    throw last;
  }

  /** latencylab.embedded.data, made if missing; a directory it cannot use fails in one line. */
  private static Path clusters(LabConfig config) throws IOException {
    Path dir = config.embeddedDataDir();
    try {
      Files.createDirectories(dir);
      if (!Files.isWritable(dir)) {
        throw new IOException("not writable");
      }
      return dir;
    } catch (IOException e) {
      String why = e instanceof AccessDeniedException ? "permission denied"
          : e instanceof FileAlreadyExistsException ? "a file is in the way" : e.getMessage();
      throw new IOException("The embedded PostgreSQL cannot make its cluster in " + dir + " ("
          + Setting.EMBEDDED_DATA.property() + " from " + config.sourceOf(Setting.EMBEDDED_DATA)
          + "): " + why + ". Fix " + Setting.EMBEDDED_DATA.property()
          + ", or unset it to use the temp directory", e);
    }
  }

  /**
   * pg_stat_statements in the cluster's configuration file (not on the command line, which
   * would win over ALTER SYSTEM): the server's work per statement, counted by the server.
   */
  private static void preloadStatementStatistics(Path data) throws IOException {
    Files.writeString(data.resolve("postgresql.conf"), "\n# latency-lab: the server's work per"
        + " statement (buffers, WAL, temp), read by the Lab on a connection of its own\n"
        + "shared_preload_libraries = 'pg_stat_statements'\n", StandardCharsets.UTF_8,
        StandardOpenOption.APPEND);
  }

  /** The last 20 lines of a process's output. */
  private static String tail(Path output) {
    try {
      List<String> lines = Files.readAllLines(output, StandardCharsets.UTF_8);
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
    } catch (IOException e) {
      return "(unreadable: " + e.getMessage() + ")";
    }
  }

  // zonky stops an orphaned postmaster only once its lock is 10 minutes old: the next start
  // stops this one at once if this JVM dies without stopping it (Leftovers)
  private void registerPostmaster() throws IOException {
    Leftovers.release(registration);
    long pid = Long.parseLong(Files.readAllLines(dataDirectory.resolve("postmaster.pid")).get(0)
        .trim());
    registration = Leftovers.register(config, "postgres", pid, dataDirectory);
  }

  /** The data directory of the server {@code server} connects to. */
  public static Path dataDirectory(DataSource server) throws IOException {
    try (Connection c = server.getConnection();
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SHOW data_directory")) {
      rs.next();
      return Path.of(rs.getString(1));
    } catch (SQLException e) {
      throw new IOException("Could not read the embedded PostgreSQL's data directory: "
          + e.getMessage(), e);
    }
  }

  // postmaster.opts starts with the path of the postgres binary; pg_ctl lies beside it
  private static Path pgCtl(Path data) throws IOException {
    String opts = Files.readString(data.resolve("postmaster.opts"), StandardCharsets.UTF_8);
    int end = opts.indexOf(" \"");
    Path postgresBinary = Path.of((end < 0 ? opts : opts.substring(0, end)).trim());
    Path pgCtl = postgresBinary.resolveSibling("pg_ctl");
    if (!Files.isExecutable(pgCtl)) {
      throw new IOException("No pg_ctl beside the embedded postgres binary " + postgresBinary);
    }
    return pgCtl;
  }

  /** The server's log in its data directory, written by pg_ctl. */
  static final String SERVER_LOG = "latency-lab-server.log";

  private static void restart(Path pgCtl, Path data, int port) throws IOException {
    pgCtl(pgCtl, data, "restart", "-p " + port);
  }

  /** pg_ctl {@code action} (restart, start; stop) with the server options {@code options}. */
  private static void pgCtl(Path pgCtl, Path data, String action, String options)
      throws IOException {
    Path log = data.resolve(SERVER_LOG);
    Path output = Files.createTempFile("latency-lab-pg_ctl-", ".log");
    try {
      List<String> command = new ArrayList<>();
      if ("root".equals(System.getProperty("user.name"))) {
        // pg_ctl refuses root: like zonky, run it in a user namespace where it is not
        command.addAll(List.of("unshare", "-U"));
      }
      command.addAll(List.of(pgCtl.toString(), action, "-D", data.toString()));
      if (!action.equals("start")) {
        command.addAll(List.of("-m", "fast"));
      }
      command.addAll(List.of("-w", "-t", "60"));
      if (!action.equals("stop")) {
        command.addAll(List.of("-l", log.toString(), "-o", options));
      }
      Process p = new ProcessBuilder(command)
          .redirectErrorStream(true)
          .redirectOutput(output.toFile())
          .start();
      boolean done = p.waitFor(90, TimeUnit.SECONDS);
      if (!done || p.exitValue() != 0) {
        p.destroyForcibly();
        throw new IOException("pg_ctl " + action + " of the embedded PostgreSQL failed: "
            + lastWords(Files.readAllLines(output, StandardCharsets.UTF_8), "pg_ctl:")
            + (Files.exists(log) ? "; server log: "
            + lastWords(Files.readAllLines(log, StandardCharsets.UTF_8), "FATAL:", "PANIC:",
                "HINT:") : ""));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("Interrupted during pg_ctl " + action
          + " of the embedded PostgreSQL", e);
    } finally {
      Files.deleteIfExists(output);
    }
  }

  /**
   * The last five lines of a log on one line: those that carry one of {@code marks} (the
   * reason, from the mark on), or all five where none does.
   */
  private static String lastWords(List<String> lines, String... marks) {
    List<String> last = lines.subList(Math.max(0, lines.size() - 5), lines.size());
    List<String> marked = new ArrayList<>();
    for (String line : last) {
      for (String mark : marks) {
        int at = line.indexOf(mark);
        if (at >= 0) {
          marked.add(line.substring(at).strip());
          break;
        }
      }
    }
    return String.join(" | ", marked.isEmpty() ? last : marked);
  }

  static int listenPort(Proxy proxy) {
    return Integer.parseInt(proxy.getListen().substring(proxy.getListen().lastIndexOf(':') + 1));
  }

  public long toxiproxyPid() {
    return toxiproxy.pid();
  }

  boolean toxiproxyAlive() {
    return toxiproxy.isAlive();
  }

  @Override
  public BackendKind kind() {
    return BackendKind.EMBEDDED;
  }

  @Override
  public PostgresTarget direct() {
    return direct;
  }

  @Override
  public Optional<PostgresTarget> proxied() {
    return Optional.of(proxied);
  }

  @Override
  public Optional<PostgresTarget> baseline() {
    return Optional.of(baseline);
  }

  @Override
  public Optional<ProxyToxics> toxics() {
    return Optional.of(new ProxyToxics(URI.create("http://127.0.0.1:" + toxiproxy.port()),
        proxy.getName()));
  }

  @Override
  public synchronized void restart() {
    try {
      restart(pgCtl, dataDirectory, direct.port());
      registerPostmaster();
    } catch (IOException e) {
      throw new IllegalStateException(e.getMessage(), e);
    }
  }

  @Override
  public Optional<String> cannotRestart() {
    return Optional.empty();
  }

  @Override
  public synchronized void startWith(Map<String, String> settings) {
    StringBuilder options = new StringBuilder("-p ").append(direct.port());
    settings.forEach((name, value) -> {
      if (!name.matches("[a-z_.]+") || !value.matches("[A-Za-z0-9_.:+-]+")) {
        throw new IllegalArgumentException("Cannot put " + name + "=" + value
            + " on the command line of the embedded PostgreSQL");
      }
      options.append(" -c ").append(name).append('=').append(value);
    });
    try {
      pgCtl(pgCtl, dataDirectory, "start", options.toString());
      registerPostmaster();
    } catch (IOException e) {
      throw new IllegalStateException(e.getMessage(), e);
    }
  }

  @Override
  public String describe() {
    return "embedded PostgreSQL on 127.0.0.1:" + direct.port() + (dataInMemory
        ? " (its data on tmpfs: commits skip a disk's flush)" : "") + ", toxiproxy-server "
        + toxiproxy.version() + " (pid " + toxiproxy.pid() + ") proxy on 127.0.0.1:"
        + proxied.port();
  }

  // a RAM disk (latencylab.embedded.data=/dev/shm): said in every result's description
  private static boolean inMemory(Path dir) {
    try {
      String type = Files.getFileStore(dir).type();
      return type.equals("tmpfs") || type.equals("ramfs");
    } catch (IOException e) {
      return false;
    }
  }

  @Override
  public synchronized void close() {
    toxiproxy.close();
    try {
      if (postgres != null) {
        postgres.close(); // and deletes the cluster it initialised
        Files.deleteIfExists(zonkyOutput);
      } else {
        pgCtl(pgCtl, dataDirectory, "stop", "");
        Leftovers.deleteTree(dataDirectory);
      }
      Leftovers.release(registration);
    } catch (IOException e) {
      throw new IllegalStateException("Could not stop the embedded PostgreSQL", e);
    }
  }
}
