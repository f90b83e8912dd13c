package io.github.latencylab.bench.runner;

import io.github.latencylab.bench.support.SharedLab;
import io.github.latencylab.cli.LabOptions;
import io.github.latencylab.cli.Progress;
import io.github.latencylab.cli.RttConverter;
import io.github.latencylab.env.Lab;
import io.github.latencylab.env.LabEnvironment;
import io.github.latencylab.latency.LatencyControl;
import io.github.latencylab.latency.Rtt;
import io.github.latencylab.latency.RttMeasurement;
import io.github.latencylab.report.Baseline;
import io.github.latencylab.report.BaselineComparison;
import io.github.latencylab.report.Measurement;
import io.github.latencylab.report.ReportWriter;
import io.github.latencylab.report.Results;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.results.format.ResultFormatFactory;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.BenchmarkList;
import org.openjdk.jmh.runner.BenchmarkListEntry;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code ./latency-lab bench}: runs JMH suites against one Lab, RTT by RTT, and writes JMH's
 * JSON, latency-lab's results.json (every cell with its environment) and a Markdown table.
 */
@Command(name = "bench", mixinStandardHelpOptions = true,
    description = {"Runs the JMH suites against one Lab, each RTT set and calibrated once.",
        "Cells that would take longer than the profile allows are predicted by the model"
            + " T(L) = T(L0) + round trips x (L - L0) and marked so."})
public final class BenchCommand implements Callable<Integer> {

  @Option(names = "--include", paramLabel = "REGEX", defaultValue = ".*",
      description = "Suites or benchmarks to run, a regular expression (default: all), e.g."
          + " Insert, NPlusOne, InsertBenchmark.copy.*")
  String include;

  @Option(names = "--profile", paramLabel = "P", defaultValue = "quick",
      description = "quick (default: 0.5, 20, 320 ms, small sizes, short iterations), full"
          + " (0.5 to 320 ms, sizes up to 1,000,000) or verify (what ./mvnw verify runs)")
  String profileName;

  @Option(names = "--rtt", paramLabel = "LIST", converter = RttConverter.class,
      description = "RTT settings instead of the profile's")
  List<Rtt> rtts;

  @Option(names = "--param", paramLabel = "NAME=V1,V2",
      description = "Values of a suite parameter instead of the profile's, e.g. rows=1000000")
  Map<String, String> paramOverrides = new TreeMap<>();

  @Option(names = "--budget", paramLabel = "SECONDS",
      description = "Longest a cell may take before it is predicted instead (default: the"
          + " profile's: quick 15, full 60, verify 10)")
  Integer budgetSeconds;

  @Option(names = "--out", paramLabel = "DIR", defaultValue = "target/latency-bench",
      description = "Where results go (default: ${DEFAULT-VALUE})")
  Path out;

  @Option(names = "--baseline", paramLabel = "FILE",
      description = "Compare with this baseline: round trips and statements exactly, times within"
          + " its tolerances; exit status 1 on a regression")
  Path baseline;

  @Option(names = "--update-baseline", arity = "0..1", fallbackValue = "true",
      description = "Write this run as the new --baseline instead of comparing")
  boolean updateBaseline;

  @Option(names = "--skip-unavailable",
      description = "Exit quietly (status 0, one line) when the backend cannot start here without"
          + " pulling images, e.g. testcontainers without Docker")
  boolean skipUnavailable;

  @Mixin
  LabOptions labOptions;

