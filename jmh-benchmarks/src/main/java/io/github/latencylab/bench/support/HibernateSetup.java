package io.github.latencylab.bench.support;

import javax.sql.DataSource;
import org.hibernate.cfg.AvailableSettings;
import org.hibernate.cfg.Configuration;

/**
 * Hibernate ORM as the suites boot it: programmatic on a data source of the Lab's (no
 * persistence.xml), no schema generation (each suite makes its own tables), no SQL logged. A
 * suite adds the settings it measures and builds the SessionFactory.
 */
public final class HibernateSetup {

  private HibernateSetup() {
  }

  /** The configuration of {@code entities} on {@code dataSource}, before the suite's settings. */
  public static Configuration configuration(DataSource dataSource, Class<?>... entities) {
    Configuration cfg = new Configuration();
    for (Class<?> entity : entities) {
      cfg.addAnnotatedClass(entity);
    }
    cfg.getProperties().put(AvailableSettings.JAKARTA_NON_JTA_DATASOURCE, dataSource);
    cfg.setProperty(AvailableSettings.HBM2DDL_AUTO, "none");
    cfg.setProperty(AvailableSettings.SHOW_SQL, "false");
    return cfg;
  }
}
