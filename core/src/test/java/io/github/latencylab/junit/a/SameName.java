package io.github.latencylab.junit.a;

import io.github.latencylab.junit.LabExtension;
import java.sql.Connection;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Run by LatencyReportTest only: a test class whose simple name b.SameName shares. */
@ExtendWith(LabExtension.class)
public class SameName {

  @Test
  void sameMethod(Connection connection) throws Exception {
    try (Statement st = connection.createStatement()) {
      st.execute("select 1");
    }
  }
}
