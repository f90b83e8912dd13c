package io.github.latencylab.wire;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Where a reactive client's statements come from. A Mutiny or Reactor pipeline is built by the
 * application's code (its assembly) and runs later, on an event loop, after that code returned:
 * when the client writes the statement, no frame of the application's may be on any stack, and
 * the relay that counts it reads on a thread of its own. So the application's chain is taken
 * where its code builds a Uni or a Publisher ({@link CallSites#assembly()}), by {@link
 * MutinyAssembly} and {@link ReactorAssembly}, and recorded as it is built and again as it is
 * subscribed: the last one, the innermost pipeline the application built (a subscription runs
 * from the outer operator to its source), is what asked for the statements a relayed
 * connection sends next ({@link WireCounter}).
 *
 * <p>Only while a test's counted stretch is open ({@link WireScope}): building a pipeline then
 * costs a walk of the stack. JVM-wide, whichever copy of latency-lab (a framework's class loader)
 * or of Mutiny and Reactor records it ({@link JvmWide}). Where pipelines of different lines run
 * at once (a flatMap over two repositories, tests in parallel) a statement may be named at the
 * other's line; an N+1 repeats one line, and is named at it. A client that sends as it is asked
 * (Hibernate Reactive's {@code Mutiny.fetch}) may have sent before the Uni it returns is built:
 * its statement is named at that line when the relay reads it after, else at the line before.
 *
 * <p>What tracing allocates on a thread is kept apart ({@link #allocatedHere()}): a test's
 * allocations are the application's, not latency-lab's.
 */
public final class AssemblySites {

  private static final CallSites.Origin NONE = new CallSites.Origin(null, List.of(), null);
  private static final AtomicInteger STRETCHES = JvmWide.stretchesOpen();
  private static final AtomicReference<Object[]> ASKED = JvmWide.lastAsked();
  private static final boolean REACTOR = present("reactor.core.publisher.Hooks");
  private static volatile boolean reactorHooked;
  private static final com.sun.management.ThreadMXBean ALLOCATIONS = allocationCounter();
  private static final ThreadLocal<long[]> OWN_ALLOCATIONS =
      ThreadLocal.withInitial(() -> new long[1]);

  private AssemblySites() {
  }

  /** A test's stretch opens: pipelines built from now on are traced, none asked for yet. */
  static void stretchOpened() {
    if (STRETCHES.getAndIncrement() == 0) {
      ASKED.set(null);
    }
    if (REACTOR && !reactorHooked) {
      reactorHooked = true;
      ReactorAssembly.install();
    }
  }

  static void stretchClosed() {
    STRETCHES.decrementAndGet();
  }

  /**
   * The application's chain building a pipeline on this thread, recorded as asking; or null
   * (no test counts, or the application's code is not building it).
   */
  static CallSites.Origin assembled() {
    if (STRETCHES.get() == 0) {
      return null;
    }
    long mark = ownWorkBegins();
    CallSites.Origin origin = CallSites.assembly();
    if (origin != null) {
      ASKED.set(encode(origin));
    }
    ownWorkEnds(mark);
    return origin;
  }

  /** What {@code origin}'s code built is subscribed: it asks for what is sent next. */
  static void asked(CallSites.Origin origin) {
    if (STRETCHES.get() > 0) {
      long mark = ownWorkBegins();
      ASKED.set(encode(origin));
      ownWorkEnds(mark);
    }
  }

  /**
   * The bytes tracing pipelines has allocated on this thread so far: what a test's allocations
   * leave out.
   */
  public static long allocatedHere() {
    return OWN_ALLOCATIONS.get()[0];
  }

  /** Begins work of latency-lab's own on this thread: a mark for {@link #ownWorkEnds}. */
  static long ownWorkBegins() {
    return ALLOCATIONS == null ? 0 : ALLOCATIONS.getCurrentThreadAllocatedBytes();
  }

  /** Ends it: what it allocated since {@code mark} is latency-lab's. */
  static void ownWorkEnds(long mark) {
    if (ALLOCATIONS != null) {
      long[] own = OWN_ALLOCATIONS.get();
      own[0] += ALLOCATIONS.getCurrentThreadAllocatedBytes() - mark;
    }
  }

  /** The application's chain that built or subscribed a pipeline last, or an empty one. */
  static CallSites.Origin lastAsked() {
    Object[] last = ASKED.get();
    return last == null ? NONE : decode(last);
  }

  // in JDK types: another copy of latency-lab reads it
  private static Object[] encode(CallSites.Origin origin) {
    List<CodeLine> chain = origin.chain();
    Object[] o = new Object[1 + 3 * chain.size()];
    o[0] = origin.route();
    for (int i = 0; i < chain.size(); i++) {
      o[1 + 3 * i] = chain.get(i).frame();
      o[2 + 3 * i] = chain.get(i).source();
      o[3 + 3 * i] = chain.get(i).line();
    }
    return o;
  }

  private static CallSites.Origin decode(Object[] o) {
    List<CodeLine> chain = new ArrayList<>(o.length / 3);
    for (int i = 1; i + 2 < o.length; i += 3) {
      chain.add(new CodeLine((String) o[i], (String) o[i + 1], (Integer) o[i + 2]));
    }
    return new CallSites.Origin(null, List.copyOf(chain), (String) o[0]);
  }

  private static com.sun.management.ThreadMXBean allocationCounter() {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    return threads instanceof com.sun.management.ThreadMXBean t
        && t.isThreadAllocatedMemorySupported() && t.isThreadAllocatedMemoryEnabled() ? t : null;
  }

  private static boolean present(String className) {
    try {
      Class.forName(className, false, AssemblySites.class.getClassLoader());
      return true;
    } catch (ClassNotFoundException | LinkageError e) {
      return false;
    }
  }
}
