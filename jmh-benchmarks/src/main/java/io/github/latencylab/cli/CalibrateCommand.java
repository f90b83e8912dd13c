package io.github.latencylab.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.latencylab.env.Lab;
import io.github.latencylab.env.LabEnvironment;
import io.github.latencylab.latency.Rtt;
import io.github.latencylab.latency.RttMeasurement;
import io.github.latencylab.report.AddedRttHistogram;
import io.github.latencylab.report.AddedRttHistogram.Series;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code ./latency-lab calibrate}: what each latency setting really adds, measured. */
@Command(name = "calibrate", mixinStandardHelpOptions = true,
    description = {"Measures the round-trip time through the proxy without toxics (baseline) and"
        + " what each RTT setting really adds to a round trip (mean, p1, p50, p99, stddev of"
        + " paired probes: each through the toxic proxy minus one through its toxic-free twin)."})
public final class CalibrateCommand implements Callable<Integer> {

  @Option(names = "--rtt", paramLabel = "LIST", converter = RttConverter.class,
      defaultValue = "0.1ms,0.25ms,0.5ms,1ms,2ms,5ms,10ms,20ms,40ms,80ms,160ms,320ms",
      description = "RTT settings to measure (default: ${DEFAULT-VALUE})")
  List<Rtt> rtts;

  @Option(names = "--samples", paramLabel = "N",
      description = "Probes per setting, each with a baseline probe beside it (default: about"
          + " 1.5 s of probing per setting, 8 to 1000)")
  Integer samples;

  @Mixin
  JsonOption json;

  @Option(names = "--markdown", paramLabel = "FILE",
      description = "Also write the results as a Markdown page (e.g."
          + " docs/results/calibration-embedded.md)")
  Path markdown;

  @Option(names = "--charts", paramLabel = "DIR",
      description = "Also write a histogram of the added RTT per setting there"
          + " (added-rtt-<setting>.svg)")
  Path charts;

  @Option(names = "--before", paramLabel = "FILE",
      description = "With --charts: a previous --json file (with samples) whose settings are"
          + " drawn beside this run's, e.g. one run with LATENCYLAB_RTT_TOXICS=whole-ms")
  Path before;

  @Mixin
  LabOptions lab;

  @Spec
  CommandSpec spec;

  /**
   * One row of the table and of the JSON file. The added RTT's statistics are of the paired
   * samples (each probe with toxics minus the baseline probe right before it), which the row
   * carries too, in microseconds' precision, for histograms.
   */
  record Row(String configured, double configuredMs, String toxics, double addedMeanMs,
      double addedP1Ms, double addedP50Ms, double addedP99Ms, double addedStddevMs,
      double errorPercent, double baselineMeanMs, double baselineP50Ms, double baselineP99Ms,
      int samples, List<Double> addedSamplesMs) {

    static Row of(RttMeasurement m) {
      return new Row(m.configured().toString(), m.configured().millis(), m.plan().describe(),
          m.addedMeanMs(), m.added().p1Ms(), m.addedP50Ms(), m.addedP99Ms(),
          m.added().stddevMs(), 100 * m.relativeError(), m.baseline().meanMs(),
          m.baseline().p50Ms(), m.baseline().p99Ms(), m.withToxics().samples(),
          m.addedSamplesMs().stream().map(v -> Math.round(v * 1000) / 1000.0).toList());
    }
  }

  /** The JSON file. {@code toxics}: "latency_us" or "whole-ms", what made the latency. */
  record Report(String kind, String measuredAt, String toxics, LabEnvironment environment,
      List<Row> rows) {
  }

  @Override
  public Integer call() throws Exception {
    if (samples != null && samples < 1) {
      throw new ParameterException(spec.commandLine(),
          "--samples must be at least 1, got " + samples);
    }
    if (before != null && charts == null) {
      throw new ParameterException(spec.commandLine(), "--before needs --charts DIR");
    }
    Map<String, Series> previous = before == null ? Map.of() : samplesOf(before);
    PrintStream out = System.out;
    System.err.println("latency-lab: starting the Lab...");
    List<Row> rows = new ArrayList<>();
    LabEnvironment environment;
    String toxics;
    try (Lab l = Lab.start(lab.config())) {
      System.err.println("latency-lab: " + l.describe());
      environment = l.environment();
      toxics = l.perRoundTripLatency() ? "latency_us" : "whole-ms";
      try (Progress progress = new Progress("calibrate", rtts.size())) {
        for (Rtt rtt : rtts) {
          progress.working(rtt.toString());
          rows.add(Row.of(samples != null ? l.measure(rtt, samples) : l.measure(rtt)));
          progress.step();
        }
      }
    }
    out.println();
    out.println("PostgreSQL " + environment.postgresVersion() + ", " + environment.description());
    out.print(table(rows));
    out.println("added = each probe through the toxic proxy minus the probe through its twin"
        + " without toxics right before it (one round trip each, a prepared SELECT 1);"
        + " mean, percentiles and stddev of those differences.");
    json.write(() -> new Report("calibration", Instant.now().toString(), toxics, environment,
        rows), out::println);
    if (charts != null) {
      Files.createDirectories(charts);
      for (Row r : rows) {
        List<Series> series = new ArrayList<>();
        Series earlier = previous.get(r.configured());
        if (earlier != null) {
          series.add(earlier);
        }
        series.add(new Series(label(toxics), r.addedSamplesMs()));
        Path file = charts.resolve("added-rtt-" + r.configured() + ".svg");
        Files.writeString(file, AddedRttHistogram.svg("Added round-trip time at " + r.configured()
            + " (" + environment.backend() + " backend)", r.configuredMs(), series));
        out.println("wrote " + file);
      }
    }
    if (markdown != null) {
      Files.createDirectories(markdown.toAbsolutePath().getParent());
      Files.writeString(markdown, markdownPage(environment, rows));
      out.println("wrote " + markdown);
    }
    return 0;
  }

