package io.github.latencylab.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.testkit.engine.EventConditions.event;
import static org.junit.platform.testkit.engine.EventConditions.finishedSuccessfully;
import static org.junit.platform.testkit.engine.EventConditions.finishedWithFailure;
import static org.junit.platform.testkit.engine.EventConditions.test;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.instanceOf;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.message;

import io.github.latencylab.env.BackendKind;
import io.github.latencylab.env.Lab;
import io.github.latencylab.env.LabConfig;
import io.github.latencylab.wire.WireCounter;
import io.github.latencylab.wire.WireDataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;
import org.opentest4j.AssertionFailedError;

/** The JUnit 5 extension against a real (embedded) Lab: injection, annotations, assertions. */
class LabExtensionTest {

  @RegisterExtension
  static final LabExtension LAB =
      LabExtension.withConfig(LabConfig.fromEnvironment().withBackend(BackendKind.EMBEDDED));

  @Test
  void aTestsRowIsNamedByItsInvocationsInJUnitsUniqueId() throws Exception {
    java.lang.reflect.Method m = Object.class.getMethod("hashCode");
    String of = "[engine:junit-jupiter]/[class:com.example.T]";
    assertThat(LabExtension.series(Object.class, m, of + "/[method:hashCode()]").strategy())
        .isEqualTo("hashCode");
    assertThat(LabExtension.series(Object.class, m, of + "/[test-template:hashCode()]"
        + "/[test-template-invocation:#12]").strategy()).isEqualTo("hashCode[12]");
    assertThat(LabExtension.series(Object.class, m, of + "/[test-factory:hashCode()]"
        + "/[dynamic-container:#1]/[dynamic-test:#3]").strategy()).isEqualTo("hashCode[1.3]");
    assertThat(LabExtension.series(Object.class, m, of + "/[method:odd:#1()]").strategy())
        .isEqualTo("hashCode");
  }

  @Test
  void injectsTheSharedLabItsDataSourceAndCounter(Lab lab, DataSource dataSource,
      WireDataSource wireDataSource, WireCounter counter) {
    assertThat(lab.backend()).isEqualTo(BackendKind.EMBEDDED);
    assertThat(dataSource).isSameAs(lab.dataSource()).isSameAs(wireDataSource);
    assertThat(counter).isSameAs(lab.wire());
    assertThat(LabExtension.currentLab()).isSameAs(lab);
  }

  @Test
  void injectsAConnectionThroughTheProxyCountedOnItsOwn(Lab lab, Connection connection)
      throws Exception {
    assertThat(connection.isClosed()).isFalse();
    WireCounter wire = lab.wire(connection); // only connections of the Lab's data source have one
    assertThat(wire.measure(() -> select(connection, 3)).roundTrips()).isEqualTo(3);
  }

  @Test
  @ExpectRoundTrips(exactly = 2)
  @ExpectStatements(max = 2)
  void annotatedMethodWithinItsBoundsPasses(Connection connection) throws Exception {
    select(connection, 2); // the connection was opened before counting started
  }

  @Test
  void assertAtMostPassesAndReturnsTheValue(Connection connection) {
    Integer value = RoundTrips.assertAtMost(1, () -> select(connection, 1));
    assertThat(value).isEqualTo(1);
    RoundTrips.assertExactly(0, () -> { });
    RoundTrips.assertStatementsAtMost(2, () -> select(connection, 2));
  }

  @Test
  void aFailureListsTheSqlThatRanCollapsingRepeats(Connection connection) throws Exception {
    try (Statement st = connection.createStatement()) {
      st.execute("CREATE TEMP TABLE t (id int)");
    }
    AssertionFailedError failure = catchFailure(() -> RoundTrips.assertAtMost(2, () -> {
      try (Statement st = connection.createStatement()) {
        st.execute("SELECT count(*) FROM t");
      }
      select(connection, 5);
    }));
    assertThat(failure.getMessage())
        .startsWith("expected at most 2 round trips, but there were 6 (6 SQL statements);"
            + " the SQL, read at the wire:\n")
        .contains("     1  SELECT count(*) FROM t\n")
        .contains("     2  SELECT $1::int AS n\n")
        .contains("        ... the same 4 more times (3-6)\n");
    assertThat(failure.getExpected().getValue()).isEqualTo(2L);
    assertThat(failure.getActual().getValue()).isEqualTo(6L);
  }

