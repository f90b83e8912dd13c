package io.github.latencylab.junit;

import io.github.latencylab.env.LabEnvironment;
import io.github.latencylab.env.watch.ServerWork;
import io.github.latencylab.gate.Baseline;
import io.github.latencylab.gate.BaselineComparison;
import io.github.latencylab.gate.StatementPlan;
import io.github.latencylab.latency.Rtt;
import io.github.latencylab.report.Cell;
import io.github.latencylab.report.Format;
import io.github.latencylab.report.LatencyModel;
import io.github.latencylab.report.ReportWriter;
import io.github.latencylab.report.Results;
import io.github.latencylab.report.Series;
import io.github.latencylab.server.StatementStatistics;
import io.github.latencylab.wire.CallSites;
import io.github.latencylab.wire.SqlShape;
import io.github.latencylab.wire.WireStatement;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * The users' latency report ({@code latencylab.report=true}): every test run under the extension
 * is a {@link Series} (its class and method) measured at the Lab's added RTT and priced by the
 * {@link LatencyModel} at 0.5, 20 and 320 ms. When the run ends (the root store closes it),
 * {@link ReportWriter} writes results.json, report.md and report.html with charts; each test is
 * checked against the committed {@link Baseline} as it finishes (round trips and statements
 * exact, {@link BaselineComparison}), or, with {@code latencylab.updateBaseline=true}, the
 * baseline is rewritten.
 *
 * <p>The baseline keeps counts only: a unit test's time is not a benchmark, so it is reported,
 * never gated.
 */
final class LatencyReport implements AutoCloseable {

  static final String KIND = "tests";

  private final Path dir;
  private final Path baselineFile;
  private final Path findingsFile;
  private final boolean update;
  private final boolean audit;
  private final Baseline baseline;
  // each test's entry of the baseline, split once: a test compares with its own
  private final Map<String, Baseline> baselineByKey;
  private final Baseline baselineOfNone;
  private final FindingsBaseline findingsBaseline;
  private final Map<String, Recorded> tests = new LinkedHashMap<>();
  // what this JVM's runs wrote into a directory so far: surefire's forks run each test class as
  // a run of its own, each closing its report, and each write must hold them all
  private static final Map<Path, Written> WRITTEN = new java.util.concurrent.ConcurrentHashMap<>();
  private final TestsBefore testsBefore = new TestsBefore();
  // audited tests the Lab counted nothing of, by key: why
  private final Map<String, String> notAudited = new LinkedHashMap<>();
  private final Map<String, String> regressions = new LinkedHashMap<>();
  private volatile LabEnvironment environment;

  /**
   * One test's measurement, and what ran before it in this run ({@link TestsBefore}): the
   * allocations a test shows depend on it.
   */
  record Recorded(Series series, BlockCost cost, String after,
      List<Findings.Occurrence> findings) {

    // after is null until asked: with no baseline of the test to compare with, it is written
    // when the run ends
    Recorded withAfter(String ranAfter) {
      return new Recorded(series, cost, ranAfter, findings);
    }
  }

  /**
   * "after 12 tests (3f2a9c1b)": the tests recorded before one, in order, as a short digest (of
   * their keys joined by newlines, one key added at a time: a suite of thousands would hash
   * every key again for each test). A JVM's first use of a framework's code allocates for its
   * lazy set-up: a test's allocations are compared as failures only after the same tests as
   * when the baseline was taken.
   */
  static final class TestsBefore {
    private final java.security.MessageDigest digest = sha256();
    private final List<String> keys = new ArrayList<>();
    private int hashed; // the first keys the digest holds
    // after(n) as asked so far, by n: hashed when asked (a baseline compares a test's, the
    // report writes all when the run ends), not for every test, where a fresh JVM's first
    // tests would run SHA-256 interpreted
    private final List<String> afters = new ArrayList<>();

    void add(String key) {
      keys.add(key);
    }

