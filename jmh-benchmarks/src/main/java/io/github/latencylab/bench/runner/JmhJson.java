package io.github.latencylab.bench.runner;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.latencylab.env.LabEnvironment;
import io.github.latencylab.latency.Rtt;
import io.github.latencylab.report.Cell;
import io.github.latencylab.report.Results;
import io.github.latencylab.report.Series;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Reads a result file into {@link Results}: JMH's JSON ({@code -rf json}, an array of
 * benchmarks, e.g. from {@code java -jar benchmarks.jar} or a run on another machine), or
 * latency-lab's own {@code results.json} (an object with {@code measurements}); the shape
 * decides.
 *
 * <p>From JMH's JSON: the benchmark's class is the suite, its method the strategy; the
 * {@code rtt} parameter is the cell's RTT (0 ms when absent) and the other parameters stay
 * parameters; the primary score becomes milliseconds per operation whatever its unit (time
 * per operation or throughput); the secondary metrics {@code roundTripsPerOp},
 * {@code statementsPerOp}, {@code rowsPerSecond}, {@code addedRttMs} and
 * {@code baselineRttMs} are read as they are (JMH's score is already their mean; NaN when
 * absent), and those named {@code server...} are the cell's server counters
 * ({@code serverWalBytesPerOp} becomes {@code walBytesPerOp}). The environment is what JMH
 * recorded (JVM, JMH settings): the database side is unknown. Result files of versions that
 * passed the RTT to the forks as JVM arguments ({@code -Dlatencylab.bench.rtt},
 * {@code addedRttMs}, {@code baselineRttMs}) read too.
 */
public final class JmhJson {

  private JmhJson() {
  }

  /**
   * The cells in {@code file}; an IllegalArgumentException whose message names the file and
   * what is wrong with it when it is missing, not JSON, or holds no benchmark.
   */
  public static Results read(Path file) {
    JsonNode root = Results.readTree(file);
    if (root.isObject() && root.has("measurements")) {
      return Results.fromJson(file, root);
    }
    if (!root.isArray()) {
      throw new IllegalArgumentException("Cannot read " + file + ": neither JMH's JSON results"
          + " (an array of benchmarks) nor latency-lab's results.json (an object with"
          + " measurements)");
    }
    if (root.isEmpty()) {
      throw new IllegalArgumentException("No benchmark in " + file
          + ": JMH's JSON results are an empty array");
    }
    List<Cell> cells = new ArrayList<>();
    for (int i = 0; i < root.size(); i++) {
      cells.add(cell(file, i, root.get(i)));
    }
    return new Results("jmh", modified(file), null, environment(file, root.get(0)), cells);
  }

  private static Cell cell(Path file, int index, JsonNode b) {
    String where = file + ", benchmark #" + (index + 1);
    String fqn = b.path("benchmark").asText("");
    JsonNode primary = b.path("primaryMetric");
    if (fqn.isEmpty() || !primary.isObject()) {
      throw new IllegalArgumentException("Cannot read " + where + ": not a JMH result (no"
          + " \"benchmark\" and \"primaryMetric\")");
    }
    int dot = fqn.lastIndexOf('.');
    String className = dot < 0 ? fqn : fqn.substring(0, dot);
    String suite = className.substring(className.lastIndexOf('.') + 1);
    String strategy = dot < 0 ? fqn : fqn.substring(dot + 1);

    Map<String, String> params = new TreeMap<>();
    String rtt = null;
    for (Map.Entry<String, JsonNode> p : b.path("params").properties()) {
      if (p.getKey().equals("rtt")) {
        rtt = p.getValue().asText();
      } else {
        params.put(p.getKey(), p.getValue().asText());
      }
    }
    if (rtt == null) {
      rtt = jvmArg(b, "latencylab.bench.rtt");
    }
    Rtt setting = rtt == null ? Rtt.ZERO : Results.rtt(where + " (" + fqn + ")", rtt);

    String unit = primary.path("scoreUnit").asText("");
    double score = Results.number(primary.path("score"));
    double error = Results.number(primary.path("scoreError"));
    double timeMs;
    double errorMs;
    String perOp = unit.endsWith("/op") ? unit.substring(0, unit.length() - 3) : null;
    String opsPer = unit.startsWith("ops/") ? unit.substring(4) : null;
    if (perOp != null && msPer(perOp) > 0) {
      timeMs = score * msPer(perOp);
      errorMs = error * msPer(perOp);
    } else if (opsPer != null && msPer(opsPer) > 0) {
      // throughput: ops per unit; its error propagates to first order as err / score^2
      timeMs = msPer(opsPer) / score;
      errorMs = msPer(opsPer) * error / (score * score);
    } else {
      throw new IllegalArgumentException("Cannot read " + where + " (" + fqn + "): unknown"
          + " score unit '" + unit + "' (expected a time per operation such as ms/op, or a"
          + " throughput such as ops/s)");
    }

    JsonNode secondary = b.path("secondaryMetrics");
    double added = score(secondary, "addedRttMs");
    if (Double.isNaN(added)) {
      String arg = jvmArg(b, "latencylab.bench.addedRttMs");
      added = arg == null ? setting.millis() : parse(arg);
    }
    double baseline = score(secondary, "baselineRttMs");
    if (Double.isNaN(baseline)) {
      String arg = jvmArg(b, "latencylab.bench.baselineRttMs");
      baseline = arg == null ? Double.NaN : parse(arg);
    }
    Map<String, Double> server = new TreeMap<>();
    for (Map.Entry<String, JsonNode> metric : secondary.properties()) {
      String name = serverCounter(metric.getKey());
      double value = Results.number(metric.getValue().path("score"));
      if (name != null && Double.isFinite(value)) {
        server.put(name, value);
      }
    }
    return new Cell(Series.of(suite, strategy, params), setting, added, baseline, timeMs,
        errorMs, score(secondary, "roundTripsPerOp"), score(secondary, "statementsPerOp"),
        score(secondary, "rowsPerSecond"), server, null,
        zeroIfAbsent(score(secondary, "windowRoundTripsPerOp")), null);
  }

