package org.springframework.samples.callsites;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * An application's class in a package that starts like Spring's own (spring-petclinic lives
 * under org.springframework.samples): compiled by this build, so it is the application's.
 */
public final class ClinicQueries {

  private ClinicQueries() {
  }

  public static void selectVets(Connection connection) throws SQLException {
    try (Statement st = connection.createStatement()) {
      st.execute("select 4");
    }
  }
}
