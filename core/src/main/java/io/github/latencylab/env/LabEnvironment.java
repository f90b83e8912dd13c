package io.github.latencylab.env;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;

/**
 * What every result carries: where it was measured, on what, with which versions. The
 * versions are those of the classes that ran, read at run time (pgjdbc's {@code
 * DriverInfo.DRIVER_VERSION} is a constant javac copies into its callers: read directly it
 * names the driver latency-lab was compiled against, not the one on the classpath).
 *
 * @param libraries the versions of what else is on the classpath and shapes round trips, by
 *     name ("Hibernate ORM", "Spring Boot", "Quarkus", "Micronaut", "HikariCP", "Agroal"...),
 *     those present only
 * @param host the machine's host name (null where unknown, or in files of earlier versions):
 *     what tells two CI runners of the same image apart when their results are merged
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
    long maxHeapMb,
    String host) {

  /** An environment without a host name, as earlier versions recorded it. */
  public LabEnvironment(String backend, String description, String postgresVersion,
      Map<String, String> postgresSettings, String pgjdbcVersion, String toxiproxyVersion,
      Map<String, String> libraries, String link, String javaVersion, String javaVm, String os,
      int cpus, long maxHeapMb) {
    this(backend, description, postgresVersion, postgresSettings, pgjdbcVersion,
        toxiproxyVersion, libraries, link, javaVersion, javaVm, os, cpus, maxHeapMb, null);
  }

  /**
   * Whether both were measured on one machine: the same host, OS, CPUs, Java and heap. Their
   * databases may still differ (backend, PostgreSQL, settings, link).
   */
  public boolean sameMachine(LabEnvironment other) {
    return Objects.equals(host, other.host) && Objects.equals(os, other.os)
        && cpus == other.cpus && Objects.equals(javaVersion, other.javaVersion)
        && Objects.equals(javaVm, other.javaVm) && maxHeapMb == other.maxHeapMb;
  }

  /**
   * Whether times measured in both compare as alike: the same machine ({@link #sameMachine})
   * and the same database (backend, PostgreSQL version and settings, link). A history compares
   * a cell's times only between runs whose environments are alike.
   */
  public boolean sameEnvironment(LabEnvironment other) {
    return other != null && sameEnvironmentKey().equals(other.sameEnvironmentKey());
  }

  /** What {@link #sameEnvironment} compares, as one string: equal keys, alike environments. */
  public String sameEnvironmentKey() {
    return sameEnvironmentKey(null);
  }

  /**
   * The same key with {@code machine} in place of the host name when it is not null: runners
   * of one class, each run on a host of its own, compared as one machine on purpose.
   */
  public String sameEnvironmentKey(String machine) {
    return String.join("|", machine != null ? machine : host, os, String.valueOf(cpus), javaVersion, javaVm,
        String.valueOf(maxHeapMb), backend, postgresVersion,
        postgresSettings == null ? "" : new java.util.TreeMap<>(postgresSettings).toString(),
        link);
  }

  /** "Linux 6.1 amd64, 2 CPUs, Java 17.0.15": the machine, as a report names it. */
  public String machine() {
    List<String> parts = new ArrayList<>();
    if (os != null) {
      parts.add(os);
    }
    if (cpus > 0) {
      parts.add(cpus + " CPUs");
    }
    if (javaVersion != null) {
      parts.add("Java " + javaVersion);
    }
    return parts.isEmpty() ? "not recorded" : String.join(", ", parts);
  }

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
        rt.maxMemory() / (1024 * 1024),
        hostName());
  }

  /**
   * This machine's host name: the kernel's on Linux (no DNS lookup, which can stall for
   * seconds where the name does not resolve), else the JDK's; null if neither answers.
   */
  static String hostName() {
    try {
      Path kernel = Path.of("/proc/sys/kernel/hostname");
      if (Files.isReadable(kernel)) {
        String name = Files.readString(kernel).trim();
        if (!name.isEmpty()) {
          return name;
        }
      }
      return InetAddress.getLocalHost().getHostName();
    } catch (IOException | RuntimeException e) {
      return null;
    }
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
    put(found, "Hibernate Reactive", "org.hibernate.reactive.mutiny.Mutiny",
        "org.hibernate.reactive/hibernate-reactive-core");
    put(found, "Spring Boot", "org.springframework.boot.SpringBootVersion", "getVersion");
    put(found, "Spring Framework", "org.springframework.core.SpringVersion", "getVersion");
    put(found, "Quarkus", "io.quarkus.runtime.Quarkus", "io.quarkus/quarkus-core");
    // Micronaut's jars are built by Gradle: their manifests say their versions, no pom does
    put(found, "Micronaut", "io.micronaut.context.ApplicationContext", null);
    put(found, "Micronaut Data", "io.micronaut.data.annotation.Repository", null);
    put(found, "HikariCP", "com.zaxxer.hikari.HikariDataSource", "com.zaxxer/HikariCP");
    put(found, "Agroal", "io.agroal.api.AgroalDataSource", "io.agroal/agroal-api");
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
