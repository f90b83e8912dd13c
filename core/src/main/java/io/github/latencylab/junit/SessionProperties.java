package io.github.latencylab.junit;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * System properties set for the length of a JUnit launcher session, by the listeners that hand
 * the run's settings to JUnit and to a framework before either reads them ({@link AuditSession},
 * latency-lab-quarkus' datasource): each put back as it was, or cleared, when the session closes.
 */
public final class SessionProperties {

  // what each key held before this session set it (null: not set)
  private final Map<String, String> before = new LinkedHashMap<>();

  /** Sets {@code key}, remembering what it held first. */
  public void set(String key, String value) {
    before.putIfAbsent(key, System.getProperty(key));
    System.setProperty(key, value);
  }

  /** Puts back every property set since the last restore. */
  public void restore() {
    before.forEach((key, value) -> {
      if (value == null) {
        System.clearProperty(key);
      } else {
        System.setProperty(key, value);
      }
    });
    before.clear();
  }
}
