package io.github.latencylab.junit;

import static io.github.latencylab.junit.LabExtensionTest.select;
import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import io.github.latencylab.env.BackendKind;
import io.github.latencylab.env.Lab;
import io.github.latencylab.env.LabConfig;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Counting across the threads a test starts (a parallel stream on a pool, an executor on the
 * bare DataSource), scoped to a block, and blocks counted at once on one Lab, each its own.
 */
class ThreadsAndScopesTest {

  @RegisterExtension
  static final LabExtension LAB =
      LabExtension.withConfig(LabConfig.fromEnvironment().withBackend(BackendKind.EMBEDDED));

  static HikariDataSource pool;

  @BeforeAll
  static void userPool(Lab lab) {
    pool = OverheadTest.hikari(4);
  }

  @AfterAll
  static void closePool() {
    pool.close();
  }

  @Test
  @ExpectRoundTrips(exactly = 8) // one select per element, whichever thread ran it
  void aParallelStreamOnAPoolIsCountedWhole() {
    int sum = IntStream.rangeClosed(1, 8).parallel().map(i -> {
      try (Connection c = pool.getConnection()) {
        return select(c, 1);
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    }).sum();
    assertThat(sum).isEqualTo(8);
  }

  @Test
  void anExecutorsTasksAreCountedInTheBlockThatWaitsForThem(DataSource dataSource)
      throws Exception {
    ExecutorService executor = Executors.newFixedThreadPool(3);
    try {
      int total = RoundTrips.assertExactly(6, () -> {
        List<Future<Integer>> tasks = new ArrayList<>();
        for (int t = 0; t < 3; t++) {
          tasks.add(executor.submit(() -> {
            try (Connection c = dataSource.getConnection()) { // set-up: not counted
              return select(c, 2);
            }
          }));
        }
        int sum = 0;
        for (Future<Integer> task : tasks) {
          sum += task.get();
        }
        return sum;
      });
      assertThat(total).isEqualTo(6);
    } finally {
      executor.shutdownNow();
    }
  }

  // both blocks wait inside for each other: blocks that took turns (a lock per Lab, as before
  // they counted their own threads) would never both be in, and the latch would time out
  @Test
  void blocksCountedAtOnceOnOneLabEachCountTheirOwn(Lab lab) throws Exception {
    ExecutorService executor = Executors.newFixedThreadPool(2);
    CountDownLatch bothIn = new CountDownLatch(2);
    try {
      List<Future<Integer>> both = new ArrayList<>();
      for (int t = 0; t < 2; t++) {
        int n = 3 + t;
        both.add(executor.submit(() -> RoundTrips.on(lab).exactly(n, () -> {
          bothIn.countDown();
          assertThat(bothIn.await(30, TimeUnit.SECONDS)).as("the other block is in").isTrue();
          try (Connection c = pool.getConnection()) {
            for (int i = 0; i < n; i++) {
              select(c, 1);
              Thread.sleep(5); // widen the window in which the other block would mix in
            }
            return n;
          }
        })));
      }
      assertThat(both.get(0).get() + both.get(1).get()).isEqualTo(7);
    } finally {
      executor.shutdownNow();
    }
  }

  // CI once counted a test's four round trips as two: a pool's thread finished setting up a
  // connection between the reads of the count and of its overhead, so the overhead held two
  // round trips and a statement the count did not
  @Test
  void aConnectionSetUpOnAnotherThreadNeverMovesABlocksCount(Lab lab) throws Exception {
    AtomicBoolean done = new AtomicBoolean();
    AtomicInteger connections = new AtomicInteger();
    Thread setUps = new Thread(() -> {
      while (!done.get()) {
        try {
          lab.dataSource().getConnection().close(); // its set-up is all it costs
          connections.incrementAndGet();
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      }
    });
    setUps.start();
    try {
      // on the counter alone: 6,000 blocks, each without the Lab's check of the server's
      // sessions (two queries a block; UncountedSqlTest tests it)
      RoundTrips counted = RoundTrips.on(lab.wire());
      for (int i = 0; i < 3000 || connections.get() < 20; i++) {
        counted.exactly(0, () -> { });
        counted.statementsExactly(0, () -> { });
      }
    } finally {
      done.set(true);
      setUps.join();
    }
  }

  @Test
  void aBlockScopesTheCountInsideAnAnnotatedTest(Connection connection) throws Exception {
    select(connection, 2); // outside the block
    RoundTrips.assertExactly(1, () -> select(connection, 1));
  }
}