    String after(int tests) {
      while (afters.size() <= tests) {
        int n = afters.size();
        for (; hashed < n; hashed++) {
          if (hashed > 0) {
            digest.update((byte) '\n');
          }
          digest.update(keys.get(hashed).getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }
        try {
          byte[] d = ((java.security.MessageDigest) digest.clone()).digest();
          afters.add("after " + n + " test" + (n == 1 ? "" : "s") + " ("
              + java.util.HexFormat.of().formatHex(d, 0, 4) + ")");
        } catch (CloneNotSupportedException e) {
          throw new IllegalStateException("this JVM's SHA-256 cannot be copied", e);
        }
      }
      return afters.get(tests);
    }

    private static java.security.MessageDigest sha256() {
      try {
        return java.security.MessageDigest.getInstance("SHA-256");
      } catch (java.security.NoSuchAlgorithmException e) {
        throw new IllegalStateException("SHA-256 is missing from this JVM", e);
      }
    }
  }

  LatencyReport(Path dir, Path baselineFile, boolean update) {
    this(dir, baselineFile, null, update, false);
  }

  /**
   * The report into {@code dir}, compared with {@code baselineFile} (null: counts not gated, an
   * audit without latencylab.report) and {@code findingsFile} (null: no ratchet), or rewriting
   * both ({@code update}); {@code audit}: the run is audited.
   */
  LatencyReport(Path dir, Path baselineFile, Path findingsFile, boolean update, boolean audit) {
    this.dir = dir;
    this.baselineFile = baselineFile;
    this.findingsFile = findingsFile;
    this.update = update;
    this.audit = audit;
    this.findingsBaseline = update || findingsFile == null ? null
        : FindingsBaseline.read(findingsFile);
    this.baseline = !update && baselineFile != null && Files.isRegularFile(baselineFile)
        ? Baseline.read(baselineFile) : null;
    if (baseline != null && baseline.format() < 2) {
      throw new IllegalStateException("The baseline " + baselineFile + " keys tests by their"
          + " simple class names (format " + baseline.format() + ", latency-lab 0.1.0), so two"
          + " classes of one name would share a row: rewrite it with"
          + " -Dlatencylab.updateBaseline=true, review it, commit it");
    }
    this.baselineByKey = baseline == null ? Map.of() : baseline.onlyByKey();
    this.baselineOfNone = baseline == null ? null : baseline.only(Set.of());
  }

  /** True when the run is audited ({@code latencylab.audit=true}). */
  boolean audits() {
    return audit;
  }

  /**
   * True when each test's server work and plans are read: with {@code latencylab.report=true},
   * whose baseline gates them; an audit alone reads the wire only, its findings' whole source.
   */
  boolean readsWork() {
    return baselineFile != null;
  }

  /** An audited test the Lab counted nothing of, and why: listed, not a row. */
  void notAudited(Series series, String why) {
    synchronized (tests) {
      notAudited.put(series.key(), why);
    }
  }

  /**
   * What recording a test found against what was committed: its regression against the
   * baseline as one line, and its findings the committed ones ({@code latencylab.findings}) do
   * not allow, one line each; each null when there is none, or nothing is compared.
   */
  record Verdict(String regression, String findings) {
  }

  /**
   * Records a test, and compares it with the baseline and the committed findings; {@code env}
   * is read once a report.
   */
  Verdict record(Series series, BlockCost cost, Supplier<LabEnvironment> env) {
    List<Findings.Occurrence> findings = Findings.in(cost.countedStatements());
    String regression = recordCounts(series, cost, env, findings);
    List<String> lines = findingsBaseline == null ? List.of()
        : findingsBaseline.violations(findings);
    return new Verdict(regression, lines.isEmpty() ? null : String.join("\n", lines));
  }

