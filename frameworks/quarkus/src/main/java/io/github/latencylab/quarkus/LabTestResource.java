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
    Map<String, String> lab = SharedLab.connection();
    return Map.of(
        "quarkus.datasource.jdbc.url", lab.get(SharedLab.URL),
        "quarkus.datasource.username", lab.get(SharedLab.USER),
        "quarkus.datasource.password", lab.get(SharedLab.PASSWORD));
  }

  /** Nothing: the Lab is the run's, closed when the JUnit run ends (or the JVM does). */
  @Override
  public void stop() {
  }
}
