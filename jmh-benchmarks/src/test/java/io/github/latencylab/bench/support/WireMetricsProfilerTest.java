package io.github.latencylab.bench.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.results.Aggregator;
import org.openjdk.jmh.results.AverageTimeResult;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ResultRole;
import org.openjdk.jmh.results.ScalarResult;

/**
 * An iteration's secondary results are its own values, not shares of a sum: one round trip per
 * SELECT 1 reads 1.000 on JMH's iteration line and in its summary (the mean of the iterations).
 */
class WireMetricsProfilerTest {

  @Test
  @SuppressWarnings("unchecked")
  void eachIterationReportsTheValueItselfAndTheSummaryIsTheirMean() throws Exception {
    WireMetricsProfiler profiler = new WireMetricsProfiler();
    Map<String, ScalarResult> first = iteration(profiler, 1.0, 500);
    Map<String, ScalarResult> second = iteration(profiler, 1.0, 700);

    assertThat(first.get("roundTripsPerOp").getScore()).isEqualTo(1.0);
    // two threads: round trips per operation averaged, rows per second added up
    assertThat(first.get("rowsPerSecond").getScore()).isEqualTo(1000.0);
    assertThat(second.get("rowsPerSecond").getScore()).isEqualTo(1400.0);

    // what JMH's summary does with the iterations (protected in JMH, hence reflection)
    Method aggregator = ScalarResult.class.getDeclaredMethod("getIterationAggregator");
    aggregator.setAccessible(true);
    Result<?> summary = ((Aggregator<ScalarResult>) aggregator.invoke(first.get(
        "roundTripsPerOp"))).aggregate(List.of(first.get("roundTripsPerOp"),
        second.get("roundTripsPerOp")));
    assertThat(summary.getScore()).isEqualTo(1.0);
  }

  @Test
  void aForksValueReportedInItsLastIterationIsTheSummaryNotAShareOfIt() {
    WireMetricsProfiler profiler = new WireMetricsProfiler();
    List<IterationResult> iterations = new ArrayList<>();
    for (double fork : new double[] {4.0, 6.0}) {
      for (int i = 0; i < 3; i++) {
        profiler.beforeIteration(null, null);
        WireMetricsProfiler.mean("roundTripsPerOp", 2.0);
        if (i == 2) {
          WireMetricsProfiler.ofFork("serverCommitsPerOp", fork);
        }
        IterationResult r = new IterationResult(null, null, null);
        r.addResult(new AverageTimeResult(ResultRole.PRIMARY, "op", 1, 1_000_000,
            TimeUnit.MILLISECONDS));
        r.addResults(profiler.afterIteration(null, null, r));
        iterations.add(r);
      }
    }
    // JMH pools two forks' iterations so (RunResult.getAggregatedResult)
    BenchmarkResult summary = new BenchmarkResult(null, iterations);
    assertThat(summary.getSecondaryResults().get("serverCommitsPerOp").getScore()).isEqualTo(5.0);
    assertThat(summary.getSecondaryResults().get("roundTripsPerOp").getScore()).isEqualTo(2.0);
  }

  private static Map<String, ScalarResult> iteration(WireMetricsProfiler profiler,
      double roundTripsPerOp, double rowsPerSecondEachThread) {
    profiler.beforeIteration(null, null);
    for (int thread = 0; thread < 2; thread++) {
      WireMetricsProfiler.mean("roundTripsPerOp", roundTripsPerOp);
      WireMetricsProfiler.sum("rowsPerSecond", rowsPerSecondEachThread);
    }
    return profiler.afterIteration(null, null, null).stream().map(r -> (ScalarResult) r)
        .collect(Collectors.toMap(Result::getLabel, r -> r));
  }
}