  // the test's row, and its regression against the baseline as one line (null: none)
  private String recordCounts(Series series, BlockCost cost, Supplier<LabEnvironment> env,
      List<Findings.Occurrence> findings) {
    if (environment == null) {
      environment = env.get();
    }
    Cell cell = countsOnly(cost.cell(series));
    Baseline baselined = baseline == null ? null
        : baselineByKey.getOrDefault(cell.key(), baselineOfNone);
    String after;
    synchronized (tests) {
      after = baselined != null && baselined.after().containsKey(cell.key())
          ? testsBefore.after(tests.size()) : null;
      if (tests.putIfAbsent(cell.key(), new Recorded(series, cost, after, findings)) != null) {
        throw new IllegalStateException("Two tests of this run have one key, " + cell.key()
            + ": the report keeps one row per test, so the second is refused (a test run"
            + " twice in one JVM is one too: surefire's rerunFailingTestsCount with the report"
            + " on)");
      }
      testsBefore.add(cell.key());
    }
    if (baseline == null) {
      return null;
    }
    BaselineComparison c = BaselineComparison.compare(baselined, results(List.of(cell)), false,
        Map.of(cell.key(), cost.plans()), after == null ? Map.of() : Map.of(cell.key(), after));
    synchronized (tests) {
      regressions.remove(cell.key());
    }
    if (c.passed()) {
      return null;
    }
    String line = cell.key() + ": " + c.failures().stream()
        .map(BaselineComparison.Finding::message).collect(Collectors.joining("; "))
        + "; the statements now, by call site: " + byCallSite(cost.countedStatements());
    synchronized (tests) {
      regressions.put(cell.key(), line);
    }
    return line;
  }

  /** "100 x `select ... where author_id=?` from `X`, 1 x ...": the three biggest groups. */
  static String byCallSite(List<WireStatement> statements) {
    Map<String, Long> groups = new LinkedHashMap<>();
    for (WireStatement s : statements) {
      String shape = SqlShape.of(s.sql());
      if (!SqlShape.isTransactionControl(shape)) {
        groups.merge("`" + SqlShape.brief(shape) + "`" + (s.callSite() == null ? ""
            : " from `" + s.callSite() + "`"), 1L, Long::sum);
      }
    }
    if (groups.isEmpty()) {
      return "(only transaction control)";
    }
    return groups.entrySet().stream()
        .sorted(Map.Entry.<String, Long>comparingByValue().reversed()).limit(3)
        .map(e -> Format.count(e.getValue()) + " x " + e.getKey())
        .collect(Collectors.joining(", "))
        + (groups.size() > 3 ? " and " + (groups.size() - 3) + " more" : "");
  }

  /** The cell without an added RTT: a test runs at the Lab's setting, nobody measured it. */
  private static Cell unmeasuredRtt(Cell c) {
    return new Cell(c.series(), c.rtt(), Double.NaN, c.baselineRttMs(), c.timeMs(),
        c.timeErrorMs(), c.roundTripsPerOp(), c.statementsPerOp(), c.rowsPerSecond(),
        c.server(), c.prediction(), c.windowRoundTripsPerOp(), null);
  }

  private static Cell countsOnly(Cell c) {
    return new Cell(c.series(), c.rtt(), c.addedRttMs(), c.baselineRttMs(), Double.NaN,
        Double.NaN, c.roundTripsPerOp(), c.statementsPerOp(), Double.NaN, c.server(), null, 0,
        null);
  }

  private Results results(List<Cell> cells) {
    return new Results(KIND, Instant.now().toString(), null, environment, cells);
  }

  /**
   * What a report holds: its tests' records, the tests not audited (by why) and the
   * regressions, by test key.
   */
  private record Written(Map<String, Recorded> tests, Map<String, String> notAudited,
      Map<String, String> regressions) {
    static final Written NONE = new Written(Map.of(), Map.of(), Map.of());

    /**
     * This, with {@code later}'s tests instead of any of the same test: a recorded test is
     * keyed by its cell ("X.m @ 0ms"), a test not audited by its series ("X.m").
     */
    Written and(Written later) {
      Map<String, Recorded> t = new LinkedHashMap<>(tests);
      Map<String, String> n = new LinkedHashMap<>(notAudited);
      Map<String, String> r = new LinkedHashMap<>(regressions);
      later.tests().forEach((cell, recorded) -> {
        n.remove(recorded.series().key());
        r.remove(cell);
      });
      t.entrySet().removeIf(e -> {
        boolean notAuditedNow = later.notAudited().containsKey(e.getValue().series().key());
        if (notAuditedNow) {
          r.remove(e.getKey());
        }
        return notAuditedNow;
      });
      t.putAll(later.tests());
      n.putAll(later.notAudited());
      r.putAll(later.regressions());
      return new Written(t, n, r);
    }
  }

