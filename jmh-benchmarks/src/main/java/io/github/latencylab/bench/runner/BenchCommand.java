package io.github.latencylab.bench.runner;

import io.github.latencylab.bench.support.MeasuredRtt;
import io.github.latencylab.bench.support.WireMetricsProfiler;
import io.github.latencylab.cli.HistoryCommand;
import io.github.latencylab.cli.LabOptions;
import io.github.latencylab.cli.Progress;
import io.github.latencylab.cli.RttConverter;
import io.github.latencylab.env.Lab;
import io.github.latencylab.env.LabConfig;
import io.github.latencylab.env.LabEnvironment;
import io.github.latencylab.env.LabHandle;
import io.github.latencylab.env.MachineLoad;
import io.github.latencylab.env.Setting;
import io.github.latencylab.gate.Baseline;
import io.github.latencylab.gate.BaselineComparison;
import io.github.latencylab.gate.StatementPlan;
import io.github.latencylab.history.History;
import io.github.latencylab.latency.Rtt;
import io.github.latencylab.report.Cell;
import io.github.latencylab.report.Format;
import io.github.latencylab.report.LatencyModel;
import io.github.latencylab.report.ReportWriter;
import io.github.latencylab.report.Results;
import io.github.latencylab.report.Series;
import io.github.latencylab.report.TimeSpread;
import io.github.latencylab.server.ServerSettings;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.function.Function;
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
 * JSON, latency-lab's results.json (every cell with its environment) and the report.
 *
 * <p>The forks attach to the runner's Lab through its {@link LabHandle} (a file only this user
 * can read, deleted after the run): no credential on a fork's command line. With
 * {@code --baseline}, a cell that fails on time alone is measured once more before the run
 * fails: a regression must reproduce; round trips and statements are never measured again.
 */
@Command(name = "bench", mixinStandardHelpOptions = true,
    description = {"Runs the JMH suites against one Lab, each RTT set and calibrated once.",
        "Cells that would take longer than the profile allows are predicted by the model"
            + " T(L) = T0 + round trips x L and marked so."})
public final class BenchCommand implements Callable<Integer> {

  @Option(names = "--include", paramLabel = "REGEX", defaultValue = ".*",
      description = "Suites or benchmarks to run, a regular expression (default: all), e.g."
          + " Insert, NPlusOne, InsertBenchmark.copy.*")
  String include;

  @Option(names = "--profile", paramLabel = "P", defaultValue = "quick",
      description = "quick (default: 0.5, 20, 320 ms, one size a suite, short iterations), full"
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
          + " profile's: quick 8, full 60, verify 6); given, every cell that fits it is measured,"
          + " not only the profile's witnesses")
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

  @Option(names = "--shard", paramLabel = "K/N",
      description = {"Run the K-th of N parts of the run, e.g. 1/4 to 4/4 on four machines,"
          + " then merge them: report --results a/results.json b/results.json ...",
          "Split by whole rows with their other sizes (every RTT of a row on one shard: its"
              + " model is fitted on one machine), balanced by an estimate made before anything"
              + " runs: each cell the profile's budget can measure costs its forks' start and its"
              + " iterations, a cell it predicts nothing; the costliest groups first, each to the"
              + " least loaded shard. The same options give every machine the same split:"
              + " disjoint shards whose union is the whole run."})
  String shard;

  @Option(names = "--shard-costs", paramLabel = "FILE",
      description = "Balance --shard by the times of an earlier run's results.json (e.g."
          + " docs/results/full/results.json): its measured cells cost their iterations at"
          + " their time, its predicted ones nothing; every shard must be given the same file")
  Path shardCosts;

  @Option(names = "--list",
      description = "Print the cells this run (or --shard) would run or predict, one key a line,"
          + " and exit: no Lab is started")
  boolean list;

