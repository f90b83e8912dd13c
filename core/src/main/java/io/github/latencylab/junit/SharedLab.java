package io.github.latencylab.junit;

import io.github.latencylab.env.Lab;
import io.github.latencylab.env.LabConfig;
import io.github.latencylab.env.PostgresTarget;
import io.github.latencylab.env.Setting;
import io.github.latencylab.wire.JvmWide;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The run's Lab for a framework that configures its datasource before any test runs: a Quarkus
 * test resource, a Micronaut test property provider, a Spring context customizer. It is the
 * Lab the {@link LabExtension}'s budgets read (same settings: {@link #configOfTheRun()}),
 * started on first use, whichever class loader asks, so that every test class of the run, the
 * application's own included, connects through it. The JUnit run closes it when it ends, or
 * the JVM's exit does.
 */
public final class SharedLab {

  /** The key of the JDBC URL (through the proxy, counted) in {@link #connection()}. */
  public static final String URL = "url";
  /** The key of the user name in {@link #connection()}. */
  public static final String USER = "user";
  /** The key of the password (a throwaway one, never printed) in {@link #connection()}. */
  public static final String PASSWORD = "password";
  /** The key of the host in {@link #relayedConnection()}. */
  public static final String HOST = "host";
  /** The key of the port in {@link #relayedConnection()}. */
  public static final String PORT = "port";
  /** The key of the database in {@link #relayedConnection()}. */
  public static final String DATABASE = "database";
  /** The key of the schema the Lab works in, in {@link #relayedConnection()}. */
  public static final String SCHEMA = "schema";

  // the run's Labs by their settings, whoever asked first: a framework's entry or the extension
  private static final Map<String, Lab> LABS = new ConcurrentHashMap<>();
  private static final Map<Lab, Integer> LEASES = new IdentityHashMap<>();

  private SharedLab() {
  }

  /**
   * Where to connect to the run's Lab ({@link #URL}, {@link #USER}, {@link #PASSWORD}),
   * starting it; also set as the system properties {@value LabExtension#URL_PROPERTY},
   * {@value LabExtension#USER_PROPERTY} and {@value LabExtension#PASSWORD_PROPERTY}.
   */
  public static Map<String, String> connection() {
    if (JvmWide.rootCopy(SharedLab.class).isPresent()) {
      return JvmWide.inRootCopy(SharedLab.class, "connection", new Class<?>[0]);
    }
    Lab lab = labFor(configOfTheRun());
    return Map.of(URL, lab.jdbcUrl(), USER, lab.target().user(), PASSWORD,
        lab.target().password());
  }

  /**
   * Where a client that is not pgjdbc (R2DBC, Vert.x's PostgreSQL client) connects to the run's
   * Lab to be counted: its relay ({@code Lab#relay()}, started now if it is not running), which
   * reads any client's protocol as pgjdbc's socket is read. {@link #HOST}, {@link #PORT}, {@link
   * #DATABASE}, {@link #SCHEMA}, {@link #USER}, {@link #PASSWORD}: a reactive datasource's
   * settings, e.g. {@code spring.r2dbc.url}.
   */
  public static Map<String, String> relayedConnection() {
    if (JvmWide.rootCopy(SharedLab.class).isPresent()) {
      return JvmWide.inRootCopy(SharedLab.class, "relayedConnection", new Class<?>[0]);
    }
    PostgresTarget relayed = labFor(configOfTheRun()).relayedTarget();
    return Map.of(HOST, relayed.host(), PORT, Integer.toString(relayed.port()), DATABASE,
        relayed.database(), SCHEMA, relayed.schema() == null ? "public" : relayed.schema(),
        USER, relayed.user(), PASSWORD, relayed.password());
  }

  /**
   * The settings the extension resolves too ({@link LabExtension#configFrom}): the environment's,
   * then JUnit's configuration parameters of the same names, a system property or a line of the
   * first {@code junit-platform.properties} on the class path, as JUnit reads them.
   */
  static LabConfig configOfTheRun() {
    LabConfig config = LabConfig.fromEnvironment();
    Properties junit = junitPlatformProperties();
    for (Setting setting : Setting.values()) {
      String value = System.getProperty(setting.property(),
          junit.getProperty(setting.property()));
      if (value != null && !value.strip().equals(config.get(setting))) {
        config = config.with(setting, value.strip());
      }
    }
    return config;
  }

  /**
   * True when the run is audited ({@code latencylab.audit=true}: {@link AuditSession}), for a
   * framework's entry that must point its datasource at the Lab before the framework boots.
   */
  public static boolean auditing() {
    return configOfTheRun().audit();
  }

  /** The first {@code junit-platform.properties} on the class path, as JUnit reads it. */
  static Properties junitPlatformProperties() {
    Properties junit = new Properties();
    ClassLoader context = Thread.currentThread().getContextClassLoader();
    URL file = (context != null ? context : SharedLab.class.getClassLoader())
        .getResource("junit-platform.properties");
    if (file != null) {
      try (InputStream in = file.openStream()) {
        junit.load(in);
      } catch (IOException e) {
        throw new IllegalArgumentException("Could not read " + file + ": " + e.getMessage(), e);
      }
    }
    return junit;
  }

  /**
   * The run's Lab of {@code config}, started if there is none open: one Lab for the runs whose
   * settings differ only in their own (a report in one run, none in the next: {@link
   * LabConfig#labKey()}), each run's call-site prefixes added.
   */
  static Lab labFor(LabConfig config) {
    LabExtension.callSites(config);
    return LABS.compute(config.labKey(), (key, lab) -> lab != null && !lab.isClosed() ? lab
        : LabExtension.started(config));
  }

  /**
   * Holds the run's Lab ({@link #configOfTheRun()}) open across JUnit runs in this JVM, until
   * closed: for a tool that launches JUnit more than once (a benchmark of a suite's cost), each
   * of whose runs would otherwise start a Lab and close it. The runs lease it as usual.
   */
  public static Lease hold() {
    if (JvmWide.rootCopy(SharedLab.class).isPresent()) {
      throw new IllegalStateException("SharedLab.hold() is for the class path's copy of"
          + " latency-lab; call it outside a framework's class loader");
    }
    return lease(configOfTheRun());
  }

  /**
   * The Lab of {@code config} for one JUnit run, closed when the last run holding it ends: a
   * run started inside another (JUnit's test kit) shares the outer run's Lab.
   */
  static synchronized Lease lease(LabConfig config) {
    Lab lab = labFor(config);
    LEASES.merge(lab, 1, Integer::sum);
    return new Lease(lab);
  }

  private static synchronized void release(Lab lab) {
    if (LEASES.merge(lab, -1, Integer::sum) <= 0) {
      LEASES.remove(lab);
      LABS.values().remove(lab);
      lab.close();
    }
  }

  /** A hold on a Lab: a JUnit run's (its root store closes it) or {@link #hold()}'s. */
  public record Lease(Lab lab) implements AutoCloseable {
    @Override
    public void close() {
      release(lab);
    }
  }
}