  /**
   * Writes the report (and the baseline, when updating) with every test this JVM recorded into
   * its directory so far; called when the test run ends.
   */
  @Override
  public void close() throws IOException {
    Written mine;
    synchronized (tests) {
      Map<String, Recorded> recorded = new LinkedHashMap<>();
      tests.forEach((key, r) -> recorded.put(key, r.after() != null ? r
          : r.withAfter(testsBefore.after(recorded.size()))));
      mine = new Written(recorded, new LinkedHashMap<>(notAudited),
          new LinkedHashMap<>(regressions));
    }
    if (mine.tests().isEmpty() && mine.notAudited().isEmpty()) {
      return;
    }
    Path into = dir;
    try {
      into = ownDirectory();
    } catch (IOException e) {
      throw new UncheckedIOException("Could not write the latency report into " + into, e);
    }
    Path key = into.toAbsolutePath().normalize();
    Written written = WRITTEN.getOrDefault(key, Written.NONE).and(mine);
    WRITTEN.put(key, written);
    List<Recorded> all = new ArrayList<>(written.tests().values());
    List<String> regressed = new ArrayList<>(written.regressions().values());
    Map<String, String> unaudited = written.notAudited();
    List<Cell> cells = new ArrayList<>();
    List<Cell> counts = new ArrayList<>();
    Map<String, Map<String, StatementPlan>> plans = new LinkedHashMap<>();
    Map<String, String> after = new LinkedHashMap<>();
    StringBuilder details = new StringBuilder();
    for (Recorded r : all) {
      Cell measured = r.cost().cell(r.series());
      plans.put(measured.key(), r.cost().plans());
      after.put(measured.key(), r.after());
      cells.add(unmeasuredRtt(measured));
      counts.add(countsOnly(measured));
      LatencyModel model = LatencyModel.fit(List.of(measured));
      for (Rtt at : BlockCost.PRICED_AT) {
        cells.add(unmeasuredRtt(model.predict(at, at.millis(), Double.NaN)));
      }
      details.append(r.series().key()).append(": ").append(r.cost().countsLine())
          .append("\n  priced ").append(r.cost().pricedLine(model)).append('\n')
          .append("  ").append(r.cost().workLines());
      String repeated = Repeats.section(r.cost().countedStatements());
      if (!repeated.isEmpty()) {
        details.append(repeated.lines().map(l -> "  " + l)
            .collect(Collectors.joining("\n", "", "\n")));
      }
      String overhead = r.cost().overheadLine();
      if (!overhead.isEmpty()) {
        details.append("  ").append(overhead);
      }
    }
    BaselineComparison comparison = null;
    if (update && baselineFile != null) {
      Baseline before = Files.isRegularFile(baselineFile) ? Baseline.read(baselineFile) : null;
      // format 1's keys are simple names: dropped
      boolean keep = before != null && before.format() >= 2;
      Map<String, Map<String, StatementPlan>> mergedPlans = new LinkedHashMap<>();
      Map<String, String> mergedAfter = new LinkedHashMap<>();
      if (keep) {
        mergedPlans.putAll(before.plans());
        mergedAfter.putAll(before.after());
      }
      mergedPlans.putAll(plans);
      mergedAfter.putAll(after);
      Baseline.update(mergedWithBaseline(keep ? before : null, counts), mergedPlans,
          mergedAfter, baselineFile);
    } else if (baseline != null) {
      Set<String> run = counts.stream().map(Cell::key).collect(Collectors.toSet());
      comparison = BaselineComparison.compare(baseline.only(run), results(counts), false,
          plans, after);
    }
    List<ReportWriter.Section> sections = new ArrayList<>();
    Map<String, List<Findings.Occurrence>> occurrences = new LinkedHashMap<>();
    long roundTrips = 0;
    for (Recorded r : all) {
      occurrences.put(r.series().key(), r.findings());
      roundTrips += r.cost().counted().roundTrips();
    }
    List<Findings.Finding> findings = Findings.across(occurrences);
    sections.add(new ReportWriter.Section("Findings: N+1s and row-by-row writes, by the round"
        + " trips a fix would save", Findings.section(findings, roundTrips, all.size())
        + ratchetLine(), true));
    Map<String, List<WireStatement>> counted = new LinkedHashMap<>();
    all.forEach(r -> counted.put(r.series().key(), r.cost().countedStatements()));
    String endpoints = Findings.endpoints(counted, occurrences);
    if (!endpoints.isEmpty()) {
      sections.add(new ReportWriter.Section("Endpoints: round trips per HTTP route the tests"
          + " drove", endpoints, true));
    }
    if (!unaudited.isEmpty()) {
      sections.add(new ReportWriter.Section("Not audited: " + RoundTrips.plural(
          unaudited.size(), "test") + " sent no SQL the Lab counted", notAuditedSection(
              unaudited), true));
    }
    if (!regressed.isEmpty()) {
      sections.add(new ReportWriter.Section("Regressions against the baseline",
          String.join("\n", regressed) + "\n"));
    }
    if (!update && baseline == null && baselineFile != null) {
      sections.add(new ReportWriter.Section("Baseline", "No baseline at " + baselineFile
          + ": nothing compared. Create it with -Dlatencylab.updateBaseline=true, review it,"
          + " commit it.\n"));
    }
    sections.add(new ReportWriter.Section("Where the round trips come from",
        details.toString()));
    Map<String, List<WireStatement>> statements = new LinkedHashMap<>();
    all.forEach(r -> statements.put(r.series().key(), r.cost().countedStatements()));
    String ranking = CallSiteRanking.section(CallSiteRanking.rank(statements));
    if (!ranking.isEmpty()) {
      sections.add(new ReportWriter.Section("Where a region move would hurt: the application's"
          + " lines by round trips, all tests", ranking));
    }
    String byWork = byServerWork(all);
    if (!byWork.isEmpty()) {
      sections.add(new ReportWriter.Section("What the server did: the statements by buffers"
          + " touched, all tests", byWork));
    }
    Sarif.Written sarif;
    try {
      ReportWriter.write(results(cells), into, comparison, sections);
      sarif = Sarif.write(into.resolve("findings.sarif"), findings, CallSites.projectRoot());
      Files.writeString(into.resolve("findings.md"), Findings.markdown(findings,
          roundTrips, all.size(), unaudited.size()));
      FindingsFiles.write(into, occurrences, all.size(), unaudited.size(), roundTrips);
    } catch (IOException e) {
      throw new UncheckedIOException("Could not write the latency report into " + into, e);
    }
    if (update && findingsFile != null) {
      Set<String> ran = new java.util.HashSet<>(occurrences.keySet());
      ran.addAll(unaudited.keySet());
      FindingsBaseline.write(findingsFile, findings, FindingsBaseline.read(findingsFile), ran);
    }
    System.out.println("latency-lab: " + RoundTrips.plural(all.size(), "test")
        + (audit ? " audited (" + Format.count(unaudited.size()) + " not)" : "")
        + " priced at 0.5, 20 and 320 ms: " + into.resolve("report.md") + "; "
        + RoundTrips.plural(findings.size(), "finding") + " (" + Format.count(sarif.results())
        + " in " + into.resolve("findings.sarif") + ")"
        + (update ? (baselineFile == null ? "" : "; baseline rewritten: " + baselineFile)
            + (findingsFile == null ? "" : "; findings rewritten: " + findingsFile)
            : baselineFile == null ? ""
            : comparison == null ? "; no baseline at " + baselineFile
            : "; " + comparison.summary()));
  }

