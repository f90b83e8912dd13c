package io.github.latencylab.bench.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.latencylab.bench.runner.BenchCommand.Planned;
import io.github.latencylab.bench.runner.Shard.Group;
import io.github.latencylab.latency.Rtt;
import io.github.latencylab.report.Cell;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * {@code --shard k/n} on the real plans of the full and verify profiles: disjoint, complete,
 * whole rows with their sizes, balanced within the bound the split promises, the same on
 * every machine. Estimates only: nothing here is timed.
 */
class ShardTest {

  private static List<Planned> plan(Profile p) {
    return BenchCommand.plan(".*", p.excluded, p.sizes, Map.of(), p.iterations);
  }

  private static List<Rtt> sweep(Profile p, List<Planned> plan) {
    return p.rtts != null ? p.rtts : BenchCommand.declaredRtts(plan);
  }

  private static List<List<Planned>> shards(Profile p, int n) {
    List<Planned> plan = plan(p);
    List<List<Planned>> shards = new ArrayList<>();
    for (int k = 1; k <= n; k++) {
      shards.add(new Shard(k, n).select(plan, sweep(p, plan), p.cellBudget));
    }
    return shards;
  }

  @Test
  void shardsAreDisjointAndTogetherTheWholeRunInItsOrder() {
    for (Profile p : List.of(Profile.FULL, Profile.VERIFY, Profile.QUICK)) {
      for (int n : new int[] {1, 2, 3, 4, 7}) {
        List<Planned> plan = plan(p);
        List<Planned> union = new ArrayList<>();
        shards(p, n).forEach(union::addAll);
        assertThat(new HashSet<>(union)).as(p + " in " + n).hasSize(union.size());
        assertThat(union).as(p + " in " + n).containsExactlyInAnyOrderElementsOf(plan);
        // each shard keeps the plan's order: a shard runs as the whole run would
        for (List<Planned> shard : shards(p, n)) {
          List<Planned> inPlanOrder = new ArrayList<>(plan);
          inPlanOrder.retainAll(shard);
          assertThat(shard).as(p + " in " + n).isEqualTo(inPlanOrder);
        }
      }
    }
  }

  @Test
  void aRowAndItsOtherSizesRunOnOneShard() {
    // predict() scales a size from a smaller one of the same row at the same RTT
    List<List<Planned>> shards = shards(Profile.FULL, 4);
    Map<String, Integer> shardOfRow = new HashMap<>();
    for (int i = 0; i < shards.size(); i++) {
      for (Planned p : shards.get(i)) {
        String row = p.series().suite() + "." + p.series().strategy() + " "
            + p.series().params().entrySet().stream()
                .filter(e -> !List.of("rows", "parents").contains(e.getKey())).toList();
        Integer before = shardOfRow.putIfAbsent(row, i);
        assertThat(before == null ? i : before).as(row).isEqualTo(i);
      }
    }
    assertThat(shardOfRow).hasSizeGreaterThan(4);
  }

  @Test
  void noShardExceedsTheMeanByMoreThanTheCostliestGroup() {
    for (Profile p : List.of(Profile.FULL, Profile.VERIFY, Profile.QUICK)) {
      List<Planned> plan = plan(p);
      List<Group> groups = Shard.groups(plan, sweep(p, plan), p.cellBudget);
      long total = groups.stream().mapToLong(Group::costMs).sum();
      long costliest = groups.stream().mapToLong(Group::costMs).max().orElseThrow();
      for (int n : new int[] {2, 3, 4, 8}) {
        List<Long> loads = Shard.split(groups, n).stream()
            .map(s -> s.stream().mapToLong(Group::costMs).sum()).toList();
        assertThat(loads.stream().mapToLong(Long::longValue).sum()).isEqualTo(total);
        assertThat(Collections.max(loads)).as(p + " in " + n + ": " + loads)
            .isLessThanOrEqualTo(total / n + costliest);
      }
    }
  }

  @Test
  void theFullSweepInTwoIsWithinAFewPercentOfHalf() {
    // hundreds of groups of similar cost: the greedy split is nearly even
    List<Planned> plan = plan(Profile.FULL);
    List<Group> groups = Shard.groups(plan, sweep(Profile.FULL, plan), Profile.FULL.cellBudget);
    long total = groups.stream().mapToLong(Group::costMs).sum();
    List<Long> loads = Shard.split(groups, 2).stream()
        .map(s -> s.stream().mapToLong(Group::costMs).sum()).toList();
    assertThat(Collections.max(loads)).as(loads.toString())
        .isLessThanOrEqualTo((long) (total / 2 * 1.05));
  }

  @Test
  void theSplitDependsOnThePlanNotOnItsOrder() {
    // another machine lists the benchmarks in another order: the same shards
    List<Planned> plan = plan(Profile.VERIFY);
    List<Rtt> sweep = sweep(Profile.VERIFY, plan);
    List<Planned> reversed = new ArrayList<>(plan);
    Collections.reverse(reversed);
    for (int k = 1; k <= 3; k++) {
      Set<Planned> a = new HashSet<>(new Shard(k, 3).select(plan, sweep,
          Profile.VERIFY.cellBudget));
      Set<Planned> b = new HashSet<>(new Shard(k, 3).select(reversed, sweep,
          Profile.VERIFY.cellBudget));
      assertThat(a).as("shard " + k + "/3").isEqualTo(b);
    }
  }

