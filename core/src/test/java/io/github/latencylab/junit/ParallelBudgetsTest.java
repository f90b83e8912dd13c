package io.github.latencylab.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.testkit.engine.EventConditions.event;
import static org.junit.platform.testkit.engine.EventConditions.finishedSuccessfully;
import static org.junit.platform.testkit.engine.EventConditions.finishedWithFailure;
import static org.junit.platform.testkit.engine.EventConditions.test;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.message;

import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;

/**
 * JUnit's parallel mode (classes and methods concurrent) keeps every exact budget exact: a
 * test's count is what its own thread sent, not what other tests sent meanwhile (their SQL,
 * their classes' set-up), and budgeted tests still run at the same time as each other.
 */
class ParallelBudgetsTest {

  static final int TESTS = 40;

  private static EngineTestKit.Builder inParallel(Class<?>... classes) {
    EngineTestKit.Builder kit = EngineTestKit.engine("junit-jupiter")
        .configurationParameter("latencylab.backend", "embedded")
        .configurationParameter("junit.jupiter.execution.parallel.enabled", "true")
        .configurationParameter("junit.jupiter.execution.parallel.mode.default", "concurrent")
        .configurationParameter("junit.jupiter.execution.parallel.mode.classes.default",
            "concurrent")
        .configurationParameter("junit.jupiter.execution.parallel.config.strategy", "fixed")
        .configurationParameter("junit.jupiter.execution.parallel.config.fixed.parallelism",
            "4");
    for (Class<?> c : classes) {
      kit.selectors(selectClass(c));
    }
    return kit;
  }

  @Test
  void exactBudgetsStayExactBesideUnbudgetedTestsAndStillRunAtOnce() {
    Budgeted.running.set(0);
    Budgeted.mostAtOnce.set(0);
    Events tests = inParallel(Budgeted.class, Unbudgeted.class).execute().testEvents();
    tests.assertThatEvents().haveExactly(2 * TESTS, event(test(), finishedSuccessfully()));
    assertThat(Budgeted.mostAtOnce.get()).as("budgeted tests that ran at the same time")
        .isGreaterThan(1);
  }

  @Test
  void sqlFromAThreadNoTestOwnsWhileTestsRunAtOnceIsCountedToNoneAndSaidInOneLine() {
    inParallel(SharedThread.class).execute().testEvents().assertThatEvents()
        .haveExactly(1, event(test("oneRoundTripOfItsOwn"), finishedSuccessfully()))
        .haveExactly(1, event(test("threeRoundTripsCountedOnlyIfTheSharedThreadWereItsOwn"),
            finishedWithFailure(message(m -> m.startsWith("threeRoundTripsCountedOnlyIfThe"
                + "SharedThreadWereItsOwn(): expected exactly 3 round trips, but there were 1")
                && m.contains("not counted: 4 round trips began on threads no test owns"
                    + " (shared-work) while other tests ran at the same time (JUnit's"
                    + " parallel mode): counted to none of them.")))));
  }

  // a build's runner (surefire, Gradle) launches the tests, its listeners found by service
  // loading: JUnit's launcher here, which tells latency-lab how many tests run at once
  @Test
  void sqlFromAThreadNoTestOwnsIsNotCountedToTheOneBudgetWhileAnUnbudgetedTestRunsBeside() {
    SummaryGeneratingListener summary = new SummaryGeneratingListener();
    LauncherDiscoveryRequestBuilder request = LauncherDiscoveryRequestBuilder.request()
        .selectors(selectClass(BesideAnUnbudgetedTest.class))
        .configurationParameter("latencylab.backend", "embedded")
        .configurationParameter("junit.jupiter.execution.parallel.enabled", "true")
        .configurationParameter("junit.jupiter.execution.parallel.mode.default", "concurrent")
        .configurationParameter("junit.jupiter.execution.parallel.config.strategy", "fixed")
        .configurationParameter("junit.jupiter.execution.parallel.config.fixed.parallelism",
            "2");
    try (LauncherSession session = LauncherFactory.openSession()) {
      session.getLauncher().execute(request.build(), summary);
    }
    assertThat(summary.getSummary().getFailures()).as("failures")
        .extracting(f -> f.getException().getMessage()).isEmpty();
    assertThat(summary.getSummary().getTestsSucceededCount()).isEqualTo(2);
  }

  /** A user's repository test in miniature: a lookup, an insert, a count, a commit. */
  static int lookupInsertCountCommit(HikariDataSource pool, String table, int id)
      throws Exception {
    try (Connection c = pool.getConnection()) {
      c.setAutoCommit(false);
      try (PreparedStatement find = c.prepareStatement("SELECT name FROM " + table
          + " WHERE id = ?")) {
        find.setInt(1, 1);
        find.executeQuery().close();
      }
      try (PreparedStatement insert = c.prepareStatement("INSERT INTO " + table
          + " (id, name) VALUES (?, ?)")) {
        insert.setInt(1, id);
        insert.setString(2, "item " + id);
        insert.executeUpdate();
      }
      int count;
      try (Statement st = c.createStatement();
          ResultSet rs = st.executeQuery("SELECT count(*) FROM " + table)) {
        rs.next();
        count = rs.getInt(1);
      }
      c.commit();
      return count;
    }
  }

