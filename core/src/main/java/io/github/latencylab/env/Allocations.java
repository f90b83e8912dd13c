package io.github.latencylab.env;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/** The client's allocations, as the JVM counts them per thread. */
public final class Allocations {

  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  private Allocations() {
  }

  /**
   * The bytes the calling thread allocated so far (TLABs included: HotSpot's and OpenJ9's
   * count), or -1 where the JVM does not count them.
   */
  public static long onThisThread() {
    return THREADS instanceof com.sun.management.ThreadMXBean t
        && t.isThreadAllocatedMemorySupported() && t.isThreadAllocatedMemoryEnabled()
        ? t.getCurrentThreadAllocatedBytes() : -1;
  }
}