  @Override
  public Integer call() throws Exception {
    Profile profile = profile(profileName);
    if (skipUnavailable) {
      var reason = Lab.unavailableReason(labOptions.config());
      if (reason.isPresent()) {
        System.err.println("latency-lab: bench skipped on " + labOptions.config().backend()
            .label() + ": " + reason.get());
        return 0;
      }
    }
    List<Rtt> sweep = new ArrayList<>(rtts != null ? rtts : profile.rtts);
    sweep.sort(null);
    Budget budget = new Budget(profile, budgetSeconds == null
        ? profile.cellBudget : java.time.Duration.ofSeconds(budgetSeconds));
    Map<String, String[]> sizes = new TreeMap<>(profile.sizes);
    paramOverrides.forEach((k, v) -> sizes.put(k, v.split(",")));
    List<Cell> cells = plan(include, sizes);
    if (cells.isEmpty()) {
      throw new IllegalArgumentException("No benchmark matches --include '" + include + "'");
    }
    Files.createDirectories(out);
    Path jmhLog = out.resolve("jmh-output.txt");
    Files.deleteIfExists(jmhLog);
    System.err.printf("latency-lab: %d cells (%s profile, RTT %s); JMH's log: %s%n",
        cells.size() * sweep.size(), profile.name().toLowerCase(Locale.ROOT), sweep, jmhLog);
    List<RunResult> raw = new ArrayList<>();
    List<Measurement> results = new ArrayList<>();
    LabEnvironment environment;
    try (Lab lab = Lab.start(labOptions.config());
        Progress progress = new Progress("bench", (long) cells.size() * sweep.size())) {
      System.err.println("latency-lab: " + lab.describe());
      environment = lab.environment();
      for (Rtt rtt : sweep) {
        progress.working("calibrating " + rtt);
        RttMeasurement measured = lab.measure(rtt, LatencyControl.samplesFor(rtt));
        SharedLab shared = SharedLab.of(lab, measured);
        for (Cell cell : cells) {
          progress.working(cell + " @ " + rtt);
          Measurement predicted = predict(cell, measured, results, budget);
          if (predicted != null) {
            results.add(predicted);
          } else {
            Collection<RunResult> run = run(cell, rtt, profile, shared, jmhLog);
            raw.addAll(run);
            run.forEach(r -> results.add(JmhResults.toMeasurement(r, measured)));
          }
          progress.step();
        }
      }
    }
    ResultFormatFactory.getInstance(ResultFormatType.JSON, out.resolve("jmh-results.json")
        .toString()).writeOut(raw);
    Results all = new Results("bench", Instant.now().toString(),
        profile.name().toLowerCase(Locale.ROOT), environment, results);
    BaselineComparison comparison = compare(all, cells, sweep);
    ReportWriter.write(all, out, comparison);
    System.out.println();
    System.out.print(ReportWriter.consoleTable(all));
    System.out.println("report: " + out.resolve("report.html") + " (also report.md, results.json,"
        + " charts/, jmh-results.json)");
    if (comparison == null) {
      return 0;
    }
    System.out.println(comparison.report());
    if (!comparison.passed()) {
      System.out.println("latency-lab: the change made the numbers worse (above). If it is"
          + " intended, rewrite the baseline with -Dlatencylab.updateBaseline=true and commit it.");
      return 1;
    }
    return 0;
  }

  /** The comparison with --baseline, or null (none asked for, or the baseline rewritten). */
  private BaselineComparison compare(Results all, List<Cell> cells, List<Rtt> sweep)
      throws java.io.IOException {
    if (baseline == null) {
      return null;
    }
    if (updateBaseline) {
      Baseline.update(all, baseline);
      System.out.println("latency-lab: baseline rewritten: " + baseline + " (review and commit it)");
      return null;
    }
    if (!Files.exists(baseline)) {
      throw new IllegalStateException("No baseline at " + baseline + ": create it on purpose"
          + " with -Dlatencylab.updateBaseline=true (./mvnw verify) or --update-baseline");
    }
    // a run of part of the suites (--include, --rtt) is compared on what it ran
    Baseline full = Baseline.read(baseline);
    java.util.Set<String> planned = new java.util.HashSet<>();
    for (Cell cell : cells) {
      for (Rtt rtt : sweep) {
        planned.add(Baseline.key(cell.suite(), cell.method(), cell.params(), rtt.toString()));
      }
    }
    Baseline scoped = new Baseline(full.format(), full.createdAt(), full.profile(),
        full.measuredOn(), full.tolerances(),
        full.cells().stream().filter(c -> planned.contains(c.key())).toList());
    return BaselineComparison.compare(scoped, all);
  }

  static Profile profile(String name) {
    for (Profile p : Profile.values()) {
      if (p.name().equalsIgnoreCase(name)) {
        return p;
      }
    }
    throw new IllegalArgumentException("Invalid --profile '" + name
        + "': expected quick, full or verify");
  }

  /** How long a cell may take: the profile's iterations within a time budget. */
  record Budget(Profile profile, java.time.Duration limit) {
    boolean fits(double opMs) {
      return profile.forks * profile.estimatedCellMs(opMs) <= limit.toMillis();
    }
  }

  /** One benchmark method with one value for each of its parameters other than rtt. */
  record Cell(String className, String method, Map<String, String> params) {
    String suite() {
      return className.substring(className.lastIndexOf('.') + 1);
    }

    /** The size parameter's value (rows, parents...) or 0, for scaling estimates. */
    double size() {
      for (String p : new String[] {"rows", "parents"}) {
        if (params.containsKey(p)) {
          return Double.parseDouble(params.get(p));
        }
      }
      return 0;
    }

    @Override
    public String toString() {
      StringBuilder s = new StringBuilder(suite()).append('.').append(method);
      params.forEach((k, v) -> s.append(' ').append(k).append('=').append(v));
      return s.toString();
    }
  }

