package io.github.latencylab.cli;

import io.github.latencylab.bench.runner.JmhJson;
import io.github.latencylab.bench.runner.Noise;
import io.github.latencylab.gate.Baseline;
import io.github.latencylab.gate.BaselineComparison;
import io.github.latencylab.gate.StatementPlan;
import io.github.latencylab.junit.FindingsFiles;
import io.github.latencylab.report.ReportWriter;
import io.github.latencylab.report.Results;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code ./latency-lab report}: the report of a result file (JMH's JSON or latency-lab's
 * results.json), and with {@code --baseline} the regression check against it.
 */
@Command(name = "report", mixinStandardHelpOptions = true,
    description = {"Renders a report (report.md, report.html, charts/*.svg, results.json) from"
        + " JMH's JSON results of the latency-lab suites or from a results.json, and prints its"
        + " table.",
        "With --baseline, checks the results against it: round trips and statements per"
            + " operation exactly, time within the baseline's tolerances; exit code 1 on a"
            + " regression."},
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {"0:report written (and the baseline check passed)",
        "1:the baseline check failed", "2:bad input (the message says what)"})
public final class ReportCommand implements Callable<Integer> {

  @Option(names = "--results", paramLabel = "FILE", required = true, arity = "1..*",
      description = "JMH's JSON results (-rf json, e.g. jmh-results.json) or latency-lab's"
          + " results.json; several files (runs of one database, e.g. suite by suite, or the"
          + " shards of bench --shard on several machines, each cell marked with its machine)"
          + " make one report")
  List<Path> results;

  @Option(names = "--out", paramLabel = "DIR", defaultValue = "target/latency-report",
      description = "Where the report goes (default: ${DEFAULT-VALUE})")
  Path out;

  @Option(names = "--baseline", paramLabel = "FILE",
      description = "A regression baseline to check against, e.g. src/latency-baseline.json")
  Path baseline;

  @Option(names = "--noise",
      description = "The --results are the repeats of one A/A run (bench --repeat N keeps each"
          + " as repeat-K/results.json): write its noise table (noise.json, noise.md) into"
          + " --out instead of a report")
  boolean noise;

  @Option(names = "--update-baseline",
      description = {"With --noise and --baseline: rewrite the baseline from the --results,"
          + " every one a run of the same profile on unchanged code (an A/A run's repeats, and"
          + " more runs of the same code at other times, busy and quiet: the noise the gate will"
          + " meet), each measured cell's time their median and its noise kept for the time gate"})
  boolean updateBaseline;

  @Option(names = "--update-baseline-work",
      description = {"With --baseline: write into the baseline each measured cell's counted work"
          + " (rows, values, value bytes, buffers, WAL, temp bytes, allocations per operation:"
          + " docs/work.md), the median of the --results, runs of unchanged code, and the"
          + " plans of their statements every run agrees on (each run's plans.json), its times"
          + " and noise kept"})
  boolean updateBaselineWork;

  @Spec
  CommandSpec spec;

  @Override
  public Integer call() {
    List<Map.Entry<Path, Results>> runs = results.stream()
        .map(file -> Map.entry(file, JmhJson.read(file))).toList();
    if (updateBaseline && (!noise || baseline == null)) {
      throw new IllegalArgumentException("--update-baseline needs --noise and --baseline FILE: a"
          + " baseline is rewritten from the repeats of unchanged code (one run: bench"
          + " --update-baseline)");
    }
    if (noise) {
      return noise(runs);
    }
    if (updateBaselineWork) {
      return updateWork(runs);
    }
    Results run = runs.size() == 1 ? runs.get(0).getValue() : Results.merge(runs);
    BaselineComparison comparison = null;
    if (baseline != null) {
      comparison = BaselineComparison.compare(Baseline.read(baseline), run);
    }
    List<Path> written;
    try {
      written = ReportWriter.write(run, out, comparison);
    } catch (IOException e) {
      throw new IllegalStateException("Cannot write the report to " + out + ": " + e, e);
    }
    PrintWriter stdout = spec.commandLine().getOut();
    stdout.print(ReportWriter.consoleTable(run));
    if (!run.machines().isEmpty()) {
      stdout.println(Results.MACHINES_NOTE);
      run.machines().forEach((name, env) -> stdout.println("  " + name + ": "
          + (env == null ? "not recorded" : env.machine()) + ", "
          + run.cells().stream().filter(c -> name.equals(run.machine(c))).count() + " cells"));
    }
    stdout.println();
    stdout.println("wrote " + written.size() + " files to " + out + ": report.html, report.md,"
        + " results.json, charts/ (" + (written.size() - 3 - (comparison == null ? 0 : 1))
        + " SVG)");
    // the findings of JUnit runs' reports (each fork's, each shard's) beside their results
    List<Path> findings = results.stream().map(r -> r.toAbsolutePath().resolveSibling(
        "findings.json")).filter(Files::isRegularFile).toList();
    if (!findings.isEmpty()) {
      try {
        stdout.println(FindingsFiles.merge(findings, out));
      } catch (IOException e) {
        throw new IllegalStateException("Cannot write the findings to " + out + ": " + e, e);
      }
    }
    if (comparison != null) {
      stdout.println();
      stdout.print(comparison.report());
    }
    stdout.flush();
    return comparison == null || comparison.passed() ? 0 : 1;
  }

