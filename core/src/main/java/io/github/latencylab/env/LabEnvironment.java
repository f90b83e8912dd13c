package io.github.latencylab.env;

import java.io.IOException;
import java.io.InputStream;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;

/**
 * What every result carries: where it was measured, on what, with which versions. The
 * versions are those of the classes that ran, read at run time (pgjdbc's {@code
 * DriverInfo.DRIVER_VERSION} is a constant javac copies into its callers: read directly it
 * names the driver latency-lab was compiled against, not the one on the classpath).
 *
 * @param libraries the versions of what else is on the classpath and shapes round trips, by
 *     name ("Hibernate ORM", "Spring Boot", "Spring Framework", "HikariCP", "JUnit Jupiter"),
 *     those present only
 */
public record LabEnvironment(
    String backend,
    String description,
    String postgresVersion,
    Map<String, String> postgresSettings,
    String pgjdbcVersion,
    String toxiproxyVersion,
    Map<String, String> libraries,
    String link,
    String javaVersion,
    String javaVm,
    String os,
    int cpus,
    long maxHeapMb) {

  static LabEnvironment of(Lab lab) {
    ServerInfo server = lab.server();
    Runtime rt = Runtime.getRuntime();
    return new LabEnvironment(
        lab.backend().label(),
        lab.describe(),
        server.version(),
        server.settings(),
        pgjdbcOnTheClasspath(),
        lab.toxiproxyVersion(),
        librariesOnTheClasspath(),
        lab.link() == null ? null : lab.link().describe(),
        System.getProperty("java.version"),
        System.getProperty("java.vm.name") + " " + System.getProperty("java.vm.version"),
        System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
            + System.getProperty("os.arch"),
        rt.availableProcessors(),
        rt.maxMemory() / (1024 * 1024));
  }

  /** The version of the pgjdbc on the classpath, e.g. "42.7.10". */
  public static String pgjdbcOnTheClasspath() {
    try {
      return String.valueOf(org.postgresql.util.DriverInfo.class.getField("DRIVER_VERSION")
          .get(null));
    } catch (ReflectiveOperationException e) {
      return org.postgresql.Driver.class.getPackage().getImplementationVersion();
    }
  }

  /** The libraries present and their versions, by what each says of itself. */
  static Map<String, String> librariesOnTheClasspath() {
    Map<String, String> found = new LinkedHashMap<>();
    put(found, "Hibernate ORM", "org.hibernate.Version", "getVersionString");
    put(found, "Spring Boot", "org.springframework.boot.SpringBootVersion", "getVersion");
    put(found, "Spring Framework", "org.springframework.core.SpringVersion", "getVersion");
    put(found, "HikariCP", "com.zaxxer.hikari.HikariDataSource", "com.zaxxer/HikariCP");
    put(found, "JUnit Jupiter", "org.junit.jupiter.api.Test", null);
    return found;
  }

  /**
   * A class's version by its static {@code source} method, or (source "group/artifact") its
   * jar's Maven pom.properties, or (null) its jar's Implementation-Version.
   */
  private static void put(Map<String, String> found, String name, String className,
      String source) {
    try {
      Class<?> type = Class.forName(className, false, LabEnvironment.class.getClassLoader());
      Object version;
      if (source == null) {
        version = type.getPackage() == null ? null
            : type.getPackage().getImplementationVersion();
      } else if (source.contains("/")) {
        Properties pom = new Properties();
        try (InputStream in = type.getResourceAsStream("/META-INF/maven/" + source
            + "/pom.properties")) {
          if (in != null) {
            pom.load(in);
          }
        }
        version = pom.getProperty("version");
      } else {
        version = type.getMethod(source).invoke(null);
      }
      if (version != null) {
        found.put(name, version.toString());
      }
    } catch (ReflectiveOperationException | IOException | LinkageError | RuntimeException e) {
      // absent, or unlike the versions we know: not named
    }
  }
}
