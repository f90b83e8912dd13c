package io.github.latencylab.bench.suite;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.latencylab.env.Setting;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * What a budget and the report add to a test, measured in pairs: {@link SuiteCostBenchmark}
 * runs each guard in forks of its own, one after the other, so a machine that slows down or
 * speeds up between them moves a guard's cost by as much as the cost itself (0.3 ms a test, from
 * run to run, on a shared machine). Here one JVM runs the three suites (no budget, a budget, a
 * budget and the report) in each round, in an order shuffled each round, and what a guard adds
 * is its suite's time less the unbudgeted suite's of the same round: a drift moves both.
 *
 * <p>{@code java -cp benchmarks.jar io.github.latencylab.bench.suite.SuiteCostPairs OUT.json
 * [ROUNDS] [WARMUP]}: the ms per test of each guard in each measured round, as JSON. The report
 * is turned on for its suite alone, by JUnit's configuration parameter, as a build would.
 */
public final class SuiteCostPairs {

  static final List<String> GUARDS = List.of("none", "budget", "budgetAndReport");

  private SuiteCostPairs() {
  }

  public static void main(String[] args) throws Exception {
    if (args.length < 1) {
      throw new IllegalArgumentException("usage: SuiteCostPairs OUT.json [ROUNDS] [WARMUP]");
    }
    Path out = Path.of(args[0]);
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 20;
    int warmup = args.length > 2 ? Integer.parseInt(args[2]) : 5;
    ObjectMapper json = new ObjectMapper();
    ObjectNode result = json.createObjectNode();
    result.put("tests", RepositoryTests.TESTS);
    result.put("warmupRounds", warmup);
    ArrayNode measured = result.putArray("rounds");
    Random order = new Random(56);
    try (SuiteLauncher suite = SuiteLauncher.start(false, false)) {
      for (int r = 0; r < warmup + rounds; r++) {
        List<String> guards = new ArrayList<>(GUARDS);
        Collections.shuffle(guards, order);
        ObjectNode round = json.createObjectNode();
        for (String guard : guards) {
          round.put(guard, msPerTest(suite, guard));
        }
        boolean warm = r >= warmup;
        System.out.println((warm ? "round " + (r - warmup + 1) + "/" + rounds
            : "warm-up " + (r + 1) + "/" + warmup) + ": " + round);
        if (warm) {
          measured.add(round);
        }
      }
    }
    json.writerWithDefaultPrettyPrinter().writeValue(out.toFile(), result);
  }

  // the suite under guard, its wall time over its tests
  private static double msPerTest(SuiteLauncher suite, String guard) {
    Map<String, String> config = guard.equals("budgetAndReport")
        ? Map.of(Setting.REPORT.property(), "true") : Map.of();
    long start = System.nanoTime();
    long passed = suite.run(config, SuiteCostBenchmark.tests(guard));
    return (System.nanoTime() - start) / 1e6 / passed;
  }
}
