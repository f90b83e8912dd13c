package io.github.latencylab.bench.runner;

import io.github.latencylab.latency.RttMeasurement;
import io.github.latencylab.report.JmhJson;
import io.github.latencylab.report.Measurement;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;

/** JMH's results as latency-lab's cells. */
final class JmhResults {

  private JmhResults() {
  }

  static Measurement toMeasurement(RunResult run, RttMeasurement rtt) {
    var params = run.getParams();
    String fqn = params.getBenchmark();
    String className = fqn.substring(0, fqn.lastIndexOf('.'));
    Map<String, String> values = new TreeMap<>();
    for (Object key : params.getParamsKeys()) {
      if (!"rtt".equals(key)) {
        values.put((String) key, params.getParam((String) key));
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
    return new Measurement(className.substring(className.lastIndexOf('.') + 1),
        fqn.substring(fqn.lastIndexOf('.') + 1), values, rtt.configured().toString(),
        rtt.configured().millis(), rtt.addedMeanMs(), rtt.baseline().meanMs(),
        primary.getScore() * toMs, primary.getScoreError() * toMs,
        score(run, "roundTripsPerOp"), score(run, "statementsPerOp"),
        score(run, "rowsPerSecond"), false, "measured", server);
  }

  private static double score(RunResult run, String name) {
    Result<?> r = run.getSecondaryResults().get(name);
    return r == null ? Double.NaN : r.getScore();
  }

  private static double msPer(TimeUnit unit) {
    return unit.toNanos(1) / 1e6;
  }
}