  @Option(names = "--repeat", paramLabel = "N", defaultValue = "1",
      description = {"An A/A run: the whole plan N times over on one Lab, each repeat a full"
          + " pass (so that drift over time shows), each repeat's results in DIR/repeat-K/"
          + "results.json, and the noise in DIR/noise.json and noise.md: per cell the spread of"
          + " the time per operation, per row of the model's T0; a count that moves fails the"
          + " run (exit status 1): counts are not noise",
          "With --baseline FILE --update-baseline: the baseline is rewritten from the repeats,"
              + " each measured cell's time their median and its noise kept, by which the gate"
              + " judges its time (docs/reading-results.md)"})
  int repeats;

  @Option(names = "--history", paramLabel = "FILE",
      description = {"Append this run to a history after it finishes, passed or failed (the"
          + " commit from $GITHUB_SHA, $CI_COMMIT_SHA or git rev-parse HEAD): see"
          + " ./latency-lab history"})
  Path history;

  @Mixin
  LabOptions labOptions;

  // by cell key, the plans of the statements each measured cell ran (CellPlans)
  private final Map<String, Map<String, StatementPlan>> plans = new LinkedHashMap<>();

  @Override
  public Integer call() throws Exception {
    Profile profile = profile(profileName);
    if (repeats < 1 || repeats > 1 && baseline != null && !updateBaseline) {
      throw new IllegalArgumentException("Invalid --repeat " + repeats + ": expected 1 or more,"
          + " and with more than 1 a --baseline only to --update-baseline it (an A/A run measures"
          + " the noise, not a change; its baseline keeps each cell's noise for the time gate)");
    }
    if (skipUnavailable) {
      var reason = Lab.unavailableReason(labOptions.config());
      if (reason.isPresent()) {
        System.err.println("latency-lab: bench skipped on " + labOptions.config().backend()
            .label() + ": " + reason.get());
        return 0;
      }
    }
    Map<String, List<String>> overrides = new TreeMap<>();
    paramOverrides.forEach((k, v) -> overrides.put(k, List.of(v.split(","))));
    List<Planned> plan = plan(include, profile.excluded, profile.sizes, overrides,
        profile.iterations);
    if (plan.isEmpty()) {
      boolean leftOut = !profile.excluded.isEmpty()
          && !plan(include, List.of(), profile.sizes, overrides, profile.iterations).isEmpty();
      throw new IllegalArgumentException("No benchmark matches --include '" + include + "'"
          + (leftOut ? " in the " + profile.name().toLowerCase(Locale.ROOT) + " profile, which"
              + " leaves out " + String.join(", ", profile.excluded) + " (the other profiles"
              + " run it)" : ""));
    }
    List<Rtt> sweep = rtts != null ? new ArrayList<>(new TreeSet<>(rtts))
        : profile.rtts != null ? profile.rtts : declaredRtts(plan);
    Profile.Budget budget = budgetSeconds == null ? profile.cellBudget
        : profile.cellBudget.withLimit(Duration.ofSeconds(budgetSeconds));
    String shardLine = null;
    if (shard != null) {
      Shard part = Shard.parse(shard);
      if (updateBaseline) {
        throw new IllegalArgumentException("--update-baseline with --shard " + part + " would"
            + " write a baseline of this shard's cells only: rewrite it from a run without"
            + " --shard");
      }
      Map<String, Cell> earlier = new TreeMap<>();
      if (shardCosts != null) {
        JmhJson.read(shardCosts).cells().forEach(c -> earlier.put(c.key(), c));
      }
      shardLine = part.describe(plan, sweep, budget, earlier);
      plan = part.select(plan, sweep, budget, earlier);
    } else if (shardCosts != null) {
      throw new IllegalArgumentException("--shard-costs " + shardCosts + " balances shards:"
          + " add --shard K/N, or leave it out");
    }
    TimeLeft timeLeft = new TimeLeft(plan, sweep, budget);
    if (history != null && repeats > 1) {
      throw new IllegalArgumentException("--history with --repeat " + repeats + ": an A/A run"
          + " measures the noise of one commit; append its repeats with history append if"
          + " wanted");
    }
    // the commit is known before the run, or the run is not started for nothing
    String commit = history == null || list ? null
        : HistoryCommand.commit(null, System.getenv(), Path.of(""));
    if (list) {
      for (Planned p : plan) {
        for (Rtt rtt : sweep) {
          System.out.println(p.series().keyAt(rtt));
        }
      }
      System.err.println("latency-lab: " + plan.size() * sweep.size() + " cells, "
          + "up to " + timeLeft.plannedCells() + " measured (the rest predicted), an estimated "
          + TimeLeft.minutes(timeLeft.plannedMs()) + " of forks and iterations"
          + (shardLine == null ? "" : "; " + shardLine));
      return 0;
    }
    Files.createDirectories(out);
    Path jmhLog = out.resolve("jmh-output.txt");
    Files.deleteIfExists(jmhLog);
    System.err.printf("latency-lab: %d cells (%s profile, RTT %s%s); JMH's log: %s%n",
        plan.size() * sweep.size() * repeats, profile.name().toLowerCase(Locale.ROOT), sweep,
        shardLine == null ? "" : "; " + shardLine, jmhLog);
    Map<String, RunResult> raw = new LinkedHashMap<>();
    List<Cell> cells = new ArrayList<>();
    List<Results> passes = new ArrayList<>();
    Results all;
    BaselineComparison comparison;
    // every client's round trips counted at the relay, pgjdbc's checked against its socket
    LabConfig config = labOptions.config().with(Setting.RELAY, "true");
    List<String> hostArgs = hostJvmArgs(config);
    try (Lab lab = Lab.start(config); LabHandle handle = lab.handle();
        ForkClasses forkClasses = ForkClasses.inTemporaryDirectory();
        Progress progress = new Progress("bench",
            (long) plan.size() * sweep.size() * repeats)) {
      System.err.println("latency-lab: " + lab.describe());
      CellPlans cellPlans = CellPlans.of(lab);
      // created here, on a server the Lab owns, for the forks to read each cell's work
      lab.statementStatistics().unavailable()
          .ifPresent(why -> System.err.println("latency-lab: " + why));
      LabEnvironment environment = lab.environment();
      Optional<MachineLoad> load = lab.localServerPid().flatMap(pid -> MachineLoad.start(
          Set.of(pid)));
      // each repeat a whole pass, calibration included: what drifts over the run shows
      for (int repeat = 1; repeat <= repeats; repeat++) {
        cells = new ArrayList<>();
        String of = repeats == 1 ? "" : " (repeat " + repeat + "/" + repeats + ")";
        // the time left of this pass (a repeat's label says which)
        TimeLeft left = repeat == 1 ? timeLeft : new TimeLeft(plan, sweep, budget);
        long start = System.nanoTime();
        for (Rtt rtt : sweep) {
          progress.working("calibrating " + rtt + of);
          MeasuredRtt measured = MeasuredRtt.of(lab.measure(rtt));
          for (Planned p : plan) {
            progress.working(p + " @ " + rtt + of
                + left.describe((System.nanoTime() - start) / 1_000_000));
            Cell model = modelled(p, measured, cells); // once: it fits the model
            Cell predicted = predict(p, measured, model, fitted(p, cells), budget);
            if (predicted != null) {
              cells.add(predicted);
            } else {
              cellPlans.before();
              List<String> args = new ArrayList<>(forkArgs(hostArgs, measured, handle));
              args.addAll(forkClasses.args(p.series().suite()));
              Cell cell = measure(p.warmedFor(model), measured, args, jmhLog, lab.settings(),
                  budget, profile.precision, raw);
              cells.add(cell);
              plans.put(cell.key(), cellPlans.after(JmhResults.queryIds(raw.get(cell.key()))));
            }
            left.step(predicted == null);
            progress.step();
          }
        }
        passes.add(results(profile, environment, cells));
      }
      all = passes.get(passes.size() - 1);
      cellPlans.unread().ifPresent(why -> System.err.println("latency-lab: " + why));
      comparison = repeats > 1 ? null : compare(all, plan, sweep);
      double others = load.map(MachineLoad::othersCores).orElse(Double.NaN);
      String shared = shared(others, environment.cpus());
      if (Double.isFinite(others)) {
        System.out.println(String.format(Locale.ROOT, "latency-lab: other processes kept %.1f"
            + " of %d CPUs busy during the run%s", others, environment.cpus(),
            comparison == null ? "" : shared != null ? ": times are reported, not judged"
            : ": times are judged"));
      }
      if (comparison != null && shared != null) {
        comparison = comparison.withTimeApart(shared);
      }
      if (comparison != null && !comparison.failedOnTimeOnly().isEmpty()) {
        Map<String, String> firsts = measureAgain(comparison.failedOnTimeOnly(), plan, cells,
            raw, lab, measured -> forkArgs(hostArgs, measured, handle), jmhLog);
        all = results(profile, environment, cells);
        comparison = compare(all, plan, sweep);
        for (Map.Entry<String, String> first : firsts.entrySet()) {
          comparison = comparison.withInfo(first.getKey(), "measured again after failing on"
              + " time alone; the first measurement, not kept: " + first.getValue());
        }
      }
    }
    if (repeats > 1) {
      return noise(passes);
    }
    ResultFormatFactory.getInstance(ResultFormatType.JSON, out.resolve("jmh-results.json")
        .toString()).writeOut(raw.values());
    ReportWriter.write(all, out, comparison);
    Baseline.writePlans(out.resolve("plans.json"), plans);
    if (history != null) {
      History.Run run = new History.Run(commit, HistoryCommand.ref(System.getenv()),
          comparison == null ? null : comparison.passed(), all);
      History.append(history, run);
      System.err.println("latency-lab: appended run " + run.shortCommit() + " to " + history
          + (run.failed() ? " (flagged: its gate failed)" : ""));
    }
    System.out.println();
    System.out.print(ReportWriter.consoleTable(all));
    System.out.println("report: " + out.resolve("report.html") + " (also report.md, results.json,"
        + " plans.json, charts/, jmh-results.json)");
    if (comparison == null) {
      return 0;
    }
    System.out.println(comparison.report());
    if (!comparison.passed()) {
      System.out.println("latency-lab: the change made the numbers worse (above). If it is"
          + " intended, rewrite the baseline with its noise (./latency-lab bench --profile verify"
          + " --repeat 4 --baseline src/latency-baseline.json --update-baseline; or one run:"
          + " -Dlatencylab.updateBaseline=true) and commit it.");
      return 1;
    }
    return 0;
  }

