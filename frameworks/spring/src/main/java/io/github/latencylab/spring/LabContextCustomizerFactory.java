package io.github.latencylab.spring;

import io.github.latencylab.junit.SharedLab;
import java.util.List;
import java.util.Map;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.MapPropertySource;
import org.springframework.test.context.ContextConfigurationAttributes;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.ContextCustomizerFactory;
import org.springframework.test.context.MergedContextConfiguration;

/**
 * The run's Lab for every Spring test context: Spring's test framework finds this factory in
 * {@code META-INF/spring.factories} (as it finds Testcontainers' service connections) and each
 * context gets {@code spring.datasource.url}, {@code username}, {@code password} and {@code
 * driver-class-name} on the Lab, over the application's own properties, whatever order the test
 * classes run in. Nothing to declare: the dependency on latency-lab-spring is the choice. A
 * class that budgets its round trips adds {@link io.github.latencylab.junit.LabExtension},
 * which reads the same Lab. Settings from {@code latency-lab.properties}.
 */
public final class LabContextCustomizerFactory implements ContextCustomizerFactory {

  @Override
  public ContextCustomizer createContextCustomizer(Class<?> testClass,
      List<ContextConfigurationAttributes> configAttributes) {
    return new LabDataSource();
  }

  /** Puts the Lab first among the context's property sources. */
  static final class LabDataSource implements ContextCustomizer {

    @Override
    public void customizeContext(ConfigurableApplicationContext context,
        MergedContextConfiguration mergedConfig) {
      Map<String, String> lab = SharedLab.connection();
      context.getEnvironment().getPropertySources().addFirst(new MapPropertySource("latency-lab",
          Map.of("spring.datasource.url", lab.get(SharedLab.URL),
              "spring.datasource.username", lab.get(SharedLab.USER),
              "spring.datasource.password", lab.get(SharedLab.PASSWORD),
              "spring.datasource.driver-class-name", "org.postgresql.Driver")));
    }

    // one Lab a run: every context's customizer is the same, so Spring's context cache keys
    // contexts by the application's own configuration, as it would without latency-lab
    @Override
    public boolean equals(Object other) {
      return other instanceof LabDataSource;
    }

    @Override
    public int hashCode() {
      return LabDataSource.class.getName().hashCode();
    }
  }
}
