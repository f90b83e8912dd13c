package io.github.latencylab.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.testkit.engine.EventConditions.event;
import static org.junit.platform.testkit.engine.EventConditions.finishedSuccessfully;
import static org.junit.platform.testkit.engine.EventConditions.finishedWithFailure;
import static org.junit.platform.testkit.engine.EventConditions.test;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.instanceOf;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.message;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;
import org.opentest4j.AssertionFailedError;

/**
 * The fetch-size cliff, caught: in autocommit pgjdbc ignores setFetchSize and reads 10,000 rows
 * in one reply; {@code @ExpectReads(maxRowsPerRoundTrip = 1000)} fails it with the SQL and the
 * line that sent it, and passes the same read in a transaction (a cursor, 1,000 rows a round
 * trip). A fetch size of 10 fails {@code maxRoundTripsPerThousandRows}.
 */
class FetchSizeGuardTest {

  @Test
  void aReadThatIgnoresItsFetchSizeFailsWithItsCallSite() {
    Events tests = EngineTestKit.engine("junit-jupiter")
        .configurationParameter("latencylab.backend", "embedded")
        .selectors(selectClass(Reads.class))
        .execute()
        .testEvents();
    tests.assertStatistics(stats -> stats.started(3).succeeded(1).failed(2));
    tests.assertThatEvents().haveExactly(1, event(test("inATransaction"), finishedSuccessfully()));
    tests.assertThatEvents().haveExactly(1, event(test("inAutocommit"),
        finishedWithFailure(instanceOf(AssertionFailedError.class), message(m -> m.startsWith(
            "inAutocommit(): expected at most 1,000 rows per round trip, but `SELECT i FROM"
                + " generate_series(1, 10000) i` from `FetchSizeGuardTest.read("
                + "FetchSizeGuardTest.java:") && m.contains(")` got 10,000 rows in one reply."
                + " pgjdbc holds a whole reply in memory before it returns the first row, and"
                + " without a transaction it ignores setFetchSize: read it in a transaction"
                + " (setAutoCommit(false)) with setFetchSize(1000)")))));
    tests.assertThatEvents().haveExactly(1, event(test("aFetchSizeOfTen"),
        finishedWithFailure(instanceOf(AssertionFailedError.class), message(m -> m.startsWith(
            "aFetchSizeOfTen(): expected at most 5 round trips per 1,000 rows, but `SELECT i"
                + " FROM generate_series(1, 10000) i` from `FetchSizeGuardTest.read(")
            && m.contains(" read 10,000 rows in 1,000 round trips, about 10 a round trip: its"
                + " fetch size is that small")))));
  }

  /** Run by the test above only (surefire skips nested classes). */
  @ExtendWith(LabExtension.class)
  @ExpectReads(maxRowsPerRoundTrip = 1000, maxRoundTripsPerThousandRows = 5)
  static class Reads {

    @Test
    void inATransaction(Connection connection) throws Exception {
      connection.setAutoCommit(false);
      assertThat(read(connection, 1000)).isEqualTo(10_000);
      connection.commit();
    }

    @Test
    void inAutocommit(Connection connection) throws Exception {
      assertThat(read(connection, 1000)).isEqualTo(10_000);
    }

    @Test
    void aFetchSizeOfTen(Connection connection) throws Exception {
      connection.setAutoCommit(false);
      assertThat(read(connection, 10)).isEqualTo(10_000);
      connection.commit();
    }
  }

  static int read(Connection connection, int fetchSize) throws Exception {
    int rows = 0;
    try (Statement st = connection.createStatement()) {
      st.setFetchSize(fetchSize);
      try (ResultSet rs = st.executeQuery("SELECT i FROM generate_series(1, 10000) i")) {
        while (rs.next()) {
          rows++;
        }
      }
    }
    return rows;
  }
}