  private String ratchetLine() {
    if (findingsFile == null) {
      return "";
    }
    return update ? "The committed findings rewritten: " + findingsFile + ".\n"
        : findingsBaseline == null ? "No committed findings at " + findingsFile + ": nothing"
            + " ratcheted. Create the file with -Dlatencylab.updateBaseline=true, commit it: a"
            + " test then fails on a finding not in it.\n"
        : "Ratcheted against " + findingsFile + ": a test fails on a finding not in it, or on"
            + " one that takes more round trips in one test.\n";
  }

  /**
   * Where this JVM writes its report: {@code dir}, unless another JVM of the same run (a
   * surefire fork, a Gradle worker) wrote a report there since this JVM started; then {@code
   * dir/jvm-PID}, said in one line, so that neither report is lost. A report there from an
   * earlier run is simply replaced.
   */
  private Path ownDirectory() throws IOException {
    Path writer = dir.resolve(".written-by-jvm");
    String me = Long.toString(ProcessHandle.current().pid());
    long started = java.lang.management.ManagementFactory.getRuntimeMXBean().getStartTime();
    if (!Files.isRegularFile(writer) || Files.readString(writer).strip().equals(me)
        || Files.getLastModifiedTime(writer).toMillis() < started) {
      Files.createDirectories(dir);
      Files.writeString(writer, me + "\n");
      return dir;
    }
    Path own = dir.resolve("jvm-" + me);
    System.out.println("latency-lab: another JVM of this run (a surefire fork, a Gradle worker)"
        + " wrote " + dir + " meanwhile: this JVM's report goes to " + own + " (one report a"
        + " JVM; forkCount=1 gives one for the run)");
    return own;
  }

