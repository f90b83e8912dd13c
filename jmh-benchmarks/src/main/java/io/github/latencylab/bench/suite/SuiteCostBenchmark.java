package io.github.latencylab.bench.suite;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Question: what does latency-lab cost each test of a suite of short repository tests, when a
 * team leaves it on for all of them?
 *
 * <p>The suite ({@link RepositoryTests}): 300 tests, each a lookup, an insert, a count and a
 * commit on a pooled connection of the Lab, run by JUnit's launcher as surefire runs them, with
 * {@code guard}:
 * <ul>
 *   <li>{@code none}: the Lab and its extension, no budget: the reference;
 *   <li>{@code budget}: {@code @ExpectRoundTrips(exactly = 4)} on every test;
 *   <li>{@code budgetAndReport}: the same with {@code latencylab.report=true} (each test's
 *       counts, the server's plans and work per statement shape, the report written at the end);
 *   <li>{@code audit}: no budget, {@code latencylab.audit=true} (the one switch).
 * </ul>
 *
 * <p>Expected: a budget adds at most 0.5 ms to a test and the report at most 1 ms over {@code
 * none}: the budget reads the wire as the test runs (no server read on the measured
 * connections) and checks the server's sessions on a connection of its own; the report reads
 * each statement shape's plan once a run. Score: ms per test, the suite's wall time over its
 * 300 tests (JUnit's discovery included: the same in every guard), at no added RTT.
 *
 * <p>Twelve warm-up runs: with the report on, a fork's runs kept getting faster until about the
 * tenth (6.98, 4.93, 4.09, 3.27, 3.52, 2.32, 3.33, 2.53, 2.67, 1.94, 1.86, 1.69 ms a test, then
 * 1.5-1.9), latency-lab's code compiled as the JIT gets to it; with three, the measured runs
 * still held that. What the first run of a fresh JVM costs, its classes loaded and its code
 * interpreted, is measured apart ({@link SuiteCostCold}).
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 12)
@Measurement(iterations = 10)
@Fork(3)
@OperationsPerInvocation(RepositoryTests.TESTS)
@State(Scope.Benchmark)
public class SuiteCostBenchmark {

  /** The guards, as {@code guard} takes them. */
  static final List<String> GUARDS = List.of("none", "budget", "budgetAndReport", "audit");

  @Param({"none", "budget", "budgetAndReport", "audit"})
  public String guard;

  private SuiteLauncher suite;

  @Setup(Level.Trial)
  public void start() throws Exception {
    suite = SuiteLauncher.start(guard.equals("budgetAndReport"), guard.equals("audit"));
  }

  /** The 300 tests, under {@code guard}; the tests that passed (all, or it throws). */
  @Benchmark
  public long suite() {
    return suite.run(Map.of(), tests(guard));
  }

  /** The suite a guard runs: the budgeted tests under a budget, else the unbudgeted ones. */
  static Class<?> tests(String guard) {
    return guard.startsWith("budget") ? RepositoryTests.Budgeted.class
        : RepositoryTests.Unbudgeted.class;
  }

  @TearDown(Level.Trial)
  public void stop() throws Exception {
    suite.close();
  }

  // How to run (a few minutes; not a cell of ./latency-lab bench, which sweeps RTTs):
  //   java -jar jmh-benchmarks/target/benchmarks.jar SuiteCostBenchmark -rf json -rff suite-cost.json
}