  static HikariDataSource tableOn(String table) throws Exception {
    HikariDataSource pool = OverheadTest.hikari(4);
    try (Connection c = pool.getConnection(); Statement st = c.createStatement()) {
      st.execute("DROP TABLE IF EXISTS " + table);
      st.execute("CREATE TABLE " + table + " (id int PRIMARY KEY, name text)");
      st.execute("INSERT INTO " + table + " VALUES (0, 'seed')");
      st.execute("ANALYZE " + table); // another class's set-up, while budgets count
    }
    return pool;
  }

  @ExtendWith(LabExtension.class)
  static class Budgeted {
    static final AtomicInteger running = new AtomicInteger();
    static final AtomicInteger mostAtOnce = new AtomicInteger();
    static final AtomicInteger ids = new AtomicInteger();
    static HikariDataSource pool;

    @BeforeAll
    static void table() throws Exception {
      pool = tableOn("parallel_budgeted");
    }

    @AfterAll
    static void close() {
      pool.close();
    }

    @RepeatedTest(TESTS)
    @ExpectRoundTrips(exactly = 4)
    void lookupInsertCountCommit() throws Exception {
      mostAtOnce.accumulateAndGet(running.incrementAndGet(), Math::max);
      try {
        ParallelBudgetsTest.lookupInsertCountCommit(pool, "parallel_budgeted",
            ids.incrementAndGet());
        Thread.sleep(2); // a test's own pause: room for another to run beside it
      } finally {
        running.decrementAndGet();
      }
    }
  }

  @ExtendWith(LabExtension.class)
  static class Unbudgeted {
    static final AtomicInteger ids = new AtomicInteger();
    static HikariDataSource pool;

    @BeforeAll
    static void table() throws Exception {
      pool = tableOn("parallel_unbudgeted");
    }

    @AfterAll
    static void close() {
      pool.close();
    }

    @RepeatedTest(TESTS)
    void lookupInsertCountCommit() throws Exception {
      ParallelBudgetsTest.lookupInsertCountCommit(pool, "parallel_unbudgeted",
          ids.incrementAndGet());
    }
  }

  /**
   * A pool and one executor thread that no test owns ("shared-work"), started before any
   * budget, and a barrier that holds two tests at the same time: for the classes below, each
   * run on its own.
   */
  abstract static class WithASharedThread {
    static final CyclicBarrier bothIn = new CyclicBarrier(2);
    static ExecutorService shared;
    static HikariDataSource pool;

    @BeforeAll
    static void start() throws Exception {
      bothIn.reset();
      shared = Executors.newSingleThreadExecutor(r -> new Thread(r, "shared-work"));
      pool = OverheadTest.hikari(4);
      shared.submit(() -> select(1)).get(); // the thread and a connection, before any budget
    }

    @AfterAll
    static void stop() {
      shared.shutdownNow();
      pool.close();
    }

    static int select(int times) throws Exception {
      try (Connection c = pool.getConnection()) {
        return LabExtensionTest.select(c, times);
      }
    }
  }

  /**
   * A budgeted test and, at the same time, an unbudgeted one that hands two SELECTs to the
   * shared thread (as a server's thread serves a test's HTTP call): the budget counts its own
   * SELECT only.
   */
  @ExtendWith(LabExtension.class)
  static class BesideAnUnbudgetedTest extends WithASharedThread {

    @Test
    @ExpectRoundTrips(exactly = 1)
    void oneSelectOfItsOwn() throws Exception {
      bothIn.await(30, TimeUnit.SECONDS);
      bothIn.await(30, TimeUnit.SECONDS); // the other test's SELECTs done meanwhile
      select(1);
    }

    @Test
    void twoSelectsOnAThreadItDoesNotOwn() throws Exception {
      bothIn.await(30, TimeUnit.SECONDS);
      shared.submit(() -> select(2)).get();
      bothIn.await(30, TimeUnit.SECONDS);
    }
  }

  /**
   * Two tests, held at the same time, each hand two SELECTs to the shared thread that neither
   * owns: the four are counted to neither, and each test says so.
   */
  @ExtendWith(LabExtension.class)
  static class SharedThread extends WithASharedThread {

    static void work() throws Exception {
      bothIn.await(30, TimeUnit.SECONDS);
      shared.submit(() -> select(2)).get();
      bothIn.await(30, TimeUnit.SECONDS); // both tests' shared work done, both still counting
      select(1);
    }

    @Test
    @ExpectRoundTrips(exactly = 1)
    void oneRoundTripOfItsOwn() throws Exception {
      work();
    }

    @Test
    @ExpectRoundTrips(exactly = 3)
    void threeRoundTripsCountedOnlyIfTheSharedThreadWereItsOwn() throws Exception {
      work();
    }
  }
}
