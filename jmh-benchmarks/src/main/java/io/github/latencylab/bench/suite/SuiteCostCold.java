package io.github.latencylab.bench.suite;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;

/**
 * What a guard costs the first run of a fresh JVM, as a build's test run meets it: the test
 * classes, JUnit, pgjdbc and latency-lab loaded, their code not compiled yet. {@link
 * SuiteCostBenchmark} measures warm runs; this runs its suite once under {@code guard}, in the
 * JVM it starts, and keeps each test's time (JUnit's start to finish of the test, its
 * extensions' callbacks included) beside the suite's wall time, so that what is paid once a
 * JVM and what every test pays can be told apart (a median test against the mean).
 *
 * <p>{@code java [-XX:TieredStopAtLevel=1] -cp benchmarks.jar
 * io.github.latencylab.bench.suite.SuiteCostCold GUARD OUT.json}, one JVM per run:
 * docs/results/suite-cost.sh starts them, the guards interleaved, with the JIT's default tiers
 * and stopped at C1 (a common flag for short test JVMs: no profiling tier, no C2 compiling on
 * the cores the tests need).
 */
public final class SuiteCostCold {

  private SuiteCostCold() {
  }

  public static void main(String[] args) throws Exception {
    if (args.length != 2 || !SuiteCostBenchmark.GUARDS.contains(args[0])) {
      throw new IllegalArgumentException("usage: SuiteCostCold GUARD OUT.json, GUARD one of "
          + SuiteCostBenchmark.GUARDS);
    }
    String guard = args[0];
    ObjectMapper json = new ObjectMapper();
    ObjectNode result = json.createObjectNode();
    result.put("guard", guard);
    // the JIT's flags the script started this JVM with (-XX:TieredStopAtLevel=1, or none)
    result.put("jit", ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
        .filter(a -> a.startsWith("-XX:")).collect(Collectors.joining(" ")));
    ArrayNode tests = json.createArrayNode();
    Map<String, Long> begun = new ConcurrentHashMap<>();
    TestExecutionListener timing = new TestExecutionListener() {
      @Override
      public void executionStarted(TestIdentifier id) {
        if (id.isTest()) {
          begun.put(id.getUniqueId(), System.nanoTime());
        }
      }

      @Override
      public void executionFinished(TestIdentifier id, TestExecutionResult outcome) {
        if (id.isTest()) {
          tests.add((System.nanoTime() - begun.get(id.getUniqueId())) / 1e6);
        }
      }
    };
    try (SuiteLauncher suite = SuiteLauncher.start(guard.equals("budgetAndReport"),
        guard.equals("audit"))) {
      long start = System.nanoTime();
      long passed = suite.run(Map.of(), timing, SuiteCostBenchmark.tests(guard));
      double wallMs = (System.nanoTime() - start) / 1e6;
      result.put("wallMs", wallMs);
      result.set("testMs", tests);
      System.out.printf(java.util.Locale.ROOT, "%s, first run: %.0f ms, %.3f ms per test%n",
          guard, wallMs, wallMs / passed);
    }
    json.writerWithDefaultPrettyPrinter().writeValue(Path.of(args[1]).toFile(), result);
  }
}
