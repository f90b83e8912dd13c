package io.github.latencylab.quarkus;

import io.github.latencylab.junit.SharedLab;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.util.Map;

/**
 * The run's Lab as a Quarkus test resource: Quarkus starts it before the application boots and
 * points the default datasource at what it returns, PostgreSQL through the Lab's proxy, counted
 * at the socket. Declared once, on any test class, it serves every {@code @QuarkusTest} class of
 * the run, the application's own included; a class that budgets its round trips adds {@link
 * io.github.latencylab.junit.LabExtension}, which reads the same Lab:
 *
 * <pre>{@code
 * @QuarkusTest
 * @QuarkusTestResource(LabTestResource.class)
 * @ExtendWith(LabExtension.class)
 * class OwnersResourceTest { ... }
 * }</pre>
 *
 * <p>The application keeps its build-time datasource settings ({@code db-kind=postgresql} and
 * the {@code quarkus-jdbc-postgresql} driver); its settings from {@code latency-lab.properties}.
 */
public final class LabTestResource implements QuarkusTestResourceLifecycleManager {

  @Override
  public Map<String, String> start() {
    Map<String, String> lab = SharedLab.connection();
    return Map.of(
        "quarkus.datasource.jdbc.url", lab.get(SharedLab.URL),
        "quarkus.datasource.username", lab.get(SharedLab.USER),
        "quarkus.datasource.password", lab.get(SharedLab.PASSWORD),
        // the Lab is the test database: no container of Quarkus' own
        "quarkus.datasource.devservices.enabled", "false");
  }

  /** Nothing: the Lab is the run's, closed when the JUnit run ends (or the JVM does). */
  @Override
  public void stop() {
  }
}