  @Test
  void statementBoundsCountStatementsNotRoundTrips(Lab lab, Connection connection)
      throws Exception {
    connection.setAutoCommit(false);
    // BEGIN rides along with the first select: 3 statements, 2 round trips
    RoundTrips.on(lab.wire(connection)).exactly(2, () -> select(connection, 2));
    connection.commit();
    assertThatThrownBy(() -> RoundTrips.on(lab).statementsExactly(1,
        () -> select(connection, 2)))
        .isInstanceOf(AssertionError.class)
        .hasMessageStartingWith("expected exactly 1 SQL statement, but 3 SQL statements ran"
            + " (2 round trips)")
        .hasMessageContaining("     1  BEGIN\n");
    connection.rollback();
  }

  @Test
  void theAnnotationsFailWithTheSqlInTheMessage() {
    Events tests = EngineTestKit.engine("junit-jupiter")
        .configurationParameter("latencylab.backend", "embedded")
        .selectors(selectClass(Examples.class))
        .execute()
        .testEvents();
    tests.assertStatistics(stats -> stats.started(3).succeeded(1).failed(2));
    assertThat(Examples.injected).as("the injected connection is closed after its test")
        .isNotNull().satisfies(c -> assertThat(c.isClosed()).isTrue());
    tests.assertThatEvents().haveExactly(1, event(test("withinBounds"), finishedSuccessfully()));
    tests.assertThatEvents().haveExactly(1, event(test("tooManyRoundTrips"),
        finishedWithFailure(instanceOf(AssertionFailedError.class), message(m -> m.startsWith(
            "tooManyRoundTrips(): expected at most 1 round trip, but there were 3"
                + " (3 SQL statements); the SQL, read at the wire:\n"
                + "     1  SELECT $1::int AS n\n"
                + "        ... the same 2 more times (2-3)\n"
                + "repeated: `SELECT ?::int AS n` ran 3 times from `LabExtensionTest.select("
                + "LabExtensionTest.java:") && m.endsWith(")`: an N+1; fetch them in one query"
                + " (join fetch, entity graph, batch fetch) or load by ids\n")))));
    tests.assertThatEvents().haveExactly(1, event(test("tooManyStatements"),
        finishedWithFailure(instanceOf(AssertionFailedError.class),
            message(m -> m.startsWith("tooManyStatements(): expected exactly 1 SQL statement,"
                + " but 2 SQL statements ran (2 round trips)")
                && m.contains("     1  SELECT 'a'\n     2  SELECT 'b'\n")))));
  }

  /** Run by {@link #theAnnotationsFailWithTheSqlInTheMessage} only (surefire skips nested classes). */
  @ExtendWith(LabExtension.class)
  static class Examples {

    static Connection injected;

    @Test
    @ExpectRoundTrips(max = 1)
    void withinBounds(Connection connection) throws Exception {
      injected = connection;
      select(connection, 1);
    }

    @Test
    @ExpectRoundTrips(max = 1)
    void tooManyRoundTrips(Connection connection) throws Exception {
      select(connection, 3);
    }

    @Test
    @ExpectStatements(exactly = 1)
    void tooManyStatements(Connection connection) throws Exception {
      try (Statement st = connection.createStatement()) {
        st.execute("SELECT 'a'");
        st.execute("SELECT 'b'");
      }
    }
  }

  /** {@code times} prepared selects, one round trip each; returns the last value. */
  static int select(Connection connection, int times) throws Exception {
    int last = 0;
    try (PreparedStatement ps = connection.prepareStatement("SELECT ?::int AS n")) {
      for (int i = 1; i <= times; i++) {
        ps.setInt(1, i);
        try (ResultSet rs = ps.executeQuery()) {
          rs.next();
          last = rs.getInt(1);
        }
      }
    }
    return last;
  }

  private static AssertionFailedError catchFailure(Runnable code) {
    try {
      code.run();
    } catch (AssertionFailedError e) {
      return e;
    }
    throw new AssertionError("expected a failure");
  }
}
