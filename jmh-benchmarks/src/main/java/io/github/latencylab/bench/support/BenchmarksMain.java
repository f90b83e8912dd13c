package io.github.latencylab.bench.support;

import java.util.Arrays;
import org.openjdk.jmh.Main;

/**
 * The benchmarks jar's main: JMH's own, with {@link WireMetricsProfiler} added, so that {@code
 * java -jar benchmarks.jar InsertBenchmark ...} reports round trips and statements per
 * operation like {@code ./latency-lab bench} does.
 */
public final class BenchmarksMain {

  private BenchmarksMain() {
  }

  public static void main(String[] args) throws Exception {
    String[] withProfiler = Arrays.copyOf(args, args.length + 2);
    withProfiler[args.length] = "-prof";
    withProfiler[args.length + 1] = WireMetricsProfiler.class.getName();
    Main.main(withProfiler);
  }
}
