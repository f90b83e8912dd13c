package io.github.latencylab.env;

import java.nio.file.Path;
import java.util.Map;

/**
 * Every setting of the Lab: its system property, its environment variable, its default and what
 * it does. A system property wins over the environment variable, which wins over the default.
 * README's settings table mirrors this enum.
 */
public enum Setting {
  BACKEND("latencylab.backend", "auto",
      "auto | embedded | testcontainers | external. auto: testcontainers where it can start at"
          + " once (Testcontainers on the classpath, a Docker engine answering, both images"
          + " present locally), embedded elsewhere, with a line saying why."),
  TOXIPROXY_SERVER("latencylab.toxiproxy.server", "",
      "embedded: path of the toxiproxy-server binary. Empty: toxiproxy-server on PATH, then the"
          + " cache, then built there with go."),
  CACHE_DIR("latencylab.cache", "",
      "Where built tools are kept. Empty: $XDG_CACHE_HOME/latency-lab or ~/.cache/latency-lab."),
  POSTGRES_IMAGE("latencylab.postgres.image", "postgres:17",
      "testcontainers: the PostgreSQL image (any image compatible with the official one)."),
  TOXIPROXY_IMAGE("latencylab.toxiproxy.image", "ghcr.io/shopify/toxiproxy:2.5.0",
      "testcontainers: the Toxiproxy image."),
  SCHEMA("latencylab.schema", "latency_lab",
      "The schema that holds everything latency-lab creates (every connection of the Lab works"
          + " in it: currentSchema). The Lab creates it at start and marks it as its own; it"
          + " refuses a schema of that name it did not create; external: dropped on close."),
  JDBC_URL("latencylab.jdbc.url", "",
      "external: JDBC URL of the database, e.g. jdbc:postgresql://db.example.com:5432/app."
          + " Every parameter is kept (sslmode, sslrootcert, options, ...)."),
  JDBC_USER("latencylab.jdbc.user", "", "external: user name."),
  JDBC_PASSWORD("latencylab.jdbc.password", "", "external: password."),
  TOXIPROXY_URL("latencylab.toxiproxy.url", "",
      "external: Toxiproxy API URL, e.g. http://localhost:8474. Empty: no proxy; the latency is"
          + " the real network's, measured and reported as such."),
  TOXIPROXY_LISTEN("latencylab.toxiproxy.listen", "127.0.0.1:0",
      "external: address the proxy listens on, as Toxiproxy sees it (port 0: any free port)."),
  CALIBRATE("latencylab.rtt.calibrate", "true",
      "true: rtt(L) measures what the toxics really add and corrects them until the mean is"
          + " within 2% of L; false: toxics are set to their nominal values.");

  private final String property;
  private final String defaultValue;
  private final String description;

  Setting(String property, String defaultValue, String description) {
    this.property = property;
    this.defaultValue = defaultValue;
    this.description = description;
  }

  /** The system property, e.g. {@code latencylab.backend}. */
  public String property() {
    return property;
  }

  /** The environment variable, e.g. {@code LATENCYLAB_BACKEND}. */
  public String environmentVariable() {
    return property.toUpperCase(java.util.Locale.ROOT).replace('.', '_');
  }

  public String defaultValue() {
    return defaultValue;
  }

  public String description() {
    return description;
  }

  /** Where a value comes from, for error messages: "-Dlatencylab.backend" or the env var. */
  String sourceOf(Map<String, String> properties, Map<String, String> environment) {
    if (properties.containsKey(property)) {
      return "-D" + property;
    }
    if (environment.containsKey(environmentVariable())) {
      return environmentVariable();
    }
    return "default";
  }

  static Path defaultCacheDir(Map<String, String> environment) {
    String xdg = environment.get("XDG_CACHE_HOME");
    Path base = xdg != null && !xdg.isBlank()
        ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".cache");
    return base.resolve("latency-lab");
  }
}