  /**
   * The results' name of a server counter among a benchmark's secondary metrics
   * ({@code serverWalBytesPerOp} is {@code walBytesPerOp}), or null for another metric.
   */
  static String serverCounter(String secondaryMetric) {
    String prefix = "server";
    if (!secondaryMetric.startsWith(prefix) || secondaryMetric.length() == prefix.length()
        || !Character.isUpperCase(secondaryMetric.charAt(prefix.length()))) {
      return null;
    }
    String rest = secondaryMetric.substring(prefix.length());
    return Character.toLowerCase(rest.charAt(0)) + rest.substring(1);
  }

  static double zeroIfAbsent(double value) {
    return Double.isNaN(value) ? 0 : value;
  }

  private static double score(JsonNode secondary, String name) {
    return Results.number(secondary.path(name).path("score"));
  }

  /** Milliseconds in one JMH time unit ("ns", "us", "ms", "s", "min", "hr", "day"). */
  private static double msPer(String unit) {
    return switch (unit) {
      case "ns" -> 1e-6;
      case "us", "µs" -> 1e-3;
      case "ms" -> 1;
      case "s" -> 1e3;
      case "min" -> 60e3;
      case "hr" -> 3600e3;
      case "day" -> 86_400e3;
      default -> -1;
    };
  }

  /** The value of {@code -Dname=value} among the benchmark's JVM arguments, or null. */
  private static String jvmArg(JsonNode b, String name) {
    for (JsonNode arg : b.path("jvmArgs")) {
      String s = arg.asText();
      if (s.startsWith("-D" + name + "=")) {
        return s.substring(name.length() + 3);
      }
    }
    return null;
  }

  private static double parse(String s) {
    try {
      return Double.parseDouble(s.trim());
    } catch (NumberFormatException e) {
      return Double.NaN;
    }
  }

  private static LabEnvironment environment(Path file, JsonNode first) {
    String jdk = first.path("jdkVersion").asText(null);
    String vm = (first.path("vmName").asText("") + " " + first.path("vmVersion").asText(""))
        .trim();
    String description = String.format(Locale.ROOT, "from JMH's JSON %s (JMH %s, %s fork(s),"
            + " %s x %s warmup, %s x %s measurement); the database side was not recorded",
        file.getFileName(), first.path("jmhVersion").asText("?"),
        first.path("forks").asText("?"), first.path("warmupIterations").asText("?"),
        first.path("warmupTime").asText("?"), first.path("measurementIterations").asText("?"),
        first.path("measurementTime").asText("?"));
    return new LabEnvironment("unknown", description, null, Map.of(), null, null, Map.of(),
        null, jdk,
        vm.isEmpty() ? null : vm, null, 0, 0);
  }

  private static String modified(Path file) {
    try {
      return Files.getLastModifiedTime(file).toInstant().toString();
    } catch (IOException e) {
      return null;
    }
  }
}
