package io.github.latencylab.bench.runner;

import io.github.latencylab.bench.support.MeasuredRtt;
import io.github.latencylab.bench.support.WireMetrics;
import io.github.latencylab.report.Cell;
import io.github.latencylab.report.Series;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;

/** JMH's results as latency-lab's cells. */
final class JmhResults {

  private JmhResults() {
  }

  static Cell toCell(RunResult run, MeasuredRtt rtt) {
    var params = run.getParams();
    String fqn = params.getBenchmark();
    String className = fqn.substring(0, fqn.lastIndexOf('.'));
    Map<String, String> values = new TreeMap<>();
    for (String key : params.getParamsKeys()) {
      if (!"rtt".equals(key)) {
        values.put(key, params.getParam(key));
      }
    }
    Result<?> primary = run.getPrimaryResult();
    double toMs = msPer(params.getTimeUnit());
    Map<String, Double> server = new TreeMap<>();
    run.getSecondaryResults().forEach((name, result) -> {
      String counter = JmhJson.serverCounter(name);
      if (counter != null && Double.isFinite(result.getScore())) {
        server.put(counter, result.getScore());
      }
    });
    Series series = Series.of(className.substring(className.lastIndexOf('.') + 1),
        fqn.substring(fqn.lastIndexOf('.') + 1), values);
    return new Cell(series, rtt.rtt(), rtt.addedMs(), rtt.baselineMs(),
        primary.getScore() * toMs, primary.getScoreError() * toMs,
        score(run, "roundTripsPerOp"), score(run, "statementsPerOp"),
        score(run, "rowsPerSecond"), server, null,
        JmhJson.zeroIfAbsent(score(run, "windowRoundTripsPerOp")), null);
  }

  /** The query ids of the statements the cell's forks ran ({@link WireMetrics#STATEMENT}). */
  static Set<Long> queryIds(RunResult run) {
    Set<Long> ids = new TreeSet<>();
    for (BenchmarkResult fork : run.getBenchmarkResults()) {
      fork.getSecondaryResults().keySet().stream()
          .filter(name -> name.startsWith(WireMetrics.STATEMENT))
          .forEach(name -> ids.add(Long.parseLong(name.substring(
              WireMetrics.STATEMENT.length()))));
    }
    return ids;
  }

  /** The time per operation of each measurement iteration, in ms, every fork's in order. */
  static double[] samples(RunResult run) {
    double toMs = msPer(run.getParams().getTimeUnit());
    return run.getBenchmarkResults().stream()
        .flatMap(fork -> fork.getIterationResults().stream())
        .mapToDouble(i -> i.getPrimaryResult().getScore() * toMs).toArray();
  }

  /** Two runs of one cell as one, as JMH pools its forks: their iterations together. */
  static RunResult pooled(RunResult first, RunResult more) {
    List<BenchmarkResult> forks = new ArrayList<>(first.getBenchmarkResults());
    forks.addAll(more.getBenchmarkResults());
    return new RunResult(first.getParams(), forks);
  }

  private static double score(RunResult run, String name) {
    Result<?> r = run.getSecondaryResults().get(name);
    return r == null ? Double.NaN : r.getScore();
  }

  private static double msPer(TimeUnit unit) {
    return unit.toNanos(1) / 1e6;
  }
}
