package io.github.latencylab.env;

import io.github.latencylab.latency.Rtt;
import java.net.InetSocketAddress;

/**
 * A kernel path in a JVM of its own, for {@link KernelPathTest} to kill: prints "ready pid" (the
 * kernel-path program's) and waits. Started from a thread that ends at once, as a pool's would.
 */
public final class KernelPathInAnotherJvm {

  private KernelPathInAnotherJvm() {
  }

  public static void main(String[] args) throws Exception {
    KernelPath[] path = new KernelPath[1];
    Thread starter = new Thread(() -> path[0] = KernelPath.start(Rtt.ofMillis(20), "reno", true,
        new InetSocketAddress("127.0.0.1", 9)));
    starter.start();
    starter.join();
    System.out.println("ready " + path[0].pid());
    System.out.flush();
    Thread.sleep(Long.MAX_VALUE);
  }
}
