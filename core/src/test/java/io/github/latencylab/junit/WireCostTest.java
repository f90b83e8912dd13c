package io.github.latencylab.junit;

import static io.github.latencylab.junit.LabExtensionTest.select;
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
import io.github.latencylab.latency.Rtt;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;
import org.opentest4j.AssertionFailedError;

/**
 * Round trips priced at a latency by the one model, from counts and waits taken at 0 ms; repeated
 * statements traced to their call site; class-level annotations.
 */
class WireCostTest {

  @RegisterExtension
  static final LabExtension LAB =
      LabExtension.withConfig(LabConfig.fromEnvironment().withBackend(BackendKind.EMBEDDED));

  @Test
  void aCheapBlockPassesItsPriceAndReturnsItsValue(Connection connection) {
    // 3 round trips x 20 ms = 60 ms of wire, plus what it waited on the server at 0 ms
    int value = RoundTrips.assertCostAtMost("20ms", 1_000, () -> select(connection, 3));
    assertThat(value).isEqualTo(3);
  }

  @Test
  void aFailureShowsTheArithmeticThePricesAndTheNPlusOneWithItsCallSite(Lab lab,
      Connection connection) {
    AssertionFailedError failure = catchFailure(() -> RoundTrips.on(lab)
        .costAtMost(Rtt.parse("20ms"), 150, () -> Library.booksOfEachAuthor(connection, 10)));
    String m = failure.getMessage();
    assertThat(m)
        .startsWith("expected a wire cost of at most 150 ms at 20ms, but it is ")
        .containsPattern("but it is [\\d.,]+ m?s = 10 round trips x 20ms \\+ [\\d.,]+ [µm]?s"
            + " waiting on the server \\(measured at 0ms\\); the code's own time [\\d.,]+ [µm]?s"
            + " not priced\n")
        .containsPattern("\n  10 round trips, 10 SQL statements, [\\d.,]+ [kB ]+sent, .* received,"
            + " .* measured at 0ms\n")
        .containsPattern("\n  priced at 0\\.5ms: .*; at 20ms: .*; at 320ms: .*\n")
        .contains("the SQL, read at the wire:\n     1  SELECT $1::int AS author_id\n"
            + "        ... the same 9 more times (2-10)\n")
        .contains("repeated: `SELECT ?::int AS author_id` ran 10 times from"
            + " `WireCostTest$Library.booksOfEachAuthor(WireCostTest.java:" + Library.LOOP_LINE
            + ")`: an N+1;"
            + " fetch them in one query (join fetch, entity graph, batch fetch) or load by ids\n");
    // the price is the model's: the round trips' 200 ms and the server's wait
    assertThat((Double) failure.getActual().getValue()).isGreaterThanOrEqualTo(200);
  }

  @Test
  void aListOfKeysPerStatementIsABatchFetchNotAnNPlusOne(Lab lab, Connection connection) {
    assertThatThrownBy(() -> RoundTrips.on(lab).atMost(1,
        () -> Library.booksByAuthorBatches(connection, 4)))
        .hasMessageContaining("repeated: `SELECT ? = any (?) AS hit` ran 4 times from"
            + " `WireCostTest$Library.booksByAuthorBatches(WireCostTest.java:")
        .hasMessageContaining(": a batch fetch (a list of keys per statement), not an N+1\n")
        .hasMessageNotContaining("N+1;");
  }

  @Test
  void theAnnotationsWorkOnAClassAndPriceAtALatency() {
    Events tests = EngineTestKit.engine("junit-jupiter")
        .configurationParameter("latencylab.backend", "embedded")
        .selectors(selectClass(ClassBudget.class))
        .execute()
        .testEvents();
    tests.assertStatistics(stats -> stats.started(4).succeeded(2).failed(2));
    tests.assertThatEvents().haveExactly(1, event(test("withinTheClassBudget"),
        finishedSuccessfully()));
    tests.assertThatEvents().haveExactly(1, event(test("overTheClassBudget"),
        finishedWithFailure(instanceOf(AssertionFailedError.class), message(m -> m.startsWith(
            "overTheClassBudget(): expected at most 2 round trips, but there were 3")))));
    tests.assertThatEvents().haveExactly(1, event(test("itsOwnBudgetWins"),
        finishedSuccessfully()));
    tests.assertThatEvents().haveExactly(1, event(test("tooDearAt320ms"),
        finishedWithFailure(instanceOf(AssertionFailedError.class), message(m -> m.startsWith(
            "tooDearAt320ms(): expected a wire cost of at most 500 ms at 320ms, but it is")
            && m.contains(" = 2 round trips x 320ms + ")))));
  }

  /** Run by {@link #theAnnotationsWorkOnAClassAndPriceAtALatency} only. */
  @ExtendWith(LabExtension.class)
  @ExpectRoundTrips(max = 2)
  static class ClassBudget {

    @Test
    void withinTheClassBudget(Connection connection) throws Exception {
      select(connection, 2);
    }

    @Test
    void overTheClassBudget(Connection connection) throws Exception {
      select(connection, 3);
    }

    @Test
    @ExpectRoundTrips(max = 5)
    void itsOwnBudgetWins(Connection connection) throws Exception {
      select(connection, 5);
    }

    @Test
    @ExpectWireCost(rtt = "320ms", maxMillis = 500)
    void tooDearAt320ms(Connection connection) throws Exception {
      select(connection, 2);
    }
  }

  /** A repository's loops, one per line that the messages name. */
  static final class Library {

    static final int LOOP_LINE = 139;

    static int booksOfEachAuthor(Connection c, int authors) throws Exception {
      int found = 0;
      try (PreparedStatement ps = c.prepareStatement("SELECT ?::int AS author_id")) {
        for (int id = 1; id <= authors; id++) {
          ps.setInt(1, id);
          try (ResultSet rs = ps.executeQuery()) { // line LOOP_LINE: one query per author
            found += rs.next() ? 1 : 0;
          }
        }
      }
      return found;
    }

    static int booksByAuthorBatches(Connection c, int batches) throws Exception {
      int hits = 0;
      try (PreparedStatement ps = c.prepareStatement("SELECT ? = any (?) AS hit")) {
        for (int b = 0; b < batches; b++) {
          Array ids = c.createArrayOf("int4", new Integer[] {b * 3, b * 3 + 1, b * 3 + 2});
          ps.setInt(1, b * 3);
          ps.setArray(2, ids);
          try (ResultSet rs = ps.executeQuery()) {
            hits += rs.next() && rs.getBoolean(1) ? 1 : 0;
          }
        }
      }
      return hits;
    }
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
