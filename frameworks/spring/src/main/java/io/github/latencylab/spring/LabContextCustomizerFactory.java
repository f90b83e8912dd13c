package io.github.latencylab.spring;

import io.github.latencylab.junit.SharedLab;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.MapPropertySource;
import org.springframework.test.context.ContextConfigurationAttributes;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.ContextCustomizerFactory;
import org.springframework.test.context.MergedContextConfiguration;
import org.springframework.util.ClassUtils;

/**
 * The run's Lab for every Spring test context: Spring's test framework finds this factory in
 * {@code META-INF/spring.factories} (as it finds Testcontainers' service connections) and each
 * context gets {@code spring.datasource.url}, {@code username}, {@code password} and {@code
 * driver-class-name} on the Lab, over the application's own properties, whatever order the test
 * classes run in; where R2DBC is on the class path, {@code spring.r2dbc.url}, {@code username}
 * and {@code password} on the Lab's relay too, which counts a reactive client's round trips as
 * pgjdbc's socket counts JDBC's. Nothing to declare: the dependency on latency-lab-spring is the choice. A
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
      Map<String, Object> properties = new HashMap<>(Map.of(
          "spring.datasource.url", lab.get(SharedLab.URL),
          "spring.datasource.username", lab.get(SharedLab.USER),
          "spring.datasource.password", lab.get(SharedLab.PASSWORD),
          "spring.datasource.driver-class-name", "org.postgresql.Driver"));
      if (ClassUtils.isPresent("io.r2dbc.spi.ConnectionFactory", context.getClassLoader())) {
        Map<String, String> relay = SharedLab.relayedConnection();
        properties.put("spring.r2dbc.url", "r2dbc:postgresql://" + relay.get(SharedLab.HOST)
            + ":" + relay.get(SharedLab.PORT) + "/" + relay.get(SharedLab.DATABASE)
            + "?schema=" + relay.get(SharedLab.SCHEMA));
        properties.put("spring.r2dbc.username", relay.get(SharedLab.USER));
        properties.put("spring.r2dbc.password", relay.get(SharedLab.PASSWORD));
      }
      context.getEnvironment().getPropertySources().addFirst(new MapPropertySource("latency-lab",
          properties));
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