  /** Every cell the matching benchmarks declare, sizes narrowed by the profile. */
  static List<Cell> plan(String include, Map<String, String[]> sizes) {
    List<Cell> cells = new ArrayList<>();
    var entries = BenchmarkList.defaultList().find(
        OutputFormatFactory.createFormatInstance(System.err, VerboseMode.SILENT),
        List.of(include), List.of());
    for (BenchmarkListEntry entry : entries) {
      String fqn = entry.getUsername();
      String className = fqn.substring(0, fqn.lastIndexOf('.'));
      String method = fqn.substring(fqn.lastIndexOf('.') + 1);
      Map<String, String[]> declared = new TreeMap<>(entry.getParams().orElse(Map.of()));
      declared.remove("rtt");
      declared.replaceAll((k, v) -> sizes.getOrDefault(k, v));
      List<Map<String, String>> combos = new ArrayList<>();
      combos.add(new TreeMap<>());
      declared.forEach((name, values) -> {
        List<Map<String, String>> next = new ArrayList<>();
        for (Map<String, String> c : combos) {
          for (String v : values) {
            Map<String, String> m = new TreeMap<>(c);
            m.put(name, v);
            next.add(m);
          }
        }
        combos.clear();
        combos.addAll(next);
      });
      combos.forEach(c -> cells.add(new Cell(className, method, c)));
    }
    return cells;
  }

  /**
   * The model's value when measuring the cell would take longer than the profile allows:
   * from the same series at a lower RTT, or else from a smaller size at this RTT.
   */
  static Measurement predict(Cell cell, RttMeasurement rtt, List<Measurement> done,
      Budget budget) {
    Measurement base = null;
    for (Measurement m : done) {
      if (!m.predicted() && sameSeries(m, cell) && (base == null || m.rttMs() > base.rttMs())) {
        base = m;
      }
    }
    if (base != null) {
      Measurement moved = base.predictAt(rtt.configured().toString(), rtt.configured().millis(),
          rtt.addedMeanMs(), rtt.baseline().meanMs());
      return budget.fits(moved.timeMs()) ? null : moved;
    }
    Measurement smaller = null;
    for (Measurement m : done) {
      if (m.benchmark().equals(cell.suite()) && m.strategy().equals(cell.method())
          && m.rtt().equals(rtt.configured().toString()) && sizeOf(m) < cell.size()
          && sameOtherParams(m, cell) && (smaller == null || sizeOf(m) > sizeOf(smaller))) {
        smaller = m;
      }
    }
    if (smaller == null || smaller.timeMs() * cell.size() / sizeOf(smaller) <= 0
        || budget.fits(smaller.timeMs() * cell.size() / sizeOf(smaller))) {
      return null;
    }
    double factor = cell.size() / sizeOf(smaller);
    return new Measurement(cell.suite(), cell.method(), cell.params(), smaller.rtt(),
        smaller.rttMs(), smaller.addedRttMs(), smaller.baselineRttMs(),
        smaller.timeMs() * factor, Double.NaN, smaller.roundTripsPerOp() * factor,
        smaller.statementsPerOp() * factor, smaller.rowsPerSecond(), true,
        String.format(Locale.ROOT, "predicted: scaled x%.0f from %s (time, round trips and"
            + " statements grow with the size)", factor, smaller.series()));
  }

  private static boolean sameSeries(Measurement m, Cell cell) {
    return m.benchmark().equals(cell.suite()) && m.strategy().equals(cell.method())
        && m.params().equals(new TreeMap<>(cell.params()));
  }

  private static boolean sameOtherParams(Measurement m, Cell cell) {
    Map<String, String> a = new TreeMap<>(m.params());
    Map<String, String> b = new TreeMap<>(cell.params());
    a.keySet().removeAll(List.of("rows", "parents"));
    b.keySet().removeAll(List.of("rows", "parents"));
    return a.equals(b);
  }

  private static double sizeOf(Measurement m) {
    String size = m.params().getOrDefault("rows", m.params().get("parents"));
    return size == null ? 0 : Double.parseDouble(size);
  }

  private static Collection<RunResult> run(Cell cell, Rtt rtt, Profile profile, SharedLab shared,
      Path jmhLog) throws Exception {
    ChainedOptionsBuilder options = new OptionsBuilder()
        .include("^" + Pattern.quote(cell.className()) + "\\." + cell.method() + "$")
        .param("rtt", rtt.toString())
        .forks(profile.forks)
        .warmupIterations(profile.warmupIterations)
        .warmupTime(TimeValue.milliseconds(profile.warmupTime.toMillis()))
        .measurementIterations(profile.measurementIterations)
        .measurementTime(TimeValue.milliseconds(profile.measurementTime.toMillis()))
        .jvmArgsAppend(shared.jvmArgs().toArray(String[]::new))
        .shouldFailOnError(true);
    cell.params().forEach(options::param);
    Collection<RunResult> results;
    try (PrintStream log = new PrintStream(new FileOutputStream(jmhLog.toFile(), true), true,
        StandardCharsets.UTF_8)) {
      results = new Runner(options.build(),
          OutputFormatFactory.createFormatInstance(log, VerboseMode.NORMAL)).run();
    } catch (org.openjdk.jmh.runner.RunnerException e) {
      throw new IllegalStateException("JMH could not run " + cell + " at " + rtt + ": "
          + e.getMessage() + " (JMH's log: " + jmhLog + ")", e);
    }
    if (results.isEmpty()) {
      throw new IllegalStateException("JMH produced no result for " + cell + " at " + rtt
          + ": see " + jmhLog);
    }
    return results;
  }
}
