package io.github.latencylab.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.latencylab.env.LabEnvironment;
import io.github.latencylab.latency.Rtt;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
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
 * absent). The environment is what JMH recorded (JVM, JMH settings): the database side is
 * unknown.
 */
public final class JmhJson {

  // a results.json from a newer version may have more fields: read what this one knows
  private static final ObjectMapper JSON = new ObjectMapper()
      .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
  private JmhJson() {
  }

  /**
   * The cells in {@code file}; an IllegalArgumentException whose message names the file and
   * what is wrong with it when it is missing, not JSON, or holds no benchmark.
   */
  public static Results read(Path file) {
    if (Files.isDirectory(file)) {
      throw new IllegalArgumentException("Cannot read " + file + ": a directory, not a file"
          + " (expected JMH's JSON results or a results.json)");
    }
    JsonNode root;
    try {
      root = JSON.readTree(Files.readString(file));
    } catch (NoSuchFileException e) {
      throw new IllegalArgumentException("Cannot read " + file + ": no such file");
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("Cannot read " + file + ": not JSON ("
          + e.getOriginalMessage() + " at line " + e.getLocation().getLineNr() + ")");
    } catch (IOException e) {
      throw new IllegalArgumentException("Cannot read " + file + ": " + e);
    }
    if (root == null || root.isMissingNode()) {
      throw new IllegalArgumentException("Cannot read " + file + ": the file is empty");
    }
    if (root.isObject() && root.has("measurements")) {
      return ownResults(file, root);
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
    List<Measurement> cells = new ArrayList<>();
    for (int i = 0; i < root.size(); i++) {
      cells.add(cell(file, i, root.get(i)));
    }
    return new Results("jmh", modified(file), null, environment(file, root.get(0)), cells);
  }

  private static Results ownResults(Path file, JsonNode root) {
    Results results;
    try {
      results = JSON.treeToValue(root, Results.class);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("Cannot read " + file + " as latency-lab results: "
          + e.getOriginalMessage());
    }
    if (results.measurements() == null || results.measurements().isEmpty()) {
      throw new IllegalArgumentException("No benchmark in " + file
          + ": its measurements are empty");
    }
    return results;
  }

  private static Measurement cell(Path file, int index, JsonNode b) {
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
    double rttMs = rtt == null ? 0 : rttMillis(where, rtt);
    if (rtt == null) {
      rtt = "0ms";
    }

    String unit = primary.path("scoreUnit").asText("");
    double score = number(primary.path("score"));
    double error = number(primary.path("scoreError"));
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
    double added = number(secondary.path("addedRttMs").path("score"));
    if (Double.isNaN(added)) {
      String arg = jvmArg(b, "latencylab.bench.addedRttMs");
      added = arg == null ? rttMs : parse(arg);
    }
    double baseline = number(secondary.path("baselineRttMs").path("score"));
    if (Double.isNaN(baseline)) {
      String arg = jvmArg(b, "latencylab.bench.baselineRttMs");
      baseline = arg == null ? Double.NaN : parse(arg);
    }
    return new Measurement(suite, strategy, params, rtt, rttMs, added, baseline, timeMs,
        errorMs, number(secondary.path("roundTripsPerOp").path("score")),
        number(secondary.path("statementsPerOp").path("score")),
        number(secondary.path("rowsPerSecond").path("score")), false, "measured");
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

  private static double rttMillis(String where, String rtt) {
    try {
      return Rtt.parse(rtt).millis();
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("Cannot read " + where + ": invalid rtt parameter '"
          + rtt + "' (" + e.getMessage() + ")", e);
    }
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

  /** A JSON number, or a string JMH writes for non-finite values ("NaN"); NaN otherwise. */
  static double number(JsonNode n) {
    if (n.isNumber()) {
      return n.doubleValue();
    }
    return n.isTextual() ? parse(n.asText()) : Double.NaN;
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
    return new LabEnvironment("unknown", description, null, Map.of(), null, null, jdk,
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
