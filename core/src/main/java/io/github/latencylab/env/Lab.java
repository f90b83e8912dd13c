package io.github.latencylab.env;

import io.github.latencylab.env.backend.AttachedBackend;
import io.github.latencylab.env.backend.Backend;
import io.github.latencylab.env.backend.DockerProbe;
import io.github.latencylab.env.backend.EmbeddedBackend;
import io.github.latencylab.env.backend.ExternalBackend;
import io.github.latencylab.env.backend.TestcontainersBackend;
import io.github.latencylab.env.link.LatencyControl;
import io.github.latencylab.env.link.ProxyToxics;
import io.github.latencylab.env.watch.PlanCache;
import io.github.latencylab.env.watch.ServerWork;
import io.github.latencylab.env.watch.StretchCarry;
import io.github.latencylab.env.watch.StretchWatch;
import io.github.latencylab.env.watch.UncountedSql;
import io.github.latencylab.latency.Link;
import io.github.latencylab.latency.Rtt;
import io.github.latencylab.latency.RttMeasurement;
import io.github.latencylab.latency.ToxicPlan;
import io.github.latencylab.server.ServerRestart;
import io.github.latencylab.server.ServerSettings;
import io.github.latencylab.server.StatementStatistics;
import io.github.latencylab.wire.CountingSocketFactory;
import io.github.latencylab.wire.JvmWide;
import io.github.latencylab.wire.WireCounter;
import io.github.latencylab.wire.WireDataSource;
import io.github.latencylab.wire.WireRelay;
import io.github.latencylab.wire.WireStats;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;
import org.postgresql.ds.PGSimpleDataSource;
import org.postgresql.jdbc.PreferQueryMode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real PostgreSQL with a real Toxiproxy in front of it: set the added round-trip time, and
 * count the round trips a piece of code makes.
 *
 * <pre>{@code
 * try (Lab lab = Lab.start(LabConfig.fromEnvironment())) {
 *   lab.rtt(Rtt.parse("20ms"));
 *   try (Connection c = lab.dataSource().getConnection()) {
 *     WireStats cost = lab.wire(c).measure(() -> c.createStatement().execute("SELECT 1"));
 *     // cost.roundTrips() == 1, and it took ~20 ms longer than without latency
 *   }
 * }
 * }</pre>
 *
 * <p>Everything a backend starts stops on {@link #close()}, and on JVM exit. Everything the
 * Lab's connections create lives in the Lab's own schema ({@link #schema()}); on a database
 * the Lab does not own (external), that schema is dropped on close, and nothing outside it is
 * ever dropped or altered (docs/own-database.md).
 *
 * <p>Another JVM (a benchmark's fork) can work against the same Lab: {@link #handle()} writes
 * where it listens to a file readable by this user only, {@link #attach(Path)} reads it there
 * and gives a Lab with its own counters, in the same schema, whose RTT and schema stay this
 * Lab's.
 */
public final class Lab implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(Lab.class);
  private static final AtomicInteger TOXICS = new AtomicInteger();

  private final String id;
  private final Backend backend;
  private final LabSchema schema;
  private final PostgresTarget target;
  private final PostgresTarget proxied; // the target without the relay
  private final PostgresTarget direct;
  private final WireCounter wire = new WireCounter();
  private final WireCounter directWire = new WireCounter();
  private final WireCounter relayChecks = new WireCounter();
  private WireRelay relay;
  private final boolean relayed; // the relay is on the path of dataSource()
  private final WireDataSource dataSource;
  private final WireDataSource directDataSource;
  private final LatencyControl latency; // null when attached: the other Lab sets the RTT
  private final ServerSettings settings;
  private final Thread shutdownHook;
  private ServerInfo server;
  private String toxiproxyVersion;
  private Connection watchConnection; // ServerWork's, opened on first use
  // UncountedSql's and ServerWork's reads of pg_stat_statements: each query planned once, so a
  // budget's reads of the server cost short round trips, not a plan of a view each
  private Connection sessionsConnection;
  private String watchedAs; // "lab-1-2 (jdbc:postgresql://...)": what a budget's lines name
  // the plans ServerWork read, by statement text, until the wire shows what may change one
  private final PlanCache plans = new PlanCache(() -> wire.planChanges()
      + directWire.planChanges() + relayChecks.planChanges());
  private final AtomicLong ownSessions = new AtomicLong(); // the connections plain() made
  private final StretchCarry stretchCarry = new StretchCarry(this::wireMark);
  private StatementStatistics.Located statementStatistics; // found on first use
  private boolean closed;
  private boolean stopped;

  private Lab(String id, Backend backend, LabSchema schema, boolean calibrate,
      boolean wholeMillisecondToxics, Link link, boolean relayed) {
    this.id = id;
    this.backend = backend;
    this.schema = schema;
    String inUrl = backend.direct().schema();
    if (inUrl != null && !inUrl.equals(schema.name())) {
      LOG.info("currentSchema={} of the URL is not used: the Lab works in schema {}", inUrl,
          schema.name());
    }
    this.direct = inSchema(backend.direct());
    this.proxied = backend.proxied().map(this::inSchema).orElse(direct);
    // before the latency: the RTT is calibrated through the path the clients take
    this.relayed = relayed;
    this.relay = relayed ? startRelay() : null;
    this.target = relay == null ? proxied : proxied.at(relay.address());
    // first: it asks the Toxiproxy what it can do, and may fail
    this.latency = backend instanceof AttachedBackend ? null
        : new LatencyControl(backend.toxics().orElse(null), plain(target),
            backend.baseline().map(this::inSchema).map(this::plain).orElse(null), calibrate,
            wholeMillisecondToxics, link);
    Link applied = latency != null ? latency.link() : link;
    wire.link(applied);
    relayChecks.link(applied);
    CountingSocketFactory.register(id, wire);
    JvmWide.statementCounts().put(id, () -> wire.snapshot().statements());
    this.dataSource = new WireDataSource(target.jdbcUrl(), target.user(), target.password(),
        id, wire);
    // counted on their own: round trips that bypass the proxy are not the workload's
    CountingSocketFactory.register(id + "-direct", directWire);
    this.directDataSource = new WireDataSource(direct.jdbcUrl(), direct.user(),
        direct.password(), id + "-direct", directWire);
    this.settings = new ServerSettings(plain(direct), backend.ownsDatabase()
        ? "the " + backend.kind().label() + " PostgreSQL"
        : "the external database " + direct.jdbcUrl(),
        backend.cannotRestart().isEmpty() ? new BackendRestart() : null,
        backend.cannotRestart().orElse(null), this::refreshServerInfo);
    this.shutdownHook = new Thread(this::stopBackend, "latency-lab-shutdown-" + id);
    Runtime.getRuntime().addShutdownHook(shutdownHook);
  }

  // pgjdbc sends currentSchema as search_path in the startup packet: no extra round trip
  private PostgresTarget inSchema(PostgresTarget t) {
    return t.withParameter("currentSchema", schema.name());
  }

  /** Starts a Lab with settings from system properties and environment variables. */
  public static Lab start() {
    return start(LabConfig.fromEnvironment());
  }

  public static Lab start(LabConfig config) {
    BackendKind kind = resolve(config);
    String id = newId();
    long started = System.nanoTime();
    LOG.debug("Starting the {} Lab", kind.label());
    Backend backend;
    try {
      backend = switch (kind) {
        case EMBEDDED -> EmbeddedBackend.start(config);
        case TESTCONTAINERS -> {
          requireTestcontainers();
          requireDockerAndImages(config, System.getenv());
          yield TestcontainersBackend.start(config);
        }
        case EXTERNAL -> ExternalBackend.start(config);
        case AUTO -> throw new IllegalStateException("resolved above");
      };
    } catch (IOException e) {
      throw new IllegalStateException("Could not start the " + kind.label() + " Lab: "
          + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while starting the " + kind.label() + " Lab", e);
    }
    LabSchema schema;
    try {
      schema = LabSchema.claim(backend.direct(), config.get(Setting.SCHEMA),
          !backend.ownsDatabase());
    } catch (RuntimeException e) {
      backend.close();
      throw e;
    }
    Lab lab;
    try {
      lab = new Lab(id, backend, schema, config.calibrate(), config.wholeMillisecondToxics(),
          config.link(), config.relay());
    } catch (RuntimeException e) {
      try {
        backend.close();
      } finally {
        schema.close();
      }
      throw e;
    }
    lab.applyDurability(config);
    // the one line a start says at INFO; the rest (what runs where, how) at DEBUG. A start
    // takes seconds, so it says seconds itself: env sits below the report and its Format
    LOG.info("latency-lab: {} Lab ready in {} s: PostgreSQL {}, Toxiproxy {}, pgjdbc {},"
        + " schema {}", kind.label(), String.format(Locale.ROOT, "%.2f",
            (System.nanoTime() - started) / 1e9), lab.server().version(),
        lab.toxiproxyVersion(), LabEnvironment.pgjdbcOnTheClasspath(), schema.name());
    LOG.debug("Lab ready: {}", lab.describe());
    return lab;
  }

  /**
   * The Lab whose {@link #handle()} wrote {@code handle}, from another JVM: the same
   * PostgreSQL and proxies, counted on this Lab's own {@link #wire()}. Closing it stops
   * nothing; its RTT is the other Lab's to set ({@link #rtt(Rtt)} is refused).
   */
  public static Lab attach(Path handle) {
    LabHandle.Attached attached = LabHandle.read(handle);
    String id = newId();
    return new Lab(id, attached.backend(), LabSchema.attached(attached.schema()), false, false,
        attached.link(), LabConfig.fromEnvironment().relay());
  }

  /**
   * Writes what another JVM needs to {@link #attach(Path)} to this Lab, credentials
   * included, to a file readable by this user only. Close the handle when the other JVMs
   * are done: it deletes the file.
   */
  public LabHandle handle() {
    return LabHandle.write(backend.kind(), described(), schema.name(), direct,
        backend.proxied().map(t -> target), backend.baseline().map(this::inSchema),
        backend.toxics(), link());
  }

  /** True when this Lab works against another JVM's, through {@link #attach(Path)}. */
  public boolean attached() {
    return latency == null;
  }

  /**
   * Why a Lab of {@code config}'s backend could not start here without waiting on a pull, if
   * it could not: for testcontainers, Testcontainers not on the classpath, no Docker engine,
   * or an image not present locally.
   */
  public static Optional<String> unavailableReason(LabConfig config) {
    BackendKind kind = config.backend();
    if (kind == BackendKind.AUTO) {
      return Optional.empty(); // auto falls back to embedded
    }
    return kind == BackendKind.TESTCONTAINERS ? testcontainersMissing(config) : Optional.empty();
  }

  /**
   * AUTO becomes testcontainers only where it can start at once (Testcontainers on the
   * classpath, a Docker engine answering, both images present: never a pull that may hang),
   * embedded elsewhere, and says why in one line.
   */
  static BackendKind resolve(LabConfig config) {
    if (config.backend() != BackendKind.AUTO) {
      return config.backend();
    }
    Optional<String> missing = testcontainersMissing(config);
    // a user with Docker and without the images may expect containers: say it where a CLI shows it
    missing.ifPresent(why -> {
      if (why.startsWith("image ")) {
        LOG.warn("Backend auto: embedded, not testcontainers: {}", why);
      } else {
        LOG.info("Backend auto: embedded, not testcontainers: {}", why);
      }
    });
    return resolve(BackendKind.AUTO, missing);
  }

  static BackendKind resolve(BackendKind requested, Optional<String> testcontainersMissing) {
    if (requested != BackendKind.AUTO) {
      return requested;
    }
    return testcontainersMissing.isEmpty() ? BackendKind.TESTCONTAINERS : BackendKind.EMBEDDED;
  }

  private static Optional<String> testcontainersMissing(LabConfig config) {
    if (!testcontainersOnClasspath()) {
      return Optional.of(TESTCONTAINERS_MISSING);
    }
    Map<String, String> env = System.getenv();
    if (!DockerProbe.dockerAnswers(env)) {
      return Optional.of("no Docker engine answers");
    }
    for (Setting image : new Setting[] {Setting.POSTGRES_IMAGE, Setting.TOXIPROXY_IMAGE}) {
      if (!DockerProbe.imagePresent(env, config.get(image))) {
        return Optional.of("image " + config.get(image) + " (" + image.property()
            + ") is not present locally: docker pull it, or set " + image.property());
      }
    }
    return Optional.empty();
  }

  /** How long a forced testcontainers backend waits for a missing image's pull. */
  static final Duration PULL_TIMEOUT = Duration.ofMinutes(2);

  /**
   * testcontainers forced: fail in one line when no engine answers, or an image is neither
   * present nor pullable within {@link #PULL_TIMEOUT} (Testcontainers itself would retry a
   * failing pull for minutes, logging stack traces).
   */
  static void requireDockerAndImages(LabConfig config, Map<String, String> env) {
    if (!DockerProbe.dockerAnswers(env)) {
      throw new IllegalStateException("Cannot start the testcontainers backend: no Docker engine"
          + " answers (" + DockerProbe.where(env) + "): start Docker, set DOCKER_HOST, or use"
          + " the embedded backend (" + Setting.BACKEND.property() + "=embedded)");
    }
    for (Setting image : new Setting[] {Setting.POSTGRES_IMAGE, Setting.TOXIPROXY_IMAGE}) {
      String name = config.get(image);
      if (!DockerProbe.imagePresent(env, name)) {
        LOG.info("Pulling {} (at most {} s)", name, PULL_TIMEOUT.toSeconds());
        DockerProbe.pull(env, name, PULL_TIMEOUT).ifPresent(why -> {
          throw new IllegalStateException("Cannot start the testcontainers backend: image "
              + name + " (" + image.property() + ") is not present locally and could not be"
              + " pulled: " + why + ". Pull it where a registry is reachable, set "
              + image.property() + " to a local image, or use the embedded backend ("
              + Setting.BACKEND.property() + "=embedded)");
        });
      }
    }
  }

  private static final String TESTCONTAINERS_MISSING = "Testcontainers is not on the"
      + " classpath: add org.testcontainers:testcontainers-postgresql and"
      + " org.testcontainers:testcontainers-toxiproxy (test scope) to use the testcontainers"
      + " backend";

  private static boolean testcontainersOnClasspath() {
    try {
      Class.forName("org.testcontainers.postgresql.PostgreSQLContainer", false,
          Lab.class.getClassLoader());
      Class.forName("org.testcontainers.toxiproxy.ToxiproxyContainer", false,
          Lab.class.getClassLoader());
      return true;
    } catch (ClassNotFoundException | LinkageError e) {
      return false;
    }
  }

  private static void requireTestcontainers() {
    if (!testcontainersOnClasspath()) {
      throw new IllegalStateException("Cannot start the testcontainers backend: "
          + TESTCONTAINERS_MISSING);
    }
  }

  public BackendKind backend() {
    return backend.kind();
  }

  /**
   * The PostgreSQL server's postmaster where it runs as a process of this machine (the
   * embedded backend), else empty: what {@link MachineLoad} counts as the run's own.
   */
  public Optional<Long> localServerPid() {
    if (backend.kind() != BackendKind.EMBEDDED) {
      return Optional.empty();
    }
    try (Connection c = plain(direct).getConnection();
        java.sql.Statement st = c.createStatement();
        java.sql.ResultSet rs = st.executeQuery("SELECT pg_backend_pid()")) {
      rs.next();
      return ProcessHandle.of(rs.getLong(1)).flatMap(ProcessHandle::parent)
          .map(ProcessHandle::pid);
    } catch (SQLException e) {
      return Optional.empty();
    }
  }

  /** What runs where and how the latency is made, in one line (never a password). */
  public String describe() {
    return described() + ", schema " + schema.name();
  }

  // the backend and, where this Lab sets the RTT through a Toxiproxy, how (an attached Lab's
  // backend has its owner's already)
  private String described() {
    return backend.describe() + (latency != null && backend.toxics().isPresent()
        ? "; " + latency.method() + "; link " + latency.link().describe() : "");
  }

  /**
   * The path's window beyond its RTT ({@link Setting#LINK}) as this Lab applies it: a bare
   * delay where the Toxiproxy has no {@code tcp_window} toxic; null for an attached Lab (its
   * owner's {@link #describe()} says).
   */
  public Link link() {
    return latency == null ? null : latency.link();
  }

  /**
   * Every connection's window back to the initial window, as a new connection's, or one that
   * Linux let idle for a few retransmission timeouts: what a pooled connection idle between
   * requests often pays. A JMH loop on one connection otherwise measures warm windows. An
   * attached Lab restarts its owner's; without a Toxiproxy there is nothing to restart.
   */
  public void restartWindows() {
    wire.restartWindows();
    if (latency != null) {
      latency.restartWindows();
    } else if (backend instanceof AttachedBackend a && a.ownersToxics().isPresent()) {
      LatencyControl.restartWindows(a.ownersToxics().get()); // a JMH fork's, on its runner's
    }
  }

  /**
   * Whether every round trip gets the RTT set (latency_us toxics), not only on average; false
   * for an attached Lab (its owner's {@link #describe()} says).
   */
  public boolean perRoundTripLatency() {
    return latency != null && latency.microseconds();
  }

  /**
   * The schema that holds everything this Lab and its workloads create: every connection the
   * Lab hands out works in it ({@code currentSchema}); for a libpq tool such as pgbench, pass
   * {@code PGOPTIONS='-c search_path=<schema>'} ({@link PostgresTarget#libpqEnvironment()}
   * does). The Lab creates it at start and, where the database outlives the Lab (external),
   * drops it on close; it never drops or alters anything outside it.
   */
  public String schema() {
    return schema.name();
  }

  /** Connections through the proxy (when there is one), counted on {@link #wire()}. */
  public WireDataSource dataSource() {
    return dataSource;
  }

  /**
   * Connections straight to PostgreSQL, bypassing the proxy, for set-up and checks: they do
   * not count on {@link #wire()} (each still has its own counter, {@link #wire(Connection)}).
   */
  public WireDataSource directDataSource() {
    return directDataSource;
  }

  /** True when connections go through a Toxiproxy proxy, so that an RTT can be added. */
  public boolean hasProxy() {
    return backend.proxied().isPresent();
  }

  /**
   * Throws unless {@code connection} works in a schema latency-lab created (a Lab's
   * {@link #schema()}, alone on its search_path). A workload calls it before its set-up drops
   * or creates anything, so that a data source that is not a Lab's can never make it drop a
   * user's table of the same name.
   */
  public static void requireLabSchema(Connection connection) throws SQLException {
    LabSchema.require(connection);
  }

  /**
   * Where {@link #dataSource()} connects: through the proxy (and the relay, with
   * {@link Setting#RELAY}), in {@link #schema()}.
   */
  public PostgresTarget target() {
    return target;
  }

  /**
   * The counting relay in front of the proxy, through which any client's round trips are
   * counted from the protocol on {@link #wire()}, as pgjdbc's are at its socket (which the
   * relay counts again apart, {@link WireRelay#checks()}): the Lab's own path with
   * {@link Setting#RELAY}, else one started now, whose hop the RTT was not calibrated with
   * (tens of microseconds).
   */
  public synchronized WireRelay relay() {
    if (relay == null) {
      relay = startRelay();
    }
    return relay;
  }

  private WireRelay startRelay() {
    return WireRelay.start(new InetSocketAddress(proxied.host(), proxied.port()), wire,
        relayChecks);
  }

  /** True when {@link #dataSource()} connects through {@link #relay()} ({@link Setting#RELAY}). */
  public boolean relayed() {
    return relayed;
  }

  /** Where a client connects to be counted by {@link #relay()}: any client, JVM or not. */
  public PostgresTarget relayedTarget() {
    return proxied.at(relay().address());
  }

  /** Where {@link #directDataSource()} connects: straight to PostgreSQL, in {@link #schema()}. */
  public PostgresTarget directTarget() {
    return direct;
  }

  /**
   * A JDBC URL through the proxy whose connections count on {@link #wire()}, for code that
   * wants a URL rather than a DataSource (user and password: {@link #target()}).
   */
  public String jdbcUrl() {
    return target.withParameter("socketFactory", CountingSocketFactory.class.getName())
        .withParameter("socketFactoryArg", id).jdbcUrl();
  }

  /**
   * Round trips and bytes of every connection of {@link #dataSource()}, and of any client's
   * through {@link #relay()}: the workload's.
   */
  public WireCounter wire() {
    return wire;
  }

  /** Round trips and bytes of one connection from {@link #dataSource()} or the direct one. */
  public WireCounter wire(Connection connection) {
    try {
      return dataSource.counterOf(connection);
    } catch (IllegalArgumentException notProxied) {
      return directDataSource.counterOf(connection);
    }
  }

  /**
   * Adds {@code rtt} to every round trip through the proxy, from now on, for open connections
   * too. Returns the calibration measurement when this call calibrated the setting, else null.
   */
  public RttMeasurement rtt(Rtt rtt) {
    return probing(rtt, () -> latency.set(rtt));
  }

  /**
   * Calibrates {@code rtt} again and sets it: what the path itself adds can move on a shared
   * machine (a load that came or went since the first calibration), and the toxics were sized
   * on it. Returns the new calibration's measurement (null where the Lab does not calibrate).
   */
  public RttMeasurement recalibrate(Rtt rtt) {
    return probing(rtt, () -> latency.recalibrate(rtt));
  }

  /** The RTT set by {@link #rtt(Rtt)}; an attached Lab does not know its owner's. */
  public Rtt rtt() {
    requireControl(Rtt.ZERO);
    return latency.current();
  }

  /**
   * Sets {@code rtt} and measures the baseline and the added RTT with about 1.5 s of probes
   * (many where each is cheap, at least 8 at 320 ms).
   */
  public RttMeasurement measure(Rtt rtt) {
    return measure(rtt, LatencyControl.samplesFor(rtt));
  }

  /** Sets {@code rtt} and measures the baseline and the added RTT with {@code samples} probes. */
  public RttMeasurement measure(Rtt rtt, int samples) {
    return probing(rtt, () -> latency.measure(rtt, samples));
  }

  /** What the latency control does about {@code rtt}, a failed probe named with the setting. */
  private RttMeasurement probing(Rtt rtt, Probing probing) {
    requireControl(rtt);
    try {
      return probing.run();
    } catch (SQLException e) {
      throw new IllegalStateException("Could not probe the latency of " + rtt + ": "
          + e.getMessage(), e);
    }
  }

  @FunctionalInterface
  private interface Probing {
    RttMeasurement run() throws SQLException;
  }

  /**
   * Adds {@code toxic} to the workload's proxy, beside the RTT's toxics, until the returned
   * handle is closed: a fault such as {@code limit_data} (cut after so many bytes),
   * {@code reset_peer}, {@code timeout}, {@code slicer} or {@code bandwidth}, with Toxiproxy's
   * attributes. Connections already open get it too, from now on (a {@code limit_data} counts
   * their bytes from now). What the helpers do under each: docs/failure-behaviour.md.
   */
  public AddedToxic addToxic(ToxicPlan.Toxic toxic) {
    if (attached() || backend.toxics().isEmpty()) {
      throw new IllegalStateException("Cannot add a " + toxic.type() + " toxic: this Lab has"
          + " no Toxiproxy of its own (" + describe() + ")");
    }
    ProxyToxics toxics = backend.toxics().get();
    String name = "latency-lab-" + toxic.type() + "-" + TOXICS.incrementAndGet();
    try {
      toxics.add(name, toxic);
    } catch (IOException e) {
      throw new IllegalStateException(e.getMessage(), e);
    }
    return () -> {
      try {
        toxics.remove(name);
      } catch (IOException e) {
        throw new IllegalStateException(e.getMessage(), e);
      }
    };
  }

  /** A toxic added by {@link #addToxic}: closing it removes it. */
  public interface AddedToxic extends AutoCloseable {
    @Override
    void close();
  }

  private void requireControl(Rtt rtt) {
    if (attached()) {
      throw new IllegalStateException("Cannot set or read the RTT of an attached Lab ("
          + describe() + "): the Lab it is attached to sets it");
    }
    if (rtt.micros() > 0 && !hasProxy()) {
      throw new IllegalStateException("Cannot add " + rtt + ": this Lab has no Toxiproxy ("
          + describe() + "). Set " + Setting.TOXIPROXY_URL.property()
          + " to add latency; without it the latency is the real network's");
    }
  }

  // the Lab's own server starts with stock settings; fast turns commits' waits off
  private void applyDurability(LabConfig config) {
    Durability durability = config.durability();
    if (backend.kind() == BackendKind.EXTERNAL) {
      if (!"default".equals(config.sourceOf(Setting.DURABILITY))) {
        LOG.warn("{}={} ignored: an external database keeps its own settings", Setting
            .DURABILITY.property(), durability.label());
      }
      return;
    }
    if (!durability.settings().isEmpty()) {
      try {
        settings.apply(durability.settings());
      } catch (RuntimeException e) {
        close();
        throw e;
      }
      LOG.debug("Durability {}: {}", durability.label(), durability.settings());
    }
  }

  /**
   * The server's settings by name: read them in human units, change them (ALTER SYSTEM and a
   * reload, or a restart where the setting needs one and the backend can), undo the change.
   * Changes not undone are undone when an external Lab closes; an embedded or testcontainers
   * server goes away with the Lab anyway.
   */
  public ServerSettings settings() {
    return settings;
  }

  /**
   * Restarts the server on the same data directory and port: its buffer cache starts empty
   * (the OS page cache does not). Connections open across it break; the Lab's data sources and
   * proxies go on working for new connections. Refused on an external database.
   */
  public void restartServer() {
    backend.cannotRestart().ifPresent(why -> {
      throw new IllegalStateException("Cannot restart the server: " + why);
    });
    restartBackend();
    refreshServerInfo();
  }

  private void restartBackend() {
    try {
      if (latency != null) {
        latency.close(); // its probe connections would not survive the restart
      }
    } catch (SQLException e) {
      LOG.debug("probe connection did not close cleanly", e);
    }
    backend.restart();
  }

  /** How the Lab's server settings restart the backend's PostgreSQL. */
  private final class BackendRestart implements ServerRestart {
    @Override
    public void restart() {
      restartBackend();
    }

    @Override
    public void startWith(Map<String, String> settings) {
      backend.startWith(settings);
    }
  }

  /** The server's version and the settings that matter for results, read once. */
  public synchronized ServerInfo server() {
    if (server == null) {
      try (Connection c = plain(direct).getConnection()) {
        server = ServerInfo.read(c);
      } catch (SQLException e) {
        throw new IllegalStateException("Could not read the server's settings: " + e.getMessage(), e);
      }
    }
    return server;
  }

  /**
   * What the Toxiproxy's /version says ("2.5.0+latency_us": latency-lab's own), "none" without
   * one, "unknown" for an attached Lab.
   */
  public synchronized String toxiproxyVersion() {
    if (toxiproxyVersion == null) {
      try {
        toxiproxyVersion = backend.toxics().isPresent() ? backend.toxics().get().serverVersion()
            : hasProxy() ? "unknown" : "none";
      } catch (IOException e) {
        throw new IllegalStateException("Could not read Toxiproxy's version: " + e.getMessage(),
            e);
      }
    }
    return toxiproxyVersion;
  }

  /** Versions, settings and machine, for every result this Lab produces. */
  public LabEnvironment environment() {
    return LabEnvironment.of(this);
  }

  /** Forgets the settings read by {@link #server()}, e.g. after changing one. */
  public synchronized void refreshServerInfo() {
    server = null;
    plans.clear(); // a setting may change a plan
  }

  /**
   * Starts checking the server's sessions against this Lab's counted connections, for a budget:
   * SQL on a connection it did not count is then a finding ({@link UncountedSql}). Empty on a
   * database the Lab does not own, or attached from another JVM.
   */
  public synchronized Optional<UncountedSql> watchUncounted() {
    return StretchWatch.start(uncountedWatch(), null).uncounted();
  }

  /**
   * Starts reading what the server does for the statements of a stretch of a test: their plans
   * and, where pg_stat_statements is there (preloaded in the Lab's own servers), their work
   * ({@link ServerWork}). Empty for a Lab attached from another JVM.
   */
  public synchronized Optional<ServerWork> watchWork() {
    return StretchWatch.start(null, workWatch()).work();
  }

  /**
   * Both watches of a stretch, {@link #watchUncounted()} and, with {@code work}, {@link
   * #watchWork()}, read together: one round trip at the start (none where the last stretch's
   * end left it and nothing has crossed this Lab's wire since: {@link StretchCarry}), one at
   * the end.
   */
  public synchronized StretchWatch watchStretch(boolean work) {
    return StretchWatch.start(uncountedWatch(), work ? workWatch() : null, stretchCarry);
  }

  // any byte on a connection the Lab counts (a Terminate too: the server counts a session as
  // its process ends), or a session it starts, raises it
  private long wireMark() {
    long mark = ownSessions.get();
    for (WireCounter counter : new WireCounter[] {wire, directWire, relayChecks}) {
      WireStats s = counter.snapshot();
      mark += s.bytesSent() + s.bytesReceived() + counter.sessionsStarted();
    }
    return mark;
  }

  private UncountedSql uncountedWatch() {
    if (!backend.ownsDatabase() || backend instanceof AttachedBackend || stopped) {
      return null;
    }
    long since = System.nanoTime();
    if (watchedAs == null) {
      watchedAs = id + " (" + target.redactedUrl() + ")";
    }
    return UncountedSql.unstarted(sessionsWatch(), id,
        pid -> wire.countedBackendSince(pid, since)
            || directWire.countedBackendSince(pid, since)
            || relayChecks.countedBackendSince(pid, since),
        () -> wire.sessionsStarted() + directWire.sessionsStarted()
            + relayChecks.sessionsStarted() + ownSessions.get(), watchedAs,
        server().versionNum());
  }

  private ServerWork workWatch() {
    if (backend instanceof AttachedBackend || stopped) {
      return null;
    }
    StatementStatistics.Located located = statementStatistics();
    return ServerWork.unstarted(watch("read the server's work"), sessionsWatch(),
        located.view(), located.unavailable().orElse(null), plans);
  }

  /**
   * Where pg_stat_statements is read on the Lab's database, created there on a server the Lab
   * owns (which preloads it), found once; else why it cannot be (said once in the log).
   */
  public synchronized StatementStatistics.Located statementStatistics() {
    if (statementStatistics == null) {
      Connection watch = watch("read the server's work");
      synchronized (watch) {
        try {
          statementStatistics = StatementStatistics.locate(watch, backend.ownsDatabase());
        } catch (SQLException e) {
          statementStatistics = new StatementStatistics.Located(null, "the server's work per"
              + " statement is not counted: " + e.getMessage());
        }
      }
      statementStatistics.unavailable().ifPresent(why -> LOG.info("{}", why));
    }
    return statementStatistics;
  }

  // the Lab's own connection beside the counted ones, for reading what the server saw
  private Connection sessionsWatch() {
    try {
      if (sessionsConnection == null || sessionsConnection.isClosed()) {
        PGSimpleDataSource ds = plain(direct);
        ds.setPrepareThreshold(1);
        sessionsConnection = ds.getConnection();
      }
      return sessionsConnection;
    } catch (SQLException e) {
      throw new IllegalStateException("Could not connect to " + id + "'s PostgreSQL to check"
          + " its sessions: " + e.getMessage(), e);
    }
  }

  private Connection watch(String purpose) {
    try {
      if (watchConnection == null || watchConnection.isClosed()) {
        PGSimpleDataSource ds = plain(direct);
        // simple queries: EXPLAIN (GENERIC_PLAN) of a statement with $1 binds nothing
        ds.setPreferQueryMode(PreferQueryMode.SIMPLE);
        watchConnection = ds.getConnection();
      }
      return watchConnection;
    } catch (SQLException e) {
      throw new IllegalStateException("Could not connect to " + id + "'s PostgreSQL to "
          + purpose + ": " + e.getMessage(), e);
    }
  }

  // connections the Lab makes for itself are not counted on the user's wire, but each is a
  // session the server starts: UncountedSql accounts for them by ownSessions
  private PGSimpleDataSource plain(PostgresTarget target) {
    PGSimpleDataSource ds = new OwnConnections(ownSessions);
    ds.setURL(target.jdbcUrl());
    // told apart from the application's by UncountedSql; a name the user's URL gives wins
    if (!target.parameters().containsKey("ApplicationName")) {
      ds.setApplicationName(UncountedSql.OWN_APPLICATION_NAME);
    }
    ds.setUser(target.user());
    ds.setPassword(target.password());
    return ds;
  }

  /** A data source of the Lab's own that counts the sessions it opens. */
  private static final class OwnConnections extends PGSimpleDataSource {
    private static final long serialVersionUID = 1L;
    private final transient AtomicLong opened;

    OwnConnections(AtomicLong opened) {
      this.opened = opened;
    }

    @Override
    public Connection getConnection(String user, String password) throws SQLException {
      opened.incrementAndGet(); // before the server counts it: never fewer than the server's
      return super.getConnection(user, password);
    }
  }

  // unique in the JVM, whichever copy of latency-lab starts the Lab (JvmWide)
  private static String newId() {
    return "lab-" + ProcessHandle.current().pid() + "-" + JvmWide.nextLabNumber();
  }

  /** Whether {@link #close()} was called. */
  public synchronized boolean isClosed() {
    return closed;
  }

  // package-private for tests that check nothing is left running
  Backend backendForTests() {
    return backend;
  }

  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      Runtime.getRuntime().removeShutdownHook(shutdownHook);
    } catch (IllegalStateException shuttingDown) {
      // the hook is running or will run: it stops the backend
    }
    stopBackend();
  }

  private synchronized void stopBackend() {
    if (stopped) {
      return;
    }
    stopped = true;
    if (!backend.ownsDatabase()) {
      try {
        settings.restoreAll();
      } catch (RuntimeException e) {
        LOG.warn("Could not restore the external database's settings: {}", e.getMessage());
      }
    }
    try {
      if (latency != null) {
        latency.close();
      }
    } catch (SQLException e) {
      LOG.debug("probe connection did not close cleanly", e);
    }
    for (Connection watching : new Connection[] {watchConnection, sessionsConnection}) {
      if (watching != null) {
        try {
          watching.close();
        } catch (SQLException e) {
          LOG.debug("a watch of the server did not close cleanly", e);
        }
      }
    }
    // the relay and the proxies first: the workload's connections through them end, and
    // with them any lock that would hold up dropping the schema
    if (relay != null) {
      relay.close();
    }
    try {
      backend.close();
    } finally {
      schema.close();
    }
    CountingSocketFactory.unregister(id);
    CountingSocketFactory.unregister(id + "-direct");
    JvmWide.statementCounts().remove(id);
    LOG.debug("Lab stopped: {}", backend.kind().label());
  }
}
