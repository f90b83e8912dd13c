package io.github.latencylab.wire;

import java.util.Deque;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * How many tests the JVM's innermost test plan is running at this moment, as the JUnit
 * Platform reports them (every test, with latency-lab or without: {@code
 * junit.RunningTests}), so that a thread no test owns is counted to the one test counting only
 * while no other test runs ({@link WireScope}). A plan run inside a test (a tool's tests of its
 * own JUnit extension) is the innermost while it runs.
 */
public final class TestsRunning {

  private static final Deque<AtomicInteger> PLANS = new ConcurrentLinkedDeque<>();
  private static final AtomicLong STARTED = new AtomicLong();

  private TestsRunning() {
  }

  /** A test plan began: its count of running tests, to pass to {@link #planFinished}. */
  public static AtomicInteger planStarted() {
    AtomicInteger running = new AtomicInteger();
    PLANS.push(running);
    return running;
  }

  public static void planFinished(AtomicInteger running) {
    PLANS.remove(running);
  }

  /** A test began, in any plan. */
  public static void testStarted() {
    STARTED.incrementAndGet();
  }

  /** How many tests began in this JVM, as the plans reported them (0 where none do). */
  public static long started() {
    return STARTED.get();
  }

  /** The tests the innermost plan runs now; -1 where no plan reports them. */
  static int now() {
    AtomicInteger running = PLANS.peek();
    return running == null ? -1 : running.get();
  }
}