  /** The added-RTT samples per setting of an earlier --json file. */
  private Map<String, Series> samplesOf(Path file) throws java.io.IOException {
    JsonNode report = new ObjectMapper().readTree(file.toFile());
    String name = label(report.path("toxics").asText("before"));
    Map<String, Series> out = new HashMap<>();
    for (JsonNode row : report.path("rows")) {
      List<Double> samples = new ArrayList<>();
      row.path("addedSamplesMs").forEach(v -> samples.add(v.asDouble()));
      if (samples.isEmpty()) {
        throw new ParameterException(spec.commandLine(), "--before " + file + ": row "
            + row.path("configured").asText() + " has no addedSamplesMs (written before"
            + " calibrate kept samples? run it again with --json)");
      }
      out.put(row.path("configured").asText(), new Series(name, samples));
    }
    return out;
  }

  private static String label(String toxics) {
    return switch (toxics) {
      case "latency_us" -> "latency_us toxics (per round trip)";
      case "whole-ms" -> "whole-millisecond toxics";
      default -> toxics;
    };
  }

  static String markdownPage(LabEnvironment env, List<Row> rows) {
    StringBuilder md = new StringBuilder();
    md.append("# Latency calibration (").append(env.backend()).append(" backend)\n\n")
        .append("Generated by `./latency-lab calibrate` on ").append(Instant.now()).append(".\n")
        .append("What each RTT setting really adds to one round trip (a prepared `SELECT 1`):"
            + " each probe through the toxic proxy minus the probe through its toxic-free twin"
            + " right before it; mean, percentiles and standard deviation of those differences."
            + " See [the latency guide](../latency.md).\n\n")
        .append("| configured | toxics | added mean | p1 | p50 | p99 | stddev | error |"
            + " baseline RTT | samples |\n|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (Row r : rows) {
      md.append(String.format(Locale.ROOT,
          "| %s | %s | %.3f ms | %.3f ms | %.3f ms | %.3f ms | %.3f ms | %+.1f%% | %.3f ms"
              + " | %d |%n",
          r.configured(), r.toxics(), r.addedMeanMs(), r.addedP1Ms(), r.addedP50Ms(),
          r.addedP99Ms(), r.addedStddevMs(), r.errorPercent(), r.baselineMeanMs(), r.samples()));
    }
    md.append("\n## Environment\n\n")
        .append("- backend: ").append(env.description()).append('\n')
        .append("- PostgreSQL ").append(env.postgresVersion()).append(", pgjdbc ")
        .append(env.pgjdbcVersion()).append(", Toxiproxy ").append(env.toxiproxyVersion())
        .append('\n')
        .append("- Java ").append(env.javaVersion()).append(" (").append(env.javaVm())
        .append("), ").append(env.os()).append(", ").append(env.cpus()).append(" CPUs\n")
        .append("- server settings: ");
    env.postgresSettings().forEach((k, v) -> md.append('`').append(k).append('=').append(v)
        .append("` "));
    return md.append('\n').toString();
  }

  static String table(List<Row> rows) {
    StringBuilder t = new StringBuilder();
    String format = "%-10s | %-24s | %10s %10s %10s %10s %10s | %7s | %12s | %7s%n";
    t.append(String.format(Locale.ROOT, format, "configured", "toxics", "added mean",
        "p1", "p50", "p99", "stddev", "error", "baseline RTT", "samples"));
    t.append("-".repeat(140)).append('\n');
    for (Row r : rows) {
      t.append(String.format(Locale.ROOT, format, r.configured(), r.toxics(),
          ms(r.addedMeanMs()), ms(r.addedP1Ms()), ms(r.addedP50Ms()), ms(r.addedP99Ms()),
          ms(r.addedStddevMs()), String.format(Locale.ROOT, "%+.1f%%", r.errorPercent()),
          ms(r.baselineMeanMs()), r.samples()));
    }
    return t.toString();
  }

  private static String ms(double v) {
    return String.format(Locale.ROOT, "%.3f ms", v);
  }
}