  /**
   * Writes each repeat's results.json (readable by {@code report --results}) and the noise of
   * them all; 1 when a count moved, which no machine's noise explains.
   */
  private int noise(List<Results> passes) throws IOException {
    List<Path> runs = new ArrayList<>();
    for (int r = 0; r < passes.size(); r++) {
      Path run = Path.of("repeat-" + (r + 1), "results.json");
      Files.createDirectories(out.resolve(run).getParent());
      passes.get(r).write(out.resolve(run));
      runs.add(run);
    }
    Noise noise = Noise.of(passes);
    noise.write(out, runs, passes.get(0));
    System.out.println();
    System.out.print(noise.markdown().lines().limit(6).collect(
        java.util.stream.Collectors.joining("\n", "", "\n")));
    System.out.println("noise: " + out.resolve("noise.md") + " (also noise.json, repeat-*/"
        + "results.json)");
    if (!noise.moved.isEmpty()) {
      System.err.println("latency-lab: COUNTS MOVED across repeats of the same code (round"
          + " trips and statements are counted, not timed: find out why):");
      noise.moved.forEach(m -> System.err.println("  " + m));
      return 1;
    }
    if (baseline != null && updateBaseline) {
      Baseline written = Baseline.update(passes, baseline).withPlans(plans);
      written.write(baseline);
      System.out.println("latency-lab: baseline rewritten from " + passes.size() + " repeats, "
          + written.noise().size() + " cells with their noise: " + baseline
          + " (review and commit it)");
    }
    return 0;
  }

