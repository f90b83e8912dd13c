package io.github.latencylab.quarkus;

import io.github.latencylab.junit.SharedLab;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Properties;
import java.util.Map;

/**
 * The run's Lab as a Quarkus test resource: Quarkus starts it before the application boots and
 * points the default datasource at what it returns, PostgreSQL through the Lab's proxy, counted
 * at the socket. Declared once, on any test class, it serves every {@code @QuarkusTest} class of
 * the run, the application's own included; a class that budgets its round trips adds {@link
 * io.github.latencylab.junit.LabExtension}, which reads the same Lab:
 *
 * <pre>{@code
 * @ExtendWith(LabExtension.class) // above @QuarkusTest, which runs the test method itself
 * @QuarkusTest
 * @WithTestResource(value = LabTestResource.class, scope = TestResourceScope.GLOBAL)
 * class OwnersResourceTest { ... }
 * }</pre>
 *
 * <p>The application keeps what Quarkus decides while it builds: {@code db-kind=postgresql}
 * (and the {@code quarkus-jdbc-postgresql} driver), and Dev Services off for its tests ({@code
 * %test.quarkus.datasource.devservices.enabled=false}), which a test resource starts too late to
 * turn off. latency-lab's settings from {@code latency-lab.properties}.
 */
public final class LabTestResource implements QuarkusTestResourceLifecycleManager {

  @Override
  public Map<String, String> start() {
    Map<String, String> set = new LinkedHashMap<>(datasource());
    set.putAll(schemaAsDevServicesMakesIt());
    return set;
  }

  /**
   * The default datasource on the run's Lab: the JDBC URL through the proxy (counted at
   * pgjdbc's socket), the credentials, and, where Vert.x's PostgreSQL client is on the class
   * path (quarkus-reactive-pg-client, Hibernate Reactive), the reactive URL on the Lab's relay,
   * which counts that client's round trips at the wire.
   */
  static Map<String, String> datasource() {
    Map<String, String> lab = SharedLab.connection();
    Map<String, String> set = new LinkedHashMap<>();
    set.put("quarkus.datasource.jdbc.url", lab.get(SharedLab.URL));
    set.put("quarkus.datasource.username", lab.get(SharedLab.USER));
    set.put("quarkus.datasource.password", lab.get(SharedLab.PASSWORD));
    if (reactiveClientPresent()) {
      Map<String, String> relay = SharedLab.relayedConnection();
      // Vert.x sends a parameter it does not know as a setting of the session: the Lab's schema
      set.put("quarkus.datasource.reactive.url", "postgresql://" + relay.get(SharedLab.HOST)
          + ":" + relay.get(SharedLab.PORT) + "/" + relay.get(SharedLab.DATABASE)
          + "?search_path=" + relay.get(SharedLab.SCHEMA));
    }
    return set;
  }

  /**
   * Where the Lab stands in for Dev Services, the schema Dev Services would have had Hibernate
   * make ({@code drop-and-create}): only for an application that sets no schema strategy of its
   * own for its tests (unprofiled or {@code %test.}; a YAML file that names one at all) and has
   * no migration tool (Flyway, Liquibase), whose tests would otherwise meet no tables.
   */
  static Map<String, String> schemaAsDevServicesMakesIt() {
    if (!present("org.hibernate.Session") || present("org.flywaydb.core.Flyway")
        || present("liquibase.Liquibase") || setsItsOwnSchemaStrategy()) {
      return Map.of();
    }
    return Map.of("quarkus.hibernate-orm.schema-management.strategy", "drop-and-create");
  }

  private static boolean setsItsOwnSchemaStrategy() {
    try {
      for (URL url : Collections.list(loader().getResources("application.properties"))) {
        Properties p = new Properties();
        try (InputStream in = url.openStream()) {
          p.load(in);
        }
        for (String key : p.stringPropertyNames()) {
          String unprofiled = key.startsWith("%test.") ? key.substring("%test.".length()) : key;
          if (unprofiled.startsWith("quarkus.hibernate-orm.")
              && (unprofiled.endsWith("schema-management.strategy")
                  || unprofiled.endsWith("database.generation"))) {
            return true;
          }
        }
      }
      for (String yaml : List.of("application.yaml", "application.yml")) {
        for (URL url : Collections.list(loader().getResources(yaml))) {
          try (InputStream in = url.openStream()) {
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            if (text.contains("schema-management") || text.contains("generation")) {
              return true;
            }
          }
        }
      }
    } catch (IOException e) {
      return true; // unread: leave the application's choice alone
    }
    return false;
  }

  private static boolean reactiveClientPresent() {
    return present("io.vertx.pgclient.PgConnectOptions");
  }

  private static boolean present(String className) {
    try {
      Class.forName(className, false, loader());
      return true;
    } catch (ClassNotFoundException | LinkageError absent) {
      return false;
    }
  }

  private static ClassLoader loader() {
    ClassLoader loader = Thread.currentThread().getContextClassLoader();
    return loader != null ? loader : LabTestResource.class.getClassLoader();
  }

  /** Nothing: the Lab is the run's, closed when the JUnit run ends (or the JVM does). */
  @Override
  public void stop() {
  }
}
