package io.github.latencylab.junit;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.testkit.engine.EventConditions.event;
import static org.junit.platform.testkit.engine.EventConditions.finishedSuccessfully;
import static org.junit.platform.testkit.engine.EventConditions.finishedWithFailure;
import static org.junit.platform.testkit.engine.EventConditions.test;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.message;

import io.github.latencylab.env.BackendKind;
import io.github.latencylab.env.Lab;
import io.github.latencylab.env.LabConfig;
import io.github.latencylab.env.Setting;
import java.lang.reflect.Method;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.InvocationInterceptor;
import org.junit.jupiter.api.extension.ReflectiveInvocationContext;
import org.junit.platform.testkit.engine.EngineTestKit;

/**
 * A budget can never pass on SQL the Lab did not count: an application's own datasource built
 * from the Lab's host and port (its URL stripped of latency-lab's parameters) reaches the same
 * database through the same proxy, and a count of zero would pass {@code max = 10}.
 */
class UncountedSqlTest {

  @Test
  void aBudgetOverSqlTheLabDidNotCountFailsNamingTheConnectionItSaw() {
    EngineTestKit.engine("junit-jupiter")
        .configurationParameter("latencylab.backend", "embedded")
        .selectors(selectClass(Application.class)).execute().testEvents().assertThatEvents()
        .haveExactly(1, event(test("threeSelectsOnItsOwnDatasource"), finishedWithFailure(
            // "since the last budgeted test ended (this test or its set-up)" where the budget
            // started from the last one's end (StretchCarry)
            message(m -> m.startsWith("threeSelectsOnItsOwnDatasource(): SQL reached the Lab's"
                + " database on a connection the Lab did not count")
                && m.contains(", backend pid ")
                && m.contains("application_name 'its own pool'")
                && m.contains("last `SELECT 2`")
                && m.contains("point the application's datasource there")
                && !m.contains("\n")))))
        .haveExactly(1, event(test("threeSelectsOnAnotherLab"), finishedWithFailure(
            message(m -> m.startsWith("threeSelectsOnAnotherLab(): SQL went to another Lab of"
                + " this JVM, lab-") && m.contains(" statements meanwhile), while this budget"
                + " reads lab-") && !m.contains("\n")))))
        .haveExactly(1, event(test("threeSelectsOnAConnectionItOpensAndCloses"),
            // named by pg_stat_activity if its server process has not ended yet, else counted
            // by the server's sessions started, "opened and closed within the test (the
            // server started 1 session, the Lab's counted connections and its own 0)"
            finishedWithFailure(message(m -> m.startsWith("threeSelectsOnAConnectionItOpensAnd"
                + "Closes(): SQL reached the Lab's database on a connection the Lab did not"
                + " count, ") && m.contains(": this budget reads lab-")
                && !m.contains("\n")))))
        .haveExactly(1, event(test("threeSelectsOnTheLabsUrl"), finishedSuccessfully()))
        .haveExactly(1, event(test("theLabsOwnConnectionsAreNotTheApplications"),
            finishedSuccessfully()));
  }

  @Test
  void aBudgetThatAnotherExtensionRanAroundFailsInsteadOfPassingUnread() {
    EngineTestKit.engine("junit-jupiter")
        .configurationParameter("latencylab.backend", "embedded")
        .selectors(selectClass(RunByAnotherExtension.class)).execute().testEvents()
        .assertThatEvents()
        .haveExactly(1, event(test("noRoundTripUnderABudgetOfNinetyNine"), finishedWithFailure(
            message("noRoundTripUnderABudgetOfNinetyNine(): its budget was never checked: an"
                + " extension registered before LabExtension ran the test method itself"
                + " (Quarkus' does); put @ExtendWith(LabExtension.class) above @QuarkusTest"))));
  }

  /** Runs the test method itself, as QuarkusTestExtension does: nothing after it intercepts. */
  static class RunsTheMethodItself implements InvocationInterceptor {
    @Override
    public void interceptTestMethod(Invocation<Void> invocation,
        ReflectiveInvocationContext<Method> invocationContext, ExtensionContext context)
        throws Throwable {
      invocation.skip();
      invocationContext.getExecutable().invoke(invocationContext.getTarget().orElseThrow());
    }
  }

  @ExtendWith(RunsTheMethodItself.class)
  @ExtendWith(LabExtension.class)
  static class RunByAnotherExtension {
    @Test
    @ExpectRoundTrips(exactly = 99)
    void noRoundTripUnderABudgetOfNinetyNine() {
    }
  }

  @AfterAll
  static void closeTheApplicationsPool() throws Exception {
    Application.close();
  }

  /** An application whose pool keeps its connection open, as Agroal or HikariCP do. */
  @ExtendWith(LabExtension.class)
  static class Application {
    static Connection ownPool;
    static Lab anotherLab;

    @Test
    @ExpectRoundTrips(max = 10)
    void threeSelectsOnItsOwnDatasource(Lab lab) throws Exception {
      // what an application builds from host, port and database: no latency-lab parameters
      String stripped = lab.target().withParameter("ApplicationName", "its own pool").jdbcUrl();
      ownPool = DriverManager.getConnection(stripped, lab.target().user(),
          lab.target().password());
      selects(ownPool, 3);
    }

    // a framework's datasource on a Lab of other settings than the extension's
    @Test
    @ExpectRoundTrips(max = 10)
    void threeSelectsOnAnotherLab() throws Exception {
      anotherLab = Lab.start(LabConfig.fromEnvironment().withBackend(BackendKind.EMBEDDED)
          .with(Setting.CALIBRATE, "false"));
      try (Connection c = anotherLab.dataSource().getConnection()) {
        selects(c, 3);
      }
    }

    // plain JDBC as it is most often written: opened and closed within the test
    @Test
    @ExpectRoundTrips(max = 10)
    void threeSelectsOnAConnectionItOpensAndCloses(Lab lab) throws Exception {
      try (Connection c = DriverManager.getConnection(lab.target().jdbcUrl(),
          lab.target().user(), lab.target().password())) {
        selects(c, 3);
      }
    }

    @Test
    @ExpectRoundTrips(exactly = 3)
    void threeSelectsOnTheLabsUrl() throws Exception {
      try (Connection c = DriverManager.getConnection(System.getProperty(
          LabExtension.URL_PROPERTY), System.getProperty(LabExtension.USER_PROPERTY),
          System.getProperty(LabExtension.PASSWORD_PROPERTY))) {
        selects(c, 3);
      }
    }

    @Test
    @ExpectRoundTrips(exactly = 0)
    void theLabsOwnConnectionsAreNotTheApplications(Lab lab) {
      lab.refreshServerInfo();
      lab.server(); // read on a connection of the Lab's own
    }

    static void selects(Connection c, int n) throws Exception {
      try (Statement s = c.createStatement()) {
        for (int i = 0; i < n; i++) {
          s.execute("SELECT " + i);
        }
      }
    }

    static void close() throws Exception {
      if (ownPool != null) {
        ownPool.close();
      }
      if (anotherLab != null) {
        anotherLab.close();
      }
    }
  }
}
