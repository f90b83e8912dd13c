package io.github.latencylab.bench.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.latencylab.env.BackendKind;
import io.github.latencylab.env.Lab;
import io.github.latencylab.env.LabConfig;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;

/**
 * The driver-version axis: pgjdbc 42.7.12 runs beside the build's 42.7.13 without meeting it,
 * in the Lab's schema, and JDBC code elsewhere in the JVM still gets the build's driver.
 */
class PipelinePreviousPgjdbcTest {

  @Test
  void theOldDriverConnectsFromItsOwnClassLoaderAndLeavesTheBuildsAlone() throws SQLException {
    try (Lab lab = Lab.start(LabConfig.fromEnvironment().withBackend(BackendKind.EMBEDDED));
        Connection old = PreviousPgjdbc.connect(PipelineBenchmark.clientTarget(lab))) {
      assertThat(old.getMetaData().getDriverVersion()).isEqualTo("42.7.12");
      assertThat(old.getClass().getClassLoader()).as("the old driver's class loader")
          .isNotSameAs(org.postgresql.Driver.class.getClassLoader());
      assertThat(old.getClass().getClassLoader().getParent())
          .isSameAs(ClassLoader.getPlatformClassLoader());
      try (Statement st = old.createStatement();
          ResultSet rs = st.executeQuery("SELECT current_schema()")) {
        rs.next();
        assertThat(rs.getString(1)).as("its schema").isEqualTo(lab.schema());
      }

      assertThat(DriverManager.getDriver(lab.jdbcUrl()).getClass())
          .as("what DriverManager gives the build's code")
          .isSameAs(org.postgresql.Driver.class);
      try (Connection c = lab.dataSource().getConnection()) {
        assertThat(c.getMetaData().getDriverVersion()).isEqualTo("42.7.13");
      }
    }
  }
}
