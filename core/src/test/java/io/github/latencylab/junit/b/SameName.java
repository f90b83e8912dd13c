package io.github.latencylab.junit.b;

import io.github.latencylab.junit.LabExtension;
import java.sql.Connection;
import java.sql.Statement;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Run by LatencyReportTest only: the simple name of a.SameName with another cost, and tests
 * of several invocations (parameterized, dynamic), each its own row.
 */
@ExtendWith(LabExtension.class)
public class SameName {

  @Test
  void sameMethod(Connection connection) throws Exception {
    select(connection, 2);
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 3})
  void selects(int times, Connection connection) throws Exception {
    select(connection, times);
  }

  @TestFactory
  Stream<DynamicTest> dynamic(Connection connection) {
    return Stream.of(1, 4).map(times -> DynamicTest.dynamicTest(times + " selects",
        () -> select(connection, times)));
  }

  private static void select(Connection connection, int times) throws Exception {
    try (Statement st = connection.createStatement()) {
      for (int i = 0; i < times; i++) {
        st.execute("select " + i);
      }
    }
  }
}