  /**
   * Per cell and statement, the plan every run that read one agrees on; a statement whose
   * runs disagree is left out, and said (a plan that moves on unchanged code gates nothing).
   */
  private Map<String, Map<String, StatementPlan>> agreed(
      List<Map<String, Map<String, StatementPlan>>> runs) {
    Map<String, Map<String, StatementPlan>> out = new TreeMap<>();
    Map<String, Set<String>> differ = new TreeMap<>();
    for (Map<String, Map<String, StatementPlan>> run : runs) {
      run.forEach((cell, plans) -> plans.forEach((shape, plan) -> {
        StatementPlan first = out.computeIfAbsent(cell, k -> new LinkedHashMap<>())
            .putIfAbsent(shape, plan);
        if (first != null && !first.plan().equals(plan.plan())) {
          differ.computeIfAbsent(cell, k -> new TreeSet<>()).add(shape);
        }
      }));
    }
    differ.forEach((cell, shapes) -> shapes.forEach(shape -> {
      out.get(cell).remove(shape);
      spec.commandLine().getOut().println("latency-lab: not kept, its plan differs between the"
          + " runs: " + cell + ": `" + shape + "`");
    }));
    out.values().removeIf(Map::isEmpty);
    return out;
  }

  /** The baseline with the runs' counted work: 1 when it has no cell they counted. */
  private int updateWork(List<Map.Entry<Path, Results>> runs) {
    if (baseline == null) {
      throw new IllegalArgumentException("--update-baseline-work needs --baseline FILE");
    }
    try {
      Baseline before = Baseline.read(baseline);
      Baseline after = before.withWork(runs.stream().map(Map.Entry::getValue).toList());
      long counted = after.cells().stream().filter(c -> !c.server().isEmpty()).count();
      List<Map<String, Map<String, StatementPlan>>> runPlans = new ArrayList<>();
      for (Map.Entry<Path, Results> run : runs) {
        Path plans = run.getKey().resolveSibling("plans.json");
        if (Files.exists(plans)) {
          runPlans.add(Baseline.readPlans(plans));
        }
      }
      Map<String, Map<String, StatementPlan>> plans = agreed(runPlans);
      if (!plans.isEmpty()) {
        after = after.withPlans(plans);
      }
      after.write(baseline);
      spec.commandLine().getOut().println("latency-lab: the counted work of " + counted
          + " cells, from " + runs.size() + " runs, " + (plans.isEmpty() ? "" : "and the plans"
          + " of " + plans.size() + " cells' statements (from " + runPlans.size() + " runs'"
          + " plans.json), ") + "written into " + baseline
          + " (its times and noise kept; review and commit it)");
      spec.commandLine().getOut().flush();
      return counted == 0 ? 1 : 0;
    } catch (IOException e) {
      throw new IllegalStateException("Cannot rewrite the baseline " + baseline + ": " + e, e);
    }
  }

  /** The noise of repeats run before, as bench --repeat writes it: 1 when a count moved. */
  private int noise(List<Map.Entry<Path, Results>> runs) {
    Noise table = Noise.of(runs.stream().map(Map.Entry::getValue).toList());
    Path dir = out.toAbsolutePath();
    try {
      Files.createDirectories(dir);
      table.write(dir, runs.stream().map(e -> dir.relativize(e.getKey().toAbsolutePath()))
          .toList(), runs.get(0).getValue());
    } catch (IOException e) {
      throw new IllegalStateException("Cannot write the noise table to " + out + ": " + e, e);
    }
    PrintWriter stdout = spec.commandLine().getOut();
    stdout.print(table.markdown().lines().limit(6).collect(
        java.util.stream.Collectors.joining("\n", "", "\n")));
    stdout.println("noise: " + out.resolve("noise.md") + " (also noise.json)");
    if (updateBaseline && !table.countsMoved()) {
      try {
        Baseline written = Baseline.update(runs.stream().map(Map.Entry::getValue).toList(),
            baseline);
        stdout.println("latency-lab: baseline rewritten from " + runs.size() + " runs, "
            + written.noise().size() + " cells with their noise: " + baseline
            + " (review and commit it)");
      } catch (IOException e) {
        throw new IllegalStateException("Cannot write the baseline " + baseline + ": " + e, e);
      }
    }
    stdout.flush();
    return table.countsMoved() ? 1 : 0;
  }
}
