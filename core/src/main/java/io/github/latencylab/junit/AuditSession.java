package io.github.latencylab.junit;

import io.github.latencylab.env.Setting;
import java.util.Properties;
import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

/**
 * The switch that audits a whole existing suite, {@code latencylab.audit=true}: the JUnit
 * Platform finds this listener by service loading and opens it before it discovers a test class
 * or a framework boots. It turns on JUnit Jupiter's extension auto-detection for {@link
 * AuditedRun} alone, which counts and reports every test of the run on the Lab; no other
 * extension on the class path is auto-detected because of it (one the team auto-detects already
 * stays so). What it set is put back when the session closes.
 *
 * <p>Nothing happens without the switch. The frameworks' modules point their datasources at
 * the run's Lab on their own (latency-lab-spring, -micronaut; latency-lab-quarkus by a listener
 * of its own, under the same switch).
 */
public final class AuditSession implements LauncherSessionListener {

  static final String AUTODETECTION = "junit.jupiter.extensions.autodetection.enabled";
  static final String INCLUDE = "junit.jupiter.extensions.autodetection.include";

  private final SessionProperties properties = new SessionProperties();

  @Override
  public void launcherSessionOpened(LauncherSession session) {
    if (!SharedLab.auditing()) {
      return;
    }
    Properties file = SharedLab.junitPlatformProperties();
    boolean detecting = Boolean.parseBoolean(System.getProperty(AUTODETECTION,
        file.getProperty(AUTODETECTION, "false")).strip());
    String include = System.getProperty(INCLUDE, file.getProperty(INCLUDE));
    String audited = AuditedRun.class.getName();
    if (!detecting) {
      properties.set(AUTODETECTION, "true");
      properties.set(INCLUDE, audited);
    } else if (include != null && !include.isBlank() && !include.contains(audited)) {
      // the team's own auto-detected extensions keep being detected
      properties.set(INCLUDE, include.strip() + "," + audited);
    }
    System.out.println("latency-lab: auditing this run (" + Setting.AUDIT.property()
        + "=true): every test counted on the Lab, the report in "
        + SharedLab.configOfTheRun().get(Setting.REPORT_DIR));
  }

  @Override
  public void launcherSessionClosed(LauncherSession session) {
    properties.restore();
  }
}
