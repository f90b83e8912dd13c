package io.github.latencylab.bench.support;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.Aggregator;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

/**
 * Reports {@link WireMetrics} as JMH secondary results: each iteration's own values (1 round
 * trip per {@code SELECT 1}, not a share of it), averaged over the iterations in JMH's summary.
 *
 * <p>Why a profiler, not {@code @AuxCounters}: JMH adds up an AuxCounters EVENTS field over the
 * iterations, so the per-operation value had to be split into shares (0.500 per iteration of
 * two), and JMH's iteration lines printed the share while its summary printed the sum: two
 * outputs that contradicted each other. A profiler's result carries its own aggregation (here
 * the mean), and JMH calls it after every benchmark thread has finished the iteration (and run
 * WireMetrics' iteration teardown).
 *
 * <p>{@code ./latency-lab bench} adds it to every run; with plain JMH, the jar's main
 * ({@link BenchmarksMain}) adds it, or pass {@code -prof
 * io.github.latencylab.bench.support.WireMetricsProfiler}.
 */
public final class WireMetricsProfiler implements InternalProfiler {

  private static final Map<String, List<Double>> MEAN = new LinkedHashMap<>();
  private static final Map<String, List<Double>> SUM = new LinkedHashMap<>();
  private static final Map<String, List<Double>> FORK = new LinkedHashMap<>();

  @Override
  public String getDescription() {
    return "latency-lab's secondary results: round trips, statements, rows/s, RTT and server"
        + " counters per operation, counted at the socket";
  }

  @Override
  public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
    synchronized (MEAN) {
      MEAN.clear();
      SUM.clear();
      FORK.clear();
    }
  }

  @Override
  @SuppressWarnings("rawtypes") // JMH's InternalProfiler declares the raw Result
  public Collection<? extends Result> afterIteration(BenchmarkParams benchmarkParams,
      IterationParams iterationParams, IterationResult result) {
    List<ScalarResult> out = new ArrayList<>();
    synchronized (MEAN) {
      MEAN.forEach((name, values) -> out.add(new ScalarResult(name,
          values.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN),
          unit(name), AggregationPolicy.AVG)));
      SUM.forEach((name, values) -> out.add(new ScalarResult(name,
          values.stream().mapToDouble(Double::doubleValue).sum(), unit(name),
          AggregationPolicy.AVG)));
      FORK.forEach((name, values) -> out.add(new ForkResult(name,
          values.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN),
          unit(name))));
    }
    return out;
  }

  /** One benchmark thread's value for this iteration, averaged with the other threads'. */
  static void mean(String name, double value) {
    synchronized (MEAN) {
      MEAN.computeIfAbsent(name, n -> new ArrayList<>()).add(value);
    }
  }

  /** One benchmark thread's value for this iteration, added to the other threads'. */
  static void sum(String name, double value) {
    synchronized (MEAN) {
      SUM.computeIfAbsent(name, n -> new ArrayList<>()).add(value);
    }
  }

  /**
   * One benchmark thread's value for its whole fork, known after the fork's last operation:
   * averaged with the other threads' and, in JMH's summary, with the other forks'.
   */
  static void ofFork(String name, double value) {
    synchronized (MEAN) {
      FORK.computeIfAbsent(name, n -> new ArrayList<>()).add(value);
    }
  }

  /**
   * A value reported in a fork's last iteration only. JMH's summary pads a secondary result
   * missing from some iterations with zeros (a fork's value over six iterations would read a
   * sixth of itself); this one has no zero, so the summary is the mean of the forks' values.
   */
  static final class ForkResult extends ScalarResult {
    private static final long serialVersionUID = 1L;

    ForkResult(String label, double value, String unit) {
      super(label, value, unit, AggregationPolicy.AVG);
    }

    @Override
    protected ScalarResult getZeroResult() {
      return null;
    }

    // JMH's own aggregators make plain ScalarResults, which have a zero again
    @Override
    protected Aggregator<ScalarResult> getThreadAggregator() {
      return this::mean;
    }

    @Override
    protected Aggregator<ScalarResult> getIterationAggregator() {
      return this::mean;
    }

    private ScalarResult mean(Collection<ScalarResult> results) {
      return new ForkResult(getLabel(), results.stream().mapToDouble(Result::getScore)
          .average().orElse(Double.NaN), getScoreUnit());
    }
  }

  private static String unit(String name) {
    if (name.endsWith("Ms")) {
      return "ms";
    }
    return name.equals("rowsPerSecond") ? "rows/s" : "#";
  }
}