  private Results results(Profile profile, LabEnvironment environment, List<Cell> cells) {
    return new Results("bench", Instant.now().toString(),
        profile.name().toLowerCase(Locale.ROOT), environment, cells);
  }

  /**
   * Measures the cells that failed on time alone once more, each at its RTT, and puts the new
   * measurement in place of the first: on a shared machine a cell can take three times as long
   * once, and a regression shows again. Returns the first times by cell key.
   */
  private static Map<String, String> measureAgain(Set<String> keys, List<Planned> plan, List<Cell> cells,
      Map<String, RunResult> raw, Lab lab, Function<MeasuredRtt, List<String>> forkArgs,
      Path jmhLog) throws Exception {
    System.out.println("latency-lab: " + keys.size() + " cell" + (keys.size() == 1 ? "" : "s")
        + " failed on time alone; measuring " + (keys.size() == 1 ? "it" : "them")
        + " once more (a regression must reproduce):");
    Map<String, String> firsts = new TreeMap<>();
    Map<Rtt, List<Integer>> byRtt = new TreeMap<>();
    for (int i = 0; i < cells.size(); i++) {
      if (keys.contains(cells.get(i).key())) {
        byRtt.computeIfAbsent(cells.get(i).rtt(), k -> new ArrayList<>()).add(i);
      }
    }
    for (Map.Entry<Rtt, List<Integer>> at : byRtt.entrySet()) {
      MeasuredRtt measured = MeasuredRtt.of(lab.measure(at.getKey()));
      for (int i : at.getValue()) {
        Cell first = cells.get(i);
        Planned p = plan.stream().filter(x -> x.series().equals(first.series())).findFirst()
            .orElseThrow();
        Cell again = measure(p.warmedFor(first), measured, forkArgs.apply(measured), jmhLog,
            lab.settings(), null, null, raw);
        cells.set(i, again);
        System.out.println("  " + first.key() + ": " + Format.duration(first.timeMs())
            + ", again " + Format.duration(again.timeMs()));
        firsts.put(first.key(), Format.duration(first.timeMs()));
      }
    }
    return firsts;
  }