  /** The tests not audited, by why, with their classes: a suite's unit tests in a few lines. */
  static String notAuditedSection(Map<String, String> unaudited) {
    Map<String, Map<String, Long>> byWhy = new LinkedHashMap<>();
    unaudited.forEach((key, why) -> {
      String cls = key.contains(".") ? key.substring(0, key.lastIndexOf('.')) : key;
      byWhy.computeIfAbsent(why, w -> new java.util.TreeMap<>()).merge(cls, 1L, Long::sum);
    });
    StringBuilder s = new StringBuilder();
    byWhy.forEach((why, classes) -> {
      s.append(why).append(":\n");
      classes.forEach((cls, n) -> s.append("  ").append(cls).append(" (")
          .append(RoundTrips.plural(n, "test")).append(")\n"));
    });
    return s.toString();
  }

  /**
   * The ten statement shapes of the run that touched the most buffers, with their tests, call
   * sites, WAL, temp bytes and plans; "" where the server's work was not counted.
   */
  static String byServerWork(List<Recorded> all) {
    record Ranked(String test, ServerWork.Statement statement) {
    }
    List<Ranked> ranked = new ArrayList<>();
    for (Recorded r : all) {
      if (r.cost().work != null) {
        r.cost().work.stream().filter(s -> s.work() != null && s.work().calls() > 0)
            .forEach(s -> ranked.add(new Ranked(r.series().key(), s)));
      }
    }
    ranked.sort(Comparator.comparingLong((Ranked r) -> r.statement().work().blocks())
        .reversed());
    StringBuilder s = new StringBuilder();
    for (Ranked r : ranked.subList(0, Math.min(10, ranked.size()))) {
      StatementStatistics.Work w = r.statement().work();
      s.append(Format.count(w.blocks())).append(" buffers (").append(Format.count(
          w.blocksRead())).append(" read), ").append(Format.bytes(w.walBytes()))
          .append(" WAL, ").append(Format.bytes(w.tempBytes())).append(" temp: ")
          .append(BlockCost.named(r.statement())).append(" in ").append(r.test())
          .append(r.statement().plan() == null ? "" : "; plan " + r.statement().plan())
          .append('\n');
    }
    return s.toString();
  }

  /** The baseline's cells of tests not run now, with this run's: what an update writes. */
  private Results mergedWithBaseline(Baseline before, List<Cell> counts) {
    Map<String, Cell> merged = new LinkedHashMap<>();
    if (before != null) {
      before.cells().forEach(c -> merged.put(c.key(), c));
    }
    counts.forEach(c -> merged.put(c.key(), c));
    return results(new ArrayList<>(merged.values()));
  }
}
