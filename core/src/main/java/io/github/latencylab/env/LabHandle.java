package io.github.latencylab.env;

import io.github.latencylab.env.backend.AttachedBackend;
import io.github.latencylab.env.backend.Backend;
import io.github.latencylab.env.link.ProxyToxics;
import io.github.latencylab.latency.Link;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.net.URI;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeSet;

/**
 * What another JVM needs to attach to a running Lab ({@link Lab#attach(Path)}): where its
 * PostgreSQL and proxies listen, and the credentials. A file readable by this user only, in a
 * directory of its own; {@link #close()} deletes both (and JVM exit, should close not run).
 * Hand the other JVM the file's path, never its content: a command line is visible to every
 * user of the machine (ps) and JMH writes its forks' JVM arguments into its results.
 *
 * <pre>{@code
 * try (LabHandle handle = lab.handle()) {
 *   // start a JVM with handle.jvmArg(): -Dlatencylab.lab.handle=/tmp/latency-lab-.../...
 *   // there: try (Lab same = Lab.attach(Path.of(System.getProperty(LabHandle.PROPERTY)))) {...}
 * }
 * }</pre>
 */
public final class LabHandle implements AutoCloseable {

  /** The system property that carries a handle's path to another JVM. */
  public static final String PROPERTY = "latencylab.lab.handle";

  private static final boolean POSIX =
      FileSystems.getDefault().supportedFileAttributeViews().contains("posix");

  private final Path file;

  private LabHandle(Path file) {
    this.file = file;
  }

  static LabHandle write(BackendKind kind, String description, String schema,
      PostgresTarget direct, Optional<PostgresTarget> proxied,
      Optional<PostgresTarget> baseline, Optional<ProxyToxics> toxics, Link link) {
    Properties p = new Properties();
    if (link != null) {
      p.setProperty("link", link.toProperty());
    }
    toxics.ifPresent(t -> {
      p.setProperty("toxiproxy.api", t.api().toString());
      p.setProperty("toxiproxy.proxy", t.proxy());
    });
    p.setProperty("backend", kind.label());
    p.setProperty("description", description);
    p.setProperty("schema", schema);
    put(p, "direct", direct);
    proxied.ifPresent(t -> put(p, "proxied", t));
    baseline.ifPresent(t -> put(p, "baseline", t));
    try {
      Path dir = POSIX
          ? Files.createTempDirectory("latency-lab-", only("rwx------"))
          : Files.createTempDirectory("latency-lab-");
      Path file = dir.resolve("lab.properties");
      if (POSIX) {
        Files.createFile(file, only("rw-------"));
      }
      dir.toFile().deleteOnExit();
      file.toFile().deleteOnExit(); // deleted in reverse order: the file, then its directory
      try (Writer out = Files.newBufferedWriter(file)) {
        p.store(out, "latency-lab: how to attach to a running Lab; deleted when it stops");
      }
      return new LabHandle(file);
    } catch (IOException e) {
      throw new UncheckedIOException("Could not write the Lab's handle: " + e.getMessage(), e);
    }
  }

  private static FileAttribute<?> only(String permissions) {
    return PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString(permissions));
  }

  private static void put(Properties p, String prefix, PostgresTarget t) {
    p.setProperty(prefix + ".host", t.host());
    p.setProperty(prefix + ".port", Integer.toString(t.port()));
    p.setProperty(prefix + ".database", t.database());
    p.setProperty(prefix + ".user", t.user());
    p.setProperty(prefix + ".password", t.password());
    t.parameters().forEach((name, value) -> p.setProperty(prefix + ".parameter." + name, value));
  }

  /**
   * What an attached Lab needs: the other Lab's backend as seen from here, its schema, and the
   * link its connections go through (a bare delay if the handle does not say).
   */
  record Attached(Backend backend, String schema, Link link) {
  }

  /** The Lab a handle describes, as an attached Lab sees it. */
  static Attached read(Path file) {
    Properties p = new Properties();
    try (Reader in = Files.newBufferedReader(file)) {
      p.load(in);
    } catch (NoSuchFileException e) {
      throw new IllegalStateException("Cannot attach to the Lab of " + file + ": no such file"
          + " (the Lab it described has stopped, or the path is wrong)");
    } catch (IOException e) {
      throw new IllegalStateException("Cannot attach to the Lab of " + file + ": " + e, e);
    }
    try {
      BackendKind kind = BackendKind.parse(p.getProperty("backend", ""), file.toString());
      String schema = p.getProperty("schema");
      if (schema == null) {
        throw new IllegalArgumentException("no schema");
      }
      return new Attached(new AttachedBackend(kind, p.getProperty("description", kind.label()),
          target(p, "direct").orElseThrow(() -> new IllegalArgumentException("no direct.host")),
          target(p, "proxied"), target(p, "baseline"), p.containsKey("toxiproxy.api")
              ? Optional.of(new ProxyToxics(URI.create(p.getProperty("toxiproxy.api")),
                  p.getProperty("toxiproxy.proxy")))
              : Optional.empty()), schema,
          p.containsKey("link") ? Link.fromProperty(p.getProperty("link")) : Link.DELAY_ONLY);
    } catch (RuntimeException e) {
      throw new IllegalStateException("Cannot attach to the Lab of " + file + ": not a Lab"
          + " handle (" + e.getMessage() + ")", e);
    }
  }

  private static Optional<PostgresTarget> target(Properties p, String prefix) {
    String host = p.getProperty(prefix + ".host");
    if (host == null) {
      return Optional.empty();
    }
    Map<String, String> parameters = new LinkedHashMap<>();
    String parameter = prefix + ".parameter.";
    new TreeSet<>(p.stringPropertyNames()).stream().filter(n -> n.startsWith(parameter))
        .forEach(n -> parameters.put(n.substring(parameter.length()), p.getProperty(n)));
    return Optional.of(new PostgresTarget(host,
        Integer.parseInt(p.getProperty(prefix + ".port")), p.getProperty(prefix + ".database"),
        p.getProperty(prefix + ".user"), p.getProperty(prefix + ".password", ""), parameters));
  }

  /** The handle's file: pass its path to the JVM that attaches. */
  public Path file() {
    return file;
  }

  /** {@code -Dlatencylab.lab.handle=PATH}, for a JVM that attaches. */
  public String jvmArg() {
    return "-D" + PROPERTY + "=" + file;
  }

  /** Deletes the file and its directory. */
  @Override
  public void close() {
    try {
      Files.deleteIfExists(file);
      Files.deleteIfExists(file.getParent());
    } catch (IOException e) {
      throw new UncheckedIOException("Could not delete the Lab's handle " + file, e);
    }
  }

  @Override
  public String toString() {
    return "LabHandle[" + file + "]";
  }
}
