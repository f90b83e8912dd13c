package io.github.latencylab.micronaut;

import io.github.latencylab.junit.SharedLab;
import io.micronaut.test.support.TestPropertyProvider;
import io.micronaut.test.support.TestPropertyProviderFactory;
import java.util.HashMap;
import java.util.Map;

/**
 * The run's Lab for every {@code @MicronautTest} class: Micronaut Test finds this factory by
 * service loading (as it finds Micronaut Test Resources') and gives each test's application
 * context the default datasource it returns, PostgreSQL through the Lab's proxy, counted at the
 * socket; where R2DBC is on the class path (Micronaut Data R2DBC), the default R2DBC datasource
 * on the Lab's relay too, which counts a reactive client's round trips at the wire. Nothing to
 * declare: the dependency on latency-lab-micronaut is the choice. A class that budgets its round
 * trips adds {@link io.github.latencylab.junit.LabExtension}, which reads the same Lab. Settings
 * from {@code latency-lab.properties}.
 */
public final class LabTestPropertyProviderFactory implements TestPropertyProviderFactory {

  @Override
  public TestPropertyProvider create(Map<String, Object> availableProperties,
      Class<?> testClass) {
    return () -> {
      Map<String, String> lab = SharedLab.connection();
      Map<String, String> properties = new HashMap<>(Map.of(
          "datasources.default.url", lab.get(SharedLab.URL),
          "datasources.default.username", lab.get(SharedLab.USER),
          "datasources.default.password", lab.get(SharedLab.PASSWORD),
          "datasources.default.driver-class-name", "org.postgresql.Driver",
          "datasources.default.dialect", "POSTGRES"));
      if (r2dbcPresent(testClass.getClassLoader())) {
        Map<String, String> relay = SharedLab.relayedConnection();
        properties.put("r2dbc.datasources.default.url", r2dbcScheme(availableProperties)
            + relay.get(SharedLab.HOST) + ":" + relay.get(SharedLab.PORT) + "/"
            + relay.get(SharedLab.DATABASE) + "?schema=" + relay.get(SharedLab.SCHEMA));
        properties.put("r2dbc.datasources.default.username", relay.get(SharedLab.USER));
        properties.put("r2dbc.datasources.default.password", relay.get(SharedLab.PASSWORD));
        properties.put("r2dbc.datasources.default.dialect", "POSTGRES");
      }
      return properties;
    };
  }

  // the application's pool, where its URL asks for one (r2dbc-pool's "r2dbc:pool:" scheme)
  private static String r2dbcScheme(Map<String, Object> availableProperties) {
    Object url = availableProperties.get("r2dbc.datasources.default.url");
    return url != null && url.toString().startsWith("r2dbc:pool:")
        ? "r2dbc:pool:postgresql://" : "r2dbc:postgresql://";
  }

  private static boolean r2dbcPresent(ClassLoader loader) {
    try {
      Class.forName("io.r2dbc.spi.ConnectionFactory", false, loader);
      return true;
    } catch (ClassNotFoundException | LinkageError e) {
      return false;
    }
  }
}
