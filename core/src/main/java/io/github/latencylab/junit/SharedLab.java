package io.github.latencylab.junit;

import io.github.latencylab.env.Lab;
import io.github.latencylab.env.LabConfig;
import io.github.latencylab.wire.JvmWide;
import java.lang.reflect.InvocationTargetException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The run's Lab for a framework that configures its datasource before any test runs: a Quarkus
 * test resource, a Micronaut property source, Spring's dynamic properties. It is the Lab the
 * {@link LabExtension}'s budgets read (same settings: {@link LabConfig#fromEnvironment()}), started
 * on first use, whichever class loader asks, so that every test class of the run, the
 * application's own included, connects through it. The JUnit run closes it when it ends, or the
 * JVM's exit does.
 */
public final class SharedLab {

  /** The key of the JDBC URL (through the proxy, counted) in {@link #connection()}. */
  public static final String URL = "url";
  /** The key of the user name in {@link #connection()}. */
  public static final String USER = "user";
  /** The key of the password (a throwaway one, never printed) in {@link #connection()}. */
  public static final String PASSWORD = "password";

  // started here before the extension asked: by its settings, until the extension takes it
  private static final Map<String, Lab> STARTED = new ConcurrentHashMap<>();

  private SharedLab() {
  }

  /**
   * Where to connect to the run's Lab ({@link #URL}, {@link #USER}, {@link #PASSWORD}),
   * starting it; also set as the system properties {@value LabExtension#URL_PROPERTY},
   * {@value LabExtension#USER_PROPERTY} and {@value LabExtension#PASSWORD_PROPERTY}.
   */
  @SuppressWarnings("unchecked")
  public static Map<String, String> connection() {
    var root = JvmWide.rootCopy(SharedLab.class);
    if (root.isPresent()) {
      try {
        return (Map<String, String>) root.get().getMethod("connection").invoke(null);
      } catch (InvocationTargetException e) {
        throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e);
      } catch (ReflectiveOperationException e) {
        throw new IllegalStateException("latency-lab is loaded twice in this JVM (by "
            + JvmWide.describe(SharedLab.class.getClassLoader()) + " and by "
            + JvmWide.describe(root.get().getClassLoader()) + ") and the two copies do not"
            + " match: use one latency-lab-core version on the test class path", e);
      }
    }
    LabConfig config = LabConfig.fromEnvironment();
    Lab lab = STARTED.computeIfAbsent(config.toString(), key -> LabExtension.started(config));
    return Map.of(URL, lab.jdbcUrl(), USER, lab.target().user(), PASSWORD,
        lab.target().password());
  }

  /** The Lab started here for {@code config}, handed over to the extension's run, if any. */
  static Lab take(LabConfig config) {
    return STARTED.remove(config.toString());
  }
}
