package io.github.latencylab.bench.suite;

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
 * Question: do exact budgets stay exact in JUnit's parallel mode, and does the suite still run
 * faster in parallel than one test at a time?
 *
 * <p>The suite: {@link RepositoryTests}' 300 tests under {@code @ExpectRoundTrips(exactly = 4)}
 * beside the same 300 with no budget, {@code oneAtATime} or {@code parallel} (JUnit's parallel
 * mode, methods and classes concurrent, 4 threads, a pool of 4 connections). A budget that does
 * not hold (another test's SQL counted as its own) fails the benchmark.
 *
 * <p>Expected: every budget holds in both; {@code parallel} faster than {@code oneAtATime}: a
 * test's count is what its own thread sent (no lock makes counted tests take turns), and a
 * test spends most of its time waiting on the database. Score: ms per test, the 600 tests' wall
 * time over 600, at no added RTT.
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3)
@Measurement(iterations = 8)
@Fork(2)
@OperationsPerInvocation(2 * RepositoryTests.TESTS)
@State(Scope.Benchmark)
public class ParallelSuiteBenchmark {

  private static final Map<String, String> PARALLEL = Map.of(
      "junit.jupiter.execution.parallel.enabled", "true",
      "junit.jupiter.execution.parallel.mode.default", "concurrent",
      "junit.jupiter.execution.parallel.mode.classes.default", "concurrent",
      "junit.jupiter.execution.parallel.config.strategy", "fixed",
      "junit.jupiter.execution.parallel.config.fixed.parallelism", "4");

  @Param({"oneAtATime", "parallel"})
  public String execution;

  private SuiteLauncher suite;

  @Setup(Level.Trial)
  public void start() throws Exception {
    suite = SuiteLauncher.start(false, false);
  }

  /** The 600 tests; the tests that passed (all, or it throws). */
  @Benchmark
  public long budgetedBesideUnbudgeted() {
    return suite.run(execution.equals("parallel") ? PARALLEL : Map.of(),
        RepositoryTests.Budgeted.class, RepositoryTests.Unbudgeted.class);
  }

  @TearDown(Level.Trial)
  public void stop() throws Exception {
    suite.close();
  }

  // How to run (a few minutes; not a cell of ./latency-lab bench, which sweeps RTTs):
  //   java -jar jmh-benchmarks/target/benchmarks.jar ParallelSuiteBenchmark -rf json -rff parallel.json
}
