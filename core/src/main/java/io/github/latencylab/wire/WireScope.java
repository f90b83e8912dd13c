package io.github.latencylab.wire;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One counted stretch of a test (a budget, a block of {@code RoundTrips}), counted apart from
 * what other tests send at the same time: each round trip on a Lab's connections goes to the
 * scope of the thread that began it, not to whichever test is counting, so tests run in parallel
 * keep exact counts without taking turns.
 *
 * <p>A round trip begun on a thread no scope owns (a pool's, an executor's, an HTTP server's,
 * the relay's) goes to the one scope open on its Lab while no other test runs ({@link
 * TestsRunning}), as when tests run one at a time; while others run beside it (JUnit's
 * parallel mode, budgeted or not) it cannot be told apart, so it goes to none of them and each
 * open scope says so in one line ({@link #unattributed()}; overhead, such as a pool's connection
 * set-up, aside). A thread that runs the test framework itself (another test's set-up, a test
 * without a budget) is never counted to another test's scope. Scopes nest: a block inside a
 * budgeted test counts to both.
 */
public final class WireScope implements AutoCloseable {

  // not inherited: a pool's thread started inside one test serves others later
  private static final ThreadLocal<WireScope> CURRENT = new ThreadLocal<>();
  // the outermost scopes open, every Lab's: what a thread no scope owns is counted to
  private static final Set<WireScope> OPEN_ROOTS = ConcurrentHashMap.newKeySet();
  // a thread the test framework runs on: its SQL outside a scope is a test's set-up (or a test
  // without a budget), another test's concern; found once per thread, on the first round trip
  // it begins while a scope is open elsewhere
  private static final ThreadLocal<Boolean> RUNS_TESTS =
      ThreadLocal.withInitial(WireScope::testFrameworkOnStack);
  private static final WireCounter[] NONE = new WireCounter[0];
  private static final int THREADS_NAMED = 3;

  private final WireCounter lab;
  private final WireScope enclosing;
  private final WireScope root;
  private final WireScope previous;
  private final WireCounter counter = new WireCounter();
  // this scope's counter, then each enclosing one's: where a round trip given to it adds
  private final WireCounter[] chain;
  private volatile boolean open = true;
  // of a root: its innermost open scope; another test's root was open meanwhile; round trips
  // that began on a thread no scope owns while others were open, and a few of those threads
  private volatile WireScope innermost;
  private volatile boolean overlapped;
  private final AtomicLong unattributed = new AtomicLong();
  private final Set<String> unattributedThreads = ConcurrentHashMap.newKeySet();

  private WireScope(WireCounter lab, WireScope enclosing, WireScope previous) {
    this.lab = lab;
    this.enclosing = enclosing;
    this.root = enclosing == null ? this : enclosing.root;
    this.previous = previous;
    List<WireCounter> counters = new ArrayList<>();
    for (WireScope s = this; s != null; s = s.enclosing) {
      counters.add(s.counter);
    }
    this.chain = counters.toArray(NONE);
  }

  /**
   * Opens a scope on this thread for the connections of {@code lab} (a Lab's counter, or one
   * connection's), nested in the thread's open scope of the same counter, if any.
   */
  public static WireScope open(WireCounter lab) {
    WireScope previous = CURRENT.get();
    WireScope enclosing = openOf(previous, lab, lab);
    WireScope scope = new WireScope(lab, enclosing, previous);
    if (enclosing == null) {
      for (WireScope other : OPEN_ROOTS) {
        if (other.lab == lab) {
          other.overlapped = true;
          scope.overlapped = true;
        }
      }
      OPEN_ROOTS.add(scope);
      AssemblySites.stretchOpened();
    }
    scope.root.innermost = scope;
    CURRENT.set(scope);
    return scope;
  }

  /**
   * What this scope counted: every round trip, statement, byte and read given to it, with
   * their call sites where its Lab traced.
   */
  public WireCounter counter() {
    return counter;
  }

  /**
   * True when another test's scope was open on the same Lab while this one was: the server's own
   * counters (its statistics per statement) then hold both tests' work, and cannot be split.
   */
  public boolean overlapped() {
    return root.overlapped;
  }

  /**
   * The round trips that began, while this scope and others were open, on threads no scope
   * owns, and were counted to none: "2 round trips on threads no test owns (http-nio-8080-exec-1)
   * ...", one line, or null where there were none.
   */
  public String unattributed() {
    long n = root.unattributed.get();
    if (n == 0) {
      return null;
    }
    return n + (n == 1 ? " round trip" : " round trips") + " began on threads no test owns ("
        + String.join(", ", root.unattributedThreads) + ") while other tests ran at the"
        + " same time (JUnit's parallel mode): counted to none of them. Send them from the"
        + " test's own thread (MockMvc instead of a server's port), or mark its class @Isolated"
        + " (JUnit runs it with no other test beside it)";
  }

  @Override
  public void close() {
    if (!open) {
      return;
    }
    open = false;
    if (root == this) {
      OPEN_ROOTS.remove(this);
      innermost = null;
      AssemblySites.stretchClosed();
    } else {
      root.innermost = openOf(enclosing, lab, lab);
    }
    if (CURRENT.get() == this) {
      WireScope back = openOf(previous, null, null);
      if (back == null) {
        CURRENT.remove();
      } else {
        CURRENT.set(back);
      }
    }
  }

  // scope, or the nearest scope opened before it on its thread, that is still open (and
  // counts connection or lab, where given)
  private static WireScope openOf(WireScope scope, WireCounter connection, WireCounter lab) {
    WireScope s = scope;
    while (s != null && (!s.open || (lab != null && !s.counts(connection, lab)))) {
      s = s.previous;
    }
    return s;
  }

  private boolean counts(WireCounter connection, WireCounter itsLab) {
    return lab == itsLab || lab == connection;
  }

  /**
   * The counters a round trip beginning now on this thread, on {@code connection} of {@code
   * lab}, adds to: its scope's and the enclosing ones', or none; {@code overhead}: it is a pool's or
   * driver's (never a test's own), not worth a line.
   */
  static WireCounter[] countersFor(WireCounter connection, WireCounter lab, boolean overhead) {
    if (OPEN_ROOTS.isEmpty()) {
      return NONE; // the benchmarks, and every stretch no test counts
    }
    WireScope own = openOf(CURRENT.get(), connection, lab);
    if (own != null) {
      return own.chain;
    }
    WireScope alone = null;
    int open = 0;
    for (WireScope r : OPEN_ROOTS) {
      if (r.counts(connection, lab)) {
        alone = r;
        open++;
      }
    }
    if (open == 0 || RUNS_TESTS.get()) {
      return NONE;
    }
    if (open == 1 && TestsRunning.now() <= 1) { // and no other test runs beside it
      WireScope inner = alone.innermost;
      return inner != null ? inner.chain : alone.chain;
    }
    String thread = Thread.currentThread().getName();
    for (WireScope r : OPEN_ROOTS) {
      if (r.counts(connection, lab) && !overhead) {
        r.unattributed.incrementAndGet();
        if (r.unattributedThreads.size() < THREADS_NAMED) {
          r.unattributedThreads.add(thread);
        }
      }
    }
    return NONE;
  }

  private static boolean testFrameworkOnStack() {
    return StackWalker.getInstance().walk(frames -> frames.anyMatch(f ->
        f.getClassName().startsWith("org.junit.platform.engine.support.hierarchical.")));
  }
}
