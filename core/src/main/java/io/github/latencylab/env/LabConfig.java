package io.github.latencylab.env;

import io.github.latencylab.latency.Link;
import io.github.latencylab.latency.Rtt;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Lab's settings, resolved: system property over environment variable over the test class
 * path's {@value #FILE} over default (see {@link Setting}), then whatever {@link #with} sets in
 * code or from a CLI flag. Immutable; {@code with} returns a copy.
 *
 * <p>{@value #FILE} is latency-lab's own file, so that no framework's is hidden: Quarkus ships a
 * {@code junit-platform.properties} of its own, and JUnit reads only the first it finds.
 */
public final class LabConfig {

  private final Map<Setting, String> values;
  private final Map<Setting, String> sources;

  private LabConfig(Map<Setting, String> values, Map<Setting, String> sources) {
    this.values = values;
    this.sources = sources;
  }

  /** The settings file latency-lab reads from the class path, e.g. src/test/resources. */
  public static final String FILE = "latency-lab.properties";

  /** Settings from system properties, environment variables and {@value #FILE}. */
  public static LabConfig fromEnvironment() {
    Map<String, String> properties = new HashMap<>();
    System.getProperties().forEach((k, v) -> properties.put(k.toString(), v.toString()));
    return from(properties, System.getenv(), fileOnTheClassPath());
  }

  static LabConfig from(Map<String, String> properties, Map<String, String> environment) {
    return from(properties, environment, Map.of());
  }

  private static Map<String, String> fileOnTheClassPath() {
    ClassLoader context = Thread.currentThread().getContextClassLoader();
    URL url = (context != null ? context : LabConfig.class.getClassLoader()).getResource(FILE);
    if (url == null) {
      return Map.of();
    }
    Properties file = new Properties();
    try (InputStream in = url.openStream()) {
      file.load(in);
    } catch (IOException e) {
      throw new IllegalArgumentException("Could not read " + url + ": " + e.getMessage(), e);
    }
    Map<String, String> values = new HashMap<>();
    file.forEach((k, v) -> values.put(k.toString(), v.toString().strip()));
    for (String name : values.keySet()) {
      if (java.util.Arrays.stream(Setting.values()).noneMatch(s -> s.property().equals(name))) {
        throw new IllegalArgumentException(url + ": unknown setting " + name + " (latency-lab's"
            + " settings: README's settings table, e.g. latencylab.backend)");
      }
    }
    return values;
  }

  static LabConfig from(Map<String, String> properties, Map<String, String> environment,
      Map<String, String> file) {
    Map<Setting, String> values = new EnumMap<>(Setting.class);
    Map<Setting, String> sources = new EnumMap<>(Setting.class);
    for (Setting s : Setting.values()) {
      String value = properties.getOrDefault(s.property(), environment.getOrDefault(
          s.environmentVariable(), file.getOrDefault(s.property(), s.defaultValue())));
      if (s == Setting.CACHE_DIR && value.isBlank()) {
        value = Setting.defaultCacheDir(environment).toString();
      }
      values.put(s, value);
      String source = s.sourceOf(properties, environment);
      sources.put(s, source.equals("default") && file.containsKey(s.property()) ? FILE : source);
    }
    LabConfig config = new LabConfig(values, sources);
    config.validate();
    return config;
  }

  /** A copy with {@code setting} set to {@code value}, e.g. from a CLI flag. */
  public LabConfig with(Setting setting, String value) {
    Objects.requireNonNull(value, setting.property());
    Map<Setting, String> v = new EnumMap<>(values);
    Map<Setting, String> s = new EnumMap<>(sources);
    v.put(setting, value);
    s.put(setting, "LabConfig.with(" + setting.name() + ")");
    LabConfig config = new LabConfig(v, s);
    config.validate();
    return config;
  }

  public LabConfig withBackend(BackendKind kind) {
    return with(Setting.BACKEND, kind.label());
  }

  public String get(Setting setting) {
    return values.get(setting);
  }

  /** Where a setting's value came from: "-Dlatencylab.x", "LATENCYLAB_X", "default"... */
  public String sourceOf(Setting setting) {
    return sources.get(setting);
  }

  public BackendKind backend() {
    return BackendKind.parse(get(Setting.BACKEND), sourceOf(Setting.BACKEND));
  }

  public Durability durability() {
    return Durability.parse(get(Setting.DURABILITY), sourceOf(Setting.DURABILITY));
  }

  /** The path's window ({@link Setting#LINK} and its parameters). */
  public Link link() {
    Link preset = Link.preset(get(Setting.LINK));
    if (preset == null) {
      throw new IllegalArgumentException(invalid(Setting.LINK,
          "expected linux, linux-bbr or delay-only"));
    }
    if (preset.delayOnly()) {
      return preset;
    }
    long rtoMin;
    try {
      rtoMin = Rtt.parse(get(Setting.LINK_RTO_MIN)).micros();
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(invalid(Setting.LINK_RTO_MIN,
          "expected a duration such as 200ms or 1s"), e);
    }
    Link link = preset
        .withInitialWindowSegments((int) positive(Setting.LINK_INITIAL_WINDOW, 1000))
        .withMss((int) positive(Setting.LINK_MSS, 65_495))
        .withMaxWindowBytes(bytes(Setting.LINK_MAX_WINDOW))
        .withInitialReceiveWindowBytes(bytes(Setting.LINK_INITIAL_RECEIVE_WINDOW))
        .withRtoMinMicros(rtoMin);
    // auto: Linux's, twice the initial window (BBR's three times), whatever window and segment
    if (get(Setting.LINK_INITIAL_SEND_BUFFER).trim().equalsIgnoreCase("auto")) {
      return link.withInitialSendBufferBytes(link.sendBufferFactor() * link.initialWindowBytes());
    }
    try {
      return link.withInitialSendBufferBytes(bytes(Setting.LINK_INITIAL_SEND_BUFFER));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(invalid(Setting.LINK_INITIAL_SEND_BUFFER, "expected"
          + " auto (twice the initial window, three times with BBR) or bytes from 1 to 1GiB,"
          + " e.g. 64KiB"), e);
    }
  }

  private long positive(Setting setting, long max) {
    try {
      long n = Long.parseLong(get(setting).trim());
      if (n >= 1 && n <= max) {
        return n;
      }
    } catch (NumberFormatException e) {
      // the message below says what is expected
    }
    throw new IllegalArgumentException(invalid(setting, "expected a whole number from 1 to "
        + max));
  }

  private long bytes(Setting setting) {
    Matcher m = BYTES.matcher(get(setting).trim());
    if (m.matches()) {
      long unit = switch (m.group(2) == null ? "" : m.group(2)) {
        case "KiB" -> 1L << 10;
        case "MiB" -> 1L << 20;
        case "kB" -> 1000L;
        case "MB" -> 1000_000L;
        default -> 1L;
      };
      long n = Long.parseLong(m.group(1)) * unit;
      if (n >= 1 && n <= 1L << 30) {
        return n;
      }
    }
    throw new IllegalArgumentException(invalid(setting, "expected bytes from 1 to 1GiB, e.g."
        + " 3MiB, 4194304 or 512KiB"));
  }

  private static final Pattern BYTES = Pattern.compile("(\\d{1,10})\\s*(KiB|MiB|kB|MB|B)?");

  public boolean calibrate() {
    return Boolean.parseBoolean(get(Setting.CALIBRATE).trim());
  }

  /** latencylab.relay=true: the Lab's connections go through a counting relay. */
  public boolean relay() {
    return Boolean.parseBoolean(get(Setting.RELAY).trim());
  }

  /** latencylab.audit=true: every test of the run counted and reported, no annotation. */
  public boolean audit() {
    return Boolean.parseBoolean(get(Setting.AUDIT).trim());
  }

  /** latencylab.report=true: each test's report row, gated by the report's baseline. */
  public boolean report() {
    return Boolean.parseBoolean(get(Setting.REPORT).trim());
  }

  /** latencylab.updateBaseline=true: baselines rewritten instead of compared. */
  public boolean updateBaseline() {
    return Boolean.parseBoolean(get(Setting.UPDATE_BASELINE).trim());
  }

  /** latencylab.rtt.toxics=whole-ms: whole-millisecond toxics even where latency_us exists. */
  public boolean wholeMillisecondToxics() {
    return get(Setting.RTT_TOXICS).trim().equalsIgnoreCase("whole-ms");
  }

  public Path cacheDir() {
    return Path.of(get(Setting.CACHE_DIR));
  }

  /** Where the embedded backend makes its clusters: latencylab.embedded.data, or the temp dir. */
  public Path embeddedDataDir() {
    String dir = get(Setting.EMBEDDED_DATA).trim();
    return Path.of(dir.isEmpty() ? System.getProperty("java.io.tmpdir") : dir);
  }

  /** Rejects nonsense at once, with the setting, its source and the rule in the message. */
  private void validate() {
    backend();
    durability();
    link();
    String calibrate = get(Setting.CALIBRATE).trim();
    if (!calibrate.equalsIgnoreCase("true") && !calibrate.equalsIgnoreCase("false")) {
      throw new IllegalArgumentException(invalid(Setting.CALIBRATE, "expected true or false"));
    }
    String toxics = get(Setting.RTT_TOXICS).trim();
    if (!toxics.equalsIgnoreCase("auto") && !toxics.equalsIgnoreCase("whole-ms")) {
      throw new IllegalArgumentException(invalid(Setting.RTT_TOXICS, "expected auto or whole-ms"));
    }
    if (!get(Setting.SCHEMA).matches("[a-z_][a-z0-9_]{0,62}") || get(Setting.SCHEMA)
        .startsWith("pg_")) {
      throw new IllegalArgumentException(invalid(Setting.SCHEMA, "expected a lower-case name of"
          + " letters, digits and _, at most 63 characters, not starting with pg_ (e.g."
          + " latency_lab)"));
    }
    String data = get(Setting.EMBEDDED_DATA).trim();
    if (!data.isEmpty() && !absolutePath(data)) {
      throw new IllegalArgumentException(invalid(Setting.EMBEDDED_DATA, "expected an absolute"
          + " directory path, e.g. /dev/shm, or nothing for the temp directory"));
    }
    String url = get(Setting.JDBC_URL);
    if (!url.isBlank() && !url.startsWith("jdbc:postgresql:")) {
      throw new IllegalArgumentException(
          invalid(Setting.JDBC_URL, "expected a pgjdbc URL such as"
              + " jdbc:postgresql://host:5432/database"));
    }
    String toxiproxyUrl = get(Setting.TOXIPROXY_URL);
    if (!toxiproxyUrl.isBlank() && !toxiproxyUrl.matches("https?://[^/:]+(:\\d+)?/?")) {
      throw new IllegalArgumentException(
          invalid(Setting.TOXIPROXY_URL, "expected http://host:port, e.g. http://localhost:8474"));
    }
  }

  private static boolean absolutePath(String path) {
    try {
      return Path.of(path).isAbsolute();
    } catch (InvalidPathException e) {
      return false;
    }
  }

  public String invalid(Setting setting, String rule) {
    return "Invalid " + setting.property() + " '" + shown(setting) + "' (from "
        + sourceOf(setting) + "): " + rule;
  }

  /** The value as logs and messages may show it: no password, not even one in the URL. */
  private String shown(Setting setting) {
    String value = get(setting);
    if (setting == Setting.JDBC_PASSWORD) {
      return value.isEmpty() ? "" : "***";
    }
    return setting == Setting.JDBC_URL ? PostgresTarget.redact(value) : value;
  }

  @Override
  public String toString() {
    return described(false);
  }

  /**
   * The settings that make the Lab, as {@link #toString()} writes them: two configurations
   * with the same are served by one Lab ({@link Setting#ofTheRunOnly()} aside).
   */
  public String labKey() {
    return described(true);
  }

  private String described(boolean labOnly) {
    StringBuilder out = new StringBuilder("LabConfig{");
    for (Setting s : Setting.values()) {
      if (!labOnly || !s.ofTheRunOnly()) {
        out.append(s.property()).append('=').append(shown(s)).append(", ");
      }
    }
    return out.append('}').toString().replace(", }", "}");
  }
}
