package io.github.latencylab.quarkus;

import io.github.latencylab.junit.SessionProperties;
import io.github.latencylab.junit.SharedLab;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

/**
 * An audited run's datasource ({@code latencylab.audit=true}) for every {@code @QuarkusTest}
 * class, with no test resource declared: when the JUnit session opens, before Quarkus builds the
 * application, the default datasource is pointed at the run's Lab by system properties, which
 * Quarkus reads over its own files: the URL and credentials, {@code db-kind=postgresql} (read
 * while Quarkus builds; without it a datasource Dev Services would have made is "not
 * configured"), and Dev Services off, which could not start the Lab's PostgreSQL anyway; each
 * also under {@code %test.}, which a profile's key would otherwise win over. What it set is put
 * back when the session closes. Without the switch it does nothing: a test resource ({@link
 * LabTestResource}) is the way then.
 */
public final class AuditedDatasource implements LauncherSessionListener {

  private final SessionProperties properties = new SessionProperties();

  @Override
  public void launcherSessionOpened(LauncherSession session) {
    if (!SharedLab.auditing()) {
      return;
    }
    Map<String, String> set = new LinkedHashMap<>();
    set.put("quarkus.datasource.db-kind", "postgresql");
    set.putAll(LabTestResource.datasource());
    set.put("quarkus.datasource.devservices.enabled", "false");
    set.putAll(LabTestResource.schemaAsDevServicesMakesIt());
    set.forEach((key, value) -> {
      properties.set(key, value);
      properties.set("%test." + key, value);
    });
  }

  @Override
  public void launcherSessionClosed(LauncherSession session) {
    properties.restore();
  }
}