  @Test
  void verifyCountsWhatItsBudgetMeasures() {
    // verify: a witness at 0.5 and 20 ms, any other row at 0.5 ms only, nothing at 320 ms
    Profile.Budget budget = Profile.VERIFY.cellBudget;
    Iterations its = Profile.VERIFY.iterations;
    long cell = Shard.FORK_START_MS + (long) its.estimatedCellMs(0);
    Planned witness = plan(Profile.VERIFY).stream()
        .filter(p -> p.benchmark().endsWith(".InsertBenchmark.copyCsv")).findFirst().orElseThrow();
    Planned other = plan(Profile.VERIFY).stream()
        .filter(p -> p.benchmark().endsWith(".InsertBenchmark.executeEach")).findFirst()
        .orElseThrow();
    assertThat(Shard.costMs(witness, Profile.VERIFY.rtts, budget)).isEqualTo(2 * cell);
    assertThat(Shard.costMs(other, Profile.VERIFY.rtts, budget)).isEqualTo(cell);
  }

  @Test
  void anEarlierRunsTimesWeighItsCells() {
    // full: one fork, one 2 s warm-up, six 500 ms measurements, at least one operation each
    Planned executeEach = plan(Profile.FULL).stream()
        .filter(p -> p.toString().equals("InsertBenchmark.executeEach rows=1000")).findFirst()
        .orElseThrow();
    List<Rtt> two = Rtt.parseList("0.5ms,20ms");
    Cell measured = new Cell(executeEach.series(), Rtt.parse("0.5ms"), 0.5, 0.1, 5_000,
        0, 1000, 1000, 200, Map.of(), null, 0, null);
    Cell predicted = new Cell(executeEach.series(), Rtt.parse("20ms"), 20, 0.1, 20_000, 0,
        1000, 1000, 50, Map.of(), "predicted from executeEach at 0.5ms", 0, null);
    Map<String, Cell> earlier = Map.of(measured.key(), measured, predicted.key(), predicted);

    assertThat(Shard.costMs(executeEach, two, Profile.FULL.cellBudget))
        .as("unknown: a zero-time operation at each RTT").isEqualTo(2 * (2_000 + 5_000));
    assertThat(Shard.costMs(executeEach, two, Profile.FULL.cellBudget, earlier))
        .as("5 s an operation at 0.5 ms, predicted at 20 ms")
        .isEqualTo(2_000 + (5_000 + 6 * 5_000));
  }

  @Test
  void badShardsAreNamedWithTheFix() {
    assertThat(Shard.parse("2/3")).isEqualTo(new Shard(2, 3));
    assertThat(Shard.parse(" 1/1 ")).isEqualTo(new Shard(1, 1));
    assertThatThrownBy(() -> Shard.parse("3/2")).hasMessage("Invalid --shard '3/2': k must be"
        + " 1 to n and n at least 1, e.g. --shard 1/2 ... --shard 2/2");
    assertThatThrownBy(() -> Shard.parse("0/4")).hasMessage("Invalid --shard '0/4': k must be"
        + " 1 to n and n at least 1, e.g. --shard 1/4 ... --shard 4/4");
    assertThatThrownBy(() -> Shard.parse("2")).hasMessage("Invalid --shard '2': expected k/n,"
        + " the k-th of n shards, e.g. --shard 1/2 on one machine and --shard 2/2 on another");
    List<Planned> plan = BenchCommand.plan("InsertBenchmark.copyCsv$", Profile.VERIFY.sizes,
        Profile.VERIFY.iterations);
    assertThatThrownBy(() -> new Shard(1, 2).select(plan, Profile.VERIFY.rtts,
        Profile.VERIFY.cellBudget)).hasMessage("Invalid --shard 1/2: this run has 1 group of"
        + " rows to split, so at most 1 shards; use --shard k/1 or fewer");
  }

  @Test
  void listPrintsEachShardsCellsWithoutALab() throws Exception {
    List<String> all = list("--profile", "verify");
    List<String> union = new ArrayList<>(list("--profile", "verify", "--shard", "1/2"));
    union.addAll(list("--profile", "verify", "--shard", "2/2"));
    assertThat(all).hasSize(plan(Profile.VERIFY).size() * 3);
    assertThat(union).containsExactlyInAnyOrderElementsOf(all);
    assertThat(all).contains("InsertBenchmark.copyCsv rows=100 @ 20ms");
  }

  @Test
  void shardCostsWithoutShardIsNamed() {
    BenchCommand bench = new BenchCommand();
    new CommandLine(bench).parseArgs("--profile", "verify", "--shard-costs", "old.json");
    assertThatThrownBy(bench::call).hasMessage("--shard-costs old.json balances shards: add"
        + " --shard K/N, or leave it out");
  }

  @Test
  void aShardCannotRewriteTheBaseline() {
    BenchCommand bench = new BenchCommand();
    new CommandLine(bench).parseArgs("--profile", "verify", "--shard", "1/2",
        "--baseline", "b.json", "--update-baseline");
    assertThatThrownBy(bench::call).hasMessage("--update-baseline with --shard 1/2 would write"
        + " a baseline of this shard's cells only: rewrite it from a run without --shard");
  }

  private static List<String> list(String... args) throws Exception {
    BenchCommand bench = new BenchCommand();
    List<String> withList = new ArrayList<>(List.of(args));
    withList.add("--list");
    new CommandLine(bench).parseArgs(withList.toArray(String[]::new));
    PrintStream out = System.out;
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
    try {
      assertThat(bench.call()).isZero();
    } finally {
      System.setOut(out);
    }
    return printed.toString(StandardCharsets.UTF_8).lines().toList();
  }
}
