package io.github.latencylab.bench.runner;

import io.github.latencylab.latency.Rtt;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * How much of the sweep a run covers. Suites declare their full parameter lists; a profile
 * narrows the size parameters, sets JMH's iterations, and bounds the time one cell may take:
 * a cell estimated to take longer is predicted by the model instead, and marked so.
 */
public enum Profile {
  /**
   * What {@code ./mvnw verify} runs for its regression numbers: every suite and strategy at
   * 0.5, 20 and 320 ms, one size (TPC-B: one client, stock synchronous_commit), the shortest
   * honest iterations, a 10 s budget per cell.
   */
  VERIFY(Rtt.parseList("0.5ms,20ms,320ms"),
      Map.of("rows", new String[] {"1000"}, "parents", new String[] {"100"},
          "clients", new String[] {"1"}, "synchronousCommit", new String[] {"on"}),
      1, 1, Duration.ofMillis(300), 2, Duration.ofMillis(300), Duration.ofSeconds(10)),
  /** Minutes: the latencies that tell the story, small sizes, short iterations. */
  QUICK(Rtt.parseList("0.5ms,20ms,320ms"),
      Map.of("rows", new String[] {"100", "1000", "10000"},
          "parents", new String[] {"10", "100"}),
      1, 1, Duration.ofMillis(500), 2, Duration.ofMillis(500), Duration.ofSeconds(15)),
  /**
   * Hours: the whole sweep 0.5 to 320 ms and sizes up to a million rows. One-second
   * iterations: an operation here is round-trip bound, so a second holds hundreds of them at
   * 0.5 ms and at least one anywhere; three of them give the error bar.
   */
  FULL(Rtt.SWEEP,
      Map.of("rows", new String[] {"100", "1000", "10000", "100000", "1000000"},
          "parents", new String[] {"10", "100", "1000"}),
      1, 1, Duration.ofSeconds(2), 3, Duration.ofSeconds(1), Duration.ofSeconds(60));

  final List<Rtt> rtts;
  final Map<String, String[]> sizes;
  final int forks;
  final int warmupIterations;
  final Duration warmupTime;
  final int measurementIterations;
  final Duration measurementTime;
  final Duration cellBudget;

  Profile(List<Rtt> rtts, Map<String, String[]> sizes, int forks, int warmupIterations,
      Duration warmupTime, int measurementIterations, Duration measurementTime,
      Duration cellBudget) {
    this.rtts = rtts;
    this.sizes = sizes;
    this.forks = forks;
    this.warmupIterations = warmupIterations;
    this.warmupTime = warmupTime;
    this.measurementIterations = measurementIterations;
    this.measurementTime = measurementTime;
    this.cellBudget = cellBudget;
  }

  /** A cell's time when each operation takes {@code opMs}: at least one op per iteration. */
  double estimatedCellMs(double opMs) {
    double perIteration = Math.max(opMs, warmupTime.toMillis());
    double measuring = Math.max(opMs, measurementTime.toMillis());
    return warmupIterations * perIteration + measurementIterations * measuring;
  }

}
