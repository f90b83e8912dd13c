package io.github.latencylab.bench.runner;

import io.github.latencylab.bench.runner.BenchCommand.Planned;
import io.github.latencylab.latency.Rtt;
import io.github.latencylab.report.Cell;
import io.github.latencylab.report.Series;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code --shard k/n}: the k-th of n parts of a run, for a CI matrix whose final job merges
 * them ({@code report --results}).
 *
 * <p>The unit of the split is a row with its other sizes (a suite's strategy and parameters
 * but the size, e.g. {@code InsertBenchmark.executeEach} at rows=100, 1000 and 10000): its
 * cells at every RTT run on one shard, so the model is fitted on one machine's cells, and a
 * larger size the runner scales from a smaller one (nothing of its row measurable) finds it
 * on the same shard, as in a run without shards.
 *
 * <p>Balanced by an estimate of what each group costs, before anything runs: each cell the
 * profile's budget can measure counts its forks' start ({@link #FORK_START_MS}) and its
 * iterations ({@link Iterations#estimatedCellMs}, at most the budget's limit) of an operation
 * of the time an earlier run measured ({@code --shard-costs}), or else of a zero-time one (the
 * least it can take); a cell the earlier run predicted, or the budget predicts whatever it
 * measures (above its {@code measuredUpTo} RTT, or past its first RTT for a benchmark that is
 * not a witness), counts nothing. Groups go, most costly first, each
 * to the least loaded shard (the lowest index on a tie): no shard's estimate exceeds the mean
 * by more than the costliest group. Everything is decided from the plan alone, in the order of
 * its series, so every machine given the same profile and options computes the same shards:
 * disjoint, and together the whole run.
 */
record Shard(int index, int count) {

  /** A fork's JVM start and its attach to the runner's Lab: seconds, whatever it measures. */
  static final long FORK_START_MS = 2_000;

  private static final Pattern FORM = Pattern.compile("(\\d{1,4})/(\\d{1,4})");

  /** "2/3": the second of three shards; the error names the bad value and the form. */
  static Shard parse(String text) {
    Matcher m = FORM.matcher(text == null ? "" : text.trim());
    if (!m.matches()) {
      throw new IllegalArgumentException("Invalid --shard '" + text + "': expected k/n, the"
          + " k-th of n shards, e.g. --shard 1/2 on one machine and --shard 2/2 on another");
    }
    int k = Integer.parseInt(m.group(1));
    int n = Integer.parseInt(m.group(2));
    if (n < 1 || k < 1 || k > n) {
      throw new IllegalArgumentException("Invalid --shard '" + text + "': k must be 1 to n"
          + " and n at least 1, e.g. --shard 1/" + Math.max(n, 2) + " ... --shard "
          + Math.max(n, 2) + "/" + Math.max(n, 2));
    }
    return new Shard(k, n);
  }

  @Override
  public String toString() {
    return index + "/" + count;
  }

  /** A group of rows that run on one shard, and its estimated cost. */
  record Group(List<Planned> rows, long costMs) {
    Series first() {
      return rows.get(0).series();
    }
  }

  /**
   * The plan's rows grouped by series but for the size, in the plan's order, each with its
   * estimated cost over {@code sweep}.
   */
  static List<Group> groups(List<Planned> plan, List<Rtt> sweep, Profile.Budget budget) {
    return groups(plan, sweep, budget, Map.of());
  }

  /** The same, costed by an earlier run's cells by key where it has them. */
  static List<Group> groups(List<Planned> plan, List<Rtt> sweep, Profile.Budget budget,
      Map<String, Cell> earlier) {
    List<List<Planned>> groups = new ArrayList<>();
    for (Planned p : plan) {
      List<Planned> same = groups.stream()
          .filter(g -> g.get(0).series().sameButSize(p.series())).findFirst().orElse(null);
      if (same == null) {
        groups.add(same = new ArrayList<>());
      }
      same.add(p);
    }
    return groups.stream().map(g -> new Group(List.copyOf(g),
        g.stream().mapToLong(p -> costMs(p, sweep, budget, earlier)).sum())).toList();
  }

  /** What the runner can measure of a row over {@code sweep}, estimated as the class says. */
  static long costMs(Planned p, List<Rtt> sweep, Profile.Budget budget) {
    return costMs(p, sweep, budget, Map.of());
  }

  /** The same, with the time of an operation {@code earlier} measured where it has the cell. */
  static long costMs(Planned p, List<Rtt> sweep, Profile.Budget budget,
      Map<String, Cell> earlier) {
    long cost = 0;
    for (int i = 0; i < sweep.size(); i++) {
      cost += cellMs(p, sweep.get(i), i == 0, budget, earlier);
    }
    return cost;
  }

  /**
   * What the runner can measure of {@code p} at {@code rtt}, estimated as the class says:
   * nothing above the budget's {@code measuredUpTo}, past the {@code first} RTT of the sweep
   * for a benchmark that is not a witness, or where {@code earlier} predicted the cell.
   */
  static long cellMs(Planned p, Rtt rtt, boolean first, Profile.Budget budget,
      Map<String, Cell> earlier) {
    if (budget.measuredUpTo() != null && rtt.compareTo(budget.measuredUpTo()) > 0
        || !first && !budget.measuresAgain(p)) {
      return 0;
    }
    Cell before = earlier.get(p.series().keyAt(rtt));
    if (before != null && before.predicted()) {
      return 0;
    }
    double opMs = before == null || !Double.isFinite(before.timeMs()) ? 0 : before.timeMs();
    return p.iterations().forks() * FORK_START_MS
        + Math.min((long) p.iterations().estimatedCellMs(opMs), budget.limit().toMillis());
  }

  /** Every shard's groups, index 0 for shard 1: the same answer on every machine. */
  static List<List<Group>> split(List<Group> groups, int count) {
    List<Group> byCost = new ArrayList<>(groups);
    byCost.sort(Comparator.comparingLong(Group::costMs).reversed()
        .thenComparing(Group::first));
    List<List<Group>> shards = new ArrayList<>();
    long[] load = new long[count];
    for (int i = 0; i < count; i++) {
      shards.add(new ArrayList<>());
    }
    for (Group g : byCost) {
      int least = 0;
      for (int i = 1; i < count; i++) {
        if (load[i] < load[least]) {
          least = i;
        }
      }
      shards.get(least).add(g);
      load[least] += g.costMs();
    }
    return shards;
  }

  /**
   * This shard's part of {@code plan}, in the plan's order; an error naming the shard when it
   * would be empty (more shards than groups of rows).
   */
  List<Planned> select(List<Planned> plan, List<Rtt> sweep, Profile.Budget budget) {
    return select(plan, sweep, budget, Map.of());
  }

  /** The same, costed by an earlier run's cells ({@code --shard-costs}) by key. */
  List<Planned> select(List<Planned> plan, List<Rtt> sweep, Profile.Budget budget,
      Map<String, Cell> earlier) {
    List<Group> groups = groups(plan, sweep, budget, earlier);
    if (count > groups.size()) {
      throw new IllegalArgumentException("Invalid --shard " + this + ": this run has "
          + groups.size() + " group" + (groups.size() == 1 ? "" : "s") + " of rows to split,"
          + " so at most " + groups.size() + " shards; use --shard k/" + groups.size()
          + " or fewer");
    }
    Set<Planned> mine = new HashSet<>();
    split(groups, count).get(index - 1).forEach(g -> mine.addAll(g.rows()));
    return plan.stream().filter(mine::contains).toList();
  }

  /** "shard 1/2: 14 of 27 groups of rows, ~3.1 min of ~6.0 min estimated". */
  String describe(List<Planned> plan, List<Rtt> sweep, Profile.Budget budget,
      Map<String, Cell> earlier) {
    List<Group> groups = groups(plan, sweep, budget, earlier);
    List<Group> mine = split(groups, count).get(index - 1);
    long all = groups.stream().mapToLong(Group::costMs).sum();
    long own = mine.stream().mapToLong(Group::costMs).sum();
    return "shard " + this + ": " + mine.size() + " of " + groups.size() + " groups of rows,"
        + " an estimated " + minutes(own) + " of " + minutes(all) + " (forks and iterations"
        + (earlier.isEmpty() ? "; operations' own time unknown before they run)"
            : ", operations timed as in --shard-costs)");
  }

  private static String minutes(long ms) {
    return String.format(java.util.Locale.ROOT, "%.1f min", ms / 60_000.0);
  }
}
