package io.github.latencylab.bench.pipeline;

import io.github.latencylab.env.PostgresTarget;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.reflect.InvocationTargetException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.SQLException;
import java.util.Properties;

/**
 * A second pgjdbc beside the build's, for the driver-version axis: version {@value #VERSION},
 * loaded from its own jar in a class loader of its own whose parent is the platform class
 * loader, so none of its classes meets the build's pgjdbc (nor latency-lab's, which is why its
 * connections cannot use {@code CountingSocketFactory}: they are counted outside the JVM).
 *
 * <p>The build copies the jar (the root pom's {@code pgjdbc.previous.version}) into this
 * module's classes as the resource {@value #RESOURCE}, so benchmarks.jar carries it; it is
 * written to a temporary file once per JVM and opened from there. The driver registers itself
 * with DriverManager as every pgjdbc does, but DriverManager hands a driver only to code whose
 * class loader sees the same class, so {@code DriverManager.getConnection} elsewhere still
 * gets the build's.
 */
final class PreviousPgjdbc {

  /** The version this class's clients are named for ({@code jdbc42712Batch}). */
  static final String VERSION = "42.7.12";
  static final String RESOURCE = "/pgjdbc-previous/postgresql.jar";

  private static Driver driver;

  private PreviousPgjdbc() {
  }

  /** A connection to {@code target} (URL and parameters as pgjdbc's), through the old driver. */
  static Connection connect(PostgresTarget target) throws SQLException {
    Properties properties = new Properties();
    properties.setProperty("user", target.user());
    if (target.password() != null) {
      properties.setProperty("password", target.password());
    }
    Connection c = driver().connect(target.jdbcUrl(), properties);
    if (c == null) {
      throw new SQLException("pgjdbc " + VERSION + " did not accept " + target.redactedUrl());
    }
    return c;
  }

  /** The old driver, loaded on first use; fails if the jar is not the version expected. */
  static synchronized Driver driver() {
    if (driver == null) {
      Path jar = extract();
      try {
        @SuppressWarnings("resource") // open for the JVM's life, as the driver's classes are
        URLClassLoader loader = new URLClassLoader("pgjdbc-" + VERSION,
            new URL[] {jar.toUri().toURL()}, ClassLoader.getPlatformClassLoader());
        Driver d = (Driver) Class.forName("org.postgresql.Driver", true, loader)
            .getConstructor().newInstance();
        String version = (String) Class.forName("org.postgresql.util.DriverInfo", true, loader)
            .getField("DRIVER_VERSION").get(null);
        if (!VERSION.equals(version)) {
          throw new IllegalStateException("The previous pgjdbc in " + RESOURCE + " is "
              + version + ", but its clients are named for " + VERSION + ": set the root"
              + " pom's pgjdbc.previous.version to " + VERSION + ", or rename the clients"
              + " (ClientKind) and PreviousPgjdbc.VERSION");
        }
        driver = d;
      } catch (IOException | ReflectiveOperationException e) {
        throw new IllegalStateException("Could not load pgjdbc " + VERSION + " from " + jar
            + ": " + e, e instanceof InvocationTargetException i ? i.getCause() : e);
      }
    }
    return driver;
  }

  private static Path extract() {
    try (InputStream in = PreviousPgjdbc.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException("No " + RESOURCE + " on the class path: the build copies"
            + " it (jmh-benchmarks/pom.xml, maven-dependency-plugin's previous-pgjdbc); run"
            + " ./mvnw package -pl jmh-benchmarks -am, not the IDE's build alone");
      }
      Path jar = Files.createTempFile("latency-lab-pgjdbc-" + VERSION + "-", ".jar");
      jar.toFile().deleteOnExit();
      Files.copy(in, jar, StandardCopyOption.REPLACE_EXISTING);
      return jar;
    } catch (IOException e) {
      throw new UncheckedIOException("Could not write pgjdbc " + VERSION + " to a temporary"
          + " file: " + e.getMessage(), e);
    }
  }
}