  /** The comparison with --baseline, or null (none asked for, or the baseline rewritten). */
  private BaselineComparison compare(Results all, List<Planned> plan, List<Rtt> sweep)
      throws IOException {
    if (baseline == null) {
      return null;
    }
    if (updateBaseline) {
      Baseline.update(all, plans, Map.of(), baseline);
      System.out.println("latency-lab: baseline rewritten: " + baseline + " (review and commit it)");
      return null;
    }
    if (!Files.exists(baseline)) {
      throw new IllegalStateException("No baseline at " + baseline + ": create it on purpose"
          + " with -Dlatencylab.updateBaseline=true (./mvnw verify) or --update-baseline");
    }
    // a run of part of the suites (--include, --rtt) is compared on what it ran
    Set<String> planned = new HashSet<>();
    for (Planned p : plan) {
      for (Rtt rtt : sweep) {
        planned.add(p.series().keyAt(rtt));
      }
    }
    return BaselineComparison.compare(Baseline.read(baseline).only(planned), all, true, plans,
        Map.of());
  }

  /** Other processes' average load from which a run's times are not judged: half a core. */
  static final double SHARED_CORES = 0.5;

  /**
   * "other processes kept 1.7 of 2 CPUs busy during the run" where they kept at least {@link
   * #SHARED_CORES} busy: time then says more about them than about the code. Else null.
   */
  static String shared(double othersCores, int cpus) {
    return othersCores >= SHARED_CORES ? String.format(Locale.ROOT, "other processes kept %.1f"
        + " of %d CPUs busy during the run", othersCores, cpus) : null;
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

  /**
   * One benchmark method with one value for each of its parameters but the RTT, and its
   * iterations.
   */
  record Planned(String benchmark, Series series, Iterations iterations, List<Rtt> rtts) {
    /** With the warm-up an operation estimated at {@code model}'s time needs (or as is). */
    Planned warmedFor(Cell model) {
      return model == null ? this
          : new Planned(benchmark, series, iterations.warmedFor(model.timeMs()), rtts);
    }

    @Override
    public String toString() {
      return series.key();
    }
  }

  /** {@link #plan(String, Map, Map, Iterations)} with a profile's sizes and no overrides. */
  static List<Planned> plan(String include, Map<String, List<String>> sizes,
      Iterations iterations) {
    return plan(include, sizes, Map.of(), iterations);
  }

  /**
   * Every cell the matching benchmarks declare, and {@code iterations} instead of theirs unless
   * null. A profile's {@code sizes} narrow a parameter to those of its values the suite
   * declares (verify's clients are a few of each workload's), or, where it declares none of
   * them, replace it; a size keyed {@code Suite.param} is that suite's, before one keyed
   * {@code param}. {@code overrides} (--param) replace it.
   */
  static List<Planned> plan(String include, Map<String, List<String>> sizes,
      Map<String, List<String>> overrides, Iterations iterations) {
    return plan(include, List.of(), sizes, overrides, iterations);
  }

  /**
   * What latency-lab itself costs a test suite ({@code bench.suite}): JUnit runs, not a
   * latency's cells, never planned here; JMH runs them (each says how).
   */
  static final String NOT_CELLS = "\\.bench\\.suite\\.";

  /** As {@link #plan(String, Map, Map, Iterations)}, without the benchmarks {@code excluded}. */
  static List<Planned> plan(String include, List<String> excluded,
      Map<String, List<String>> sizes, Map<String, List<String>> overrides,
      Iterations iterations) {
    List<Planned> plan = new ArrayList<>();
    List<String> left = new ArrayList<>(excluded);
    left.add(NOT_CELLS);
    var entries = BenchmarkList.defaultList().find(
        OutputFormatFactory.createFormatInstance(System.err, VerboseMode.SILENT),
        List.of(include), left);
    for (BenchmarkListEntry entry : entries) {
      String fqn = entry.getUsername();
      String className = fqn.substring(0, fqn.lastIndexOf('.'));
      Map<String, String[]> declared = new TreeMap<>(entry.getParams().orElse(Map.of()));
      List<Rtt> rtts = Rtt.parseList(String.join(",", declared.getOrDefault("rtt",
          new String[] {"0ms"})));
      declared.remove("rtt");
      String suite = className.substring(className.lastIndexOf('.') + 1);
      declared.replaceAll((k, v) -> {
        List<String> profile = sizes.getOrDefault(suite + "." + k, sizes.get(k));
        return overrides.containsKey(k) ? overrides.get(k).toArray(String[]::new)
            : profile != null ? narrowed(v, profile) : v;
      });
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
      Iterations its = iterations != null ? iterations : Iterations.declared(entry);
      String method = fqn.substring(fqn.lastIndexOf('.') + 1);
      combos.forEach(c -> plan.add(new Planned(fqn, Series.of(suite, method, c), its, rtts)));
    }
    return plan;
  }

  /** The RTTs the planned suites declare, lowest first: the full sweep. */
  static List<Rtt> declaredRtts(List<Planned> plan) {
    TreeSet<Rtt> rtts = new TreeSet<>();
    plan.forEach(p -> rtts.addAll(p.rtts()));
    return new ArrayList<>(rtts);
  }

  /**
   * The model's value when measuring the cell would take longer than the profile allows, or
   * the profile measures its series at one RTT only: fitted on the series' measured cells (at
   * lower RTTs), or else scaled from a smaller size at this RTT.
   */
  static Cell predict(Planned p, MeasuredRtt rtt, List<Cell> done, Profile.Budget budget) {
    return predict(p, rtt, modelled(p, rtt, done), fitted(p, done), budget);
  }

  // the model's cell where the budget does not measure p ({@code fitted}: on lower RTTs)
  private static Cell predict(Planned p, MeasuredRtt rtt, Cell model, boolean fitted,
      Profile.Budget budget) {
    if (model == null) {
      return null;
    }
    Planned warmed = p.warmedFor(model);
    boolean measure = fitted
        ? budget.measuresAgain(p) && budget.fits(warmed, rtt.rtt(), model.timeMs())
        : model.timeMs() <= 0 || budget.fits(warmed, rtt.rtt(), model.timeMs());
    return measure ? null : model;
  }

  /**
   * The model's cell: fitted on the series' measured cells (at lower RTTs), or else scaled from
   * a smaller size at this RTT; null where it has neither.
   */
  static Cell modelled(Planned p, MeasuredRtt rtt, List<Cell> done) {
    List<Cell> measured = measuredOf(p, done);
    if (!measured.isEmpty()) {
      return LatencyModel.fit(measured).predict(rtt.rtt(), rtt.addedMs(), rtt.baselineMs());
    }
    double size = p.series().size().orElse(0);
    Cell smaller = null;
    for (Cell c : done) {
      double s = c.series().size().orElse(0);
      if (c.rtt().equals(rtt.rtt()) && c.series().sameButSize(p.series()) && s > 0 && s < size
          && (smaller == null || s > smaller.series().size().orElse(0))) {
        smaller = c;
      }
    }
    return smaller == null ? null : LatencyModel.scale(smaller, p.series());
  }

  private static boolean fitted(Planned p, List<Cell> done) {
    return !measuredOf(p, done).isEmpty();
  }

  private static List<Cell> measuredOf(Planned p, List<Cell> done) {
    return done.stream()
        .filter(c -> !c.predicted() && c.series().equals(p.series()) && LatencyModel.canUse(c))
        .toList();
  }

  /**
   * This JVM's arguments, which JMH gives every fork unless told otherwise, without the
   * database password: a fork's command line is visible to every user of the machine, and
   * JMH writes it into its results. The forks get the credentials from the Lab's handle.
   */
  static List<String> hostJvmArgs(LabConfig config) {
    String password = config.get(Setting.JDBC_PASSWORD);
    return ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
        .filter(a -> !a.startsWith("-D" + Setting.JDBC_PASSWORD.property() + "="))
        .filter(a -> password.isEmpty() || !a.contains(password))
        .toList();
  }

  /**
   * A fork's JVM arguments: this JVM's (less the password), the RTT, the Lab's handle, and the
   * counting relay ({@link Setting#RELAY}) in front of the proxy in the fork too.
   */
  static List<String> forkArgs(List<String> hostArgs, MeasuredRtt rtt, LabHandle handle) {
    List<String> args = new ArrayList<>(hostArgs);
    args.addAll(rtt.jvmArgs());
    args.add(handle.jvmArg());
    args.add("-D" + Setting.RELAY.property() + "=true");
    return args;
  }

  private static String[] narrowed(String[] declared, List<String> profile) {
    String[] both = Arrays.stream(declared).filter(profile::contains).toArray(String[]::new);
    return both.length > 0 ? both : profile.toArray(String[]::new);
  }

  /** A suite's {@code clients} parameter is the number of JMH threads (TPC-B's clients). */
  static int threads(Series series) {
    String clients = series.params().get("clients");
    return clients == null ? 1 : Integer.parseInt(clients);
  }

  /**
   * Measures one cell, and keeps JMH's result in {@code raw}. With a {@code precision}, a cell
   * whose interval is wider than it asks is measured again in another fork with the iterations
   * it lacks, its forks pooled, while {@code budget} allows; the cell's spread says whether it
   * got there and, if not, why.
   */
  private static Cell measure(Planned p, MeasuredRtt rtt, List<String> forkArgs, Path jmhLog,
      ServerSettings settings, Profile.Budget budget, Precision precision,
      Map<String, RunResult> raw) throws Exception {
    long start = System.nanoTime();
    RunResult result = run(p, rtt, forkArgs, jmhLog, settings);
    Cell cell = JmhResults.toCell(result, rtt);
    boolean budgetSpent = false;
    for (int round = 0; precision != null && round < precision.rounds()
        && !(cell.timeErrorMs() / cell.timeMs() <= precision.widest()); round++) {
      int wanted = precision.more(JmhResults.samples(result).length,
          cell.timeErrorMs() / cell.timeMs());
      int fits = Precision.fitting(wanted, p.iterations(), cell.timeMs(), budget.limit(),
          Duration.ofNanos(System.nanoTime() - start));
      budgetSpent = fits < wanted;
      if (fits < 2) {
        break;
      }
      Planned more = new Planned(p.benchmark(), p.series(),
          p.warmedFor(cell).iterations().withMeasurements(fits), p.rtts());
      result = JmhResults.pooled(result, run(more, rtt, forkArgs, jmhLog, settings));
      cell = JmhResults.toCell(result, rtt);
    }
    raw.put(cell.key(), result);
    return cell.withSpread(TimeSpread.of(JmhResults.samples(result), cell.timeMs(),
        cell.timeErrorMs(), precision == null ? 0 : precision.widest(), budgetSpent));
  }

  /**
   * Runs one cell. A fork that dies before its teardown leaves the settings it changed on the
   * server (TPC-B sets synchronous_commit): they are put back after the cell, whatever happened.
   */
  private static RunResult run(Planned p, MeasuredRtt rtt, List<String> forkArgs, Path jmhLog,
      ServerSettings settings) throws Exception {
    Map<String, String> mark = settings.autoConf();
    try {
      return run(p, rtt, forkArgs, jmhLog);
    } finally {
      List<String> restored = settings.restoreAutoConf(mark);
      if (!restored.isEmpty()) {
        System.err.println("latency-lab: " + p + " at " + rtt.rtt() + " left " + restored
            + " changed on the server; restored");
      }
    }
  }

  private static RunResult run(Planned p, MeasuredRtt rtt, List<String> forkArgs, Path jmhLog)
      throws Exception {
    ChainedOptionsBuilder options = new OptionsBuilder()
        .include("^" + Pattern.quote(p.benchmark()) + "$")
        .param("rtt", rtt.rtt().toString())
        .jvmArgs(forkArgs.toArray(String[]::new))
        .threads(threads(p.series()))
        .addProfiler(WireMetricsProfiler.class) // round trips, statements, ... per operation
        .shouldFailOnError(true);
    p.iterations().applyTo(options);
    p.series().params().forEach(options::param);
    Collection<RunResult> results = null;
    boolean waitSaid = false;
    while (results == null) {
      try (PrintStream log = new PrintStream(new FileOutputStream(jmhLog.toFile(), true), true,
          StandardCharsets.UTF_8)) {
        results = new Runner(options.build(),
            OutputFormatFactory.createFormatInstance(log, VerboseMode.NORMAL)).run();
      } catch (org.openjdk.jmh.runner.RunnerException e) {
        if (!String.valueOf(e.getMessage()).contains(JMH_LOCK_TAKEN)) {
          throw new IllegalStateException("JMH could not run " + p + " at " + rtt.rtt() + ": "
              + e.getMessage() + " (JMH's log: " + jmhLog + ")", e);
        }
        // one benchmark at a time on a machine: wait for the other run, never ignore the lock
        if (!waitSaid) {
          System.err.println("latency-lab: another JMH run holds its lock; waiting for it...");
          waitSaid = true;
        }
        Thread.sleep(LOCK_RETRY.toMillis());
      }
    }
    if (results.size() != 1) {
      throw new IllegalStateException("JMH produced " + results.size() + " results for " + p
          + " at " + rtt.rtt() + ", expected one: see " + jmhLog);
    }
    return results.iterator().next();
  }

  /** What JMH says when another JMH run on the machine holds its lock. */
  private static final String JMH_LOCK_TAKEN = "Unable to acquire the JMH lock";
  private static final Duration LOCK_RETRY = Duration.ofSeconds(2);
}
