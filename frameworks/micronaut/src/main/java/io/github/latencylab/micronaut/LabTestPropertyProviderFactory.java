package io.github.latencylab.micronaut;

import io.github.latencylab.junit.SharedLab;
import io.micronaut.test.support.TestPropertyProvider;
import io.micronaut.test.support.TestPropertyProviderFactory;
import java.util.Map;

/**
 * The run's Lab for every {@code @MicronautTest} class: Micronaut Test finds this factory by
 * service loading (as it finds Micronaut Test Resources') and gives each test's application
 * context the default datasource it returns, PostgreSQL through the Lab's proxy, counted at the
 * socket. Nothing to declare: the dependency on latency-lab-micronaut is the choice. A class that
 * budgets its round trips adds {@link io.github.latencylab.junit.LabExtension}, which reads the
 * same Lab. Settings from {@code latency-lab.properties}.
 */
public final class LabTestPropertyProviderFactory implements TestPropertyProviderFactory {

  @Override
  public TestPropertyProvider create(Map<String, Object> availableProperties,
      Class<?> testClass) {
    return () -> {
      Map<String, String> lab = SharedLab.connection();
      return Map.of(
          "datasources.default.url", lab.get(SharedLab.URL),
          "datasources.default.username", lab.get(SharedLab.USER),
          "datasources.default.password", lab.get(SharedLab.PASSWORD),
          "datasources.default.driver-class-name", "org.postgresql.Driver",
          "datasources.default.dialect", "POSTGRES");
    };
  }
}
