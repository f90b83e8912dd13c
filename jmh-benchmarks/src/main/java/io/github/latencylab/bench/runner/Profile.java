package io.github.latencylab.bench.runner;

import io.github.latencylab.latency.Rtt;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * How much of the sweep a run covers. The suites declare the whole sweep in their annotations
 * (every RTT and size, the full profile's iterations); {@link #FULL} runs it as declared, the
 * other profiles narrow the RTTs and sizes and shorten the iterations. Each bounds the time one
 * cell may take: a cell estimated to take longer is predicted by the model instead, and marked
 * so.
 */
public enum Profile {
  /**
   * What {@code ./mvnw verify} runs for its regression numbers: every suite and strategy
   * measured at 0.5 ms, a witness of each suite measured at 20 ms too, the rest predicted at
   * 20 and 320 ms (a fork costs seconds whatever it measures, and verify has ten minutes; the
   * counts a regression changes are the same at every RTT, and the witnesses keep the model
   * checked on every suite), one size (100 rows a load: one row at a time, the slowest
   * strategies, a second an operation at 1,000; reads: 1,000 narrow rows, cold windows, the
   * suite's smallest; TPC-B: one client, stock synchronous_commit; pipelining: the clients
   * counted at the relay whose counts are the same at every RTT, Vert.x one at a time and
   * R2DBC's batch: a pipelining client's count at 0.5 ms depends on how fast it sends, see
   * docs/pipelining.md; pgjdbc's shapes are the other suites'), the shortest honest iterations, a 6 s budget per cell (longer witnesses at
   * 20 ms predicted from their 0.5 ms). Hibernate's reads: getResultStream() only, which
   * Hibernate runs on scroll(FORWARD_ONLY): the same cursor and counts as hibernateScroll,
   * which the other profiles measure. The gate's canary (CanaryBenchmark: one round trip and
   * ~5 ms of client work, which a campaign slows on purpose to see what the gate catches) runs
   * here only.
   */
  VERIFY(Rtt.parseList("0.5ms,20ms,320ms"), Map.of("rows", List.of("100"),
      "ReadBenchmark.rows", List.of("1000"),
      "parents", List.of("100"), "clients", List.of("1"), "synchronousCommit", List.of("on"),
      "width", List.of("narrow"), "window", List.of("cold"),
      "client", List.of("vertx1", "r2dbcBatch")),
      List.of("\\.ReadBenchmark\\.hibernateScroll$"),
      new Iterations(1, 1, Duration.ofMillis(200), 2, Duration.ofMillis(200)),
      new Budget(Duration.ofSeconds(6), Rtt.parse("20ms"), List.of(
          "\\.RoundTripBenchmark\\.selectOne$",
          "\\.InsertBenchmark\\.(copyCsv|executeBatchRewritten)$",
          "\\.HibernateInsertBenchmark\\.hibernatePersistBatched$",
          "\\.NPlusOneBenchmark\\.(joinFetch|batchFetch16)$",
          "\\.ReadBenchmark\\.(defaultFetch|fetchSize100)$",
          "\\.TpcbBenchmark\\.jdbcTransaction$",
          "\\.PipelineBenchmark\\.lookups$")), null),
  /**
   * README's first run, {@code ./latency-lab bench}: its tables in under ten minutes on 2 cores.
   * Every story at
   * 0.5, 20 and 320 ms, one size each: inserts row by row vs batch vs COPY at 1,000 rows (the
   * size at which row by row is ~200x a batch at 320 ms; pipelining's W1 too), the N+1 and
   * its fixes at 100 parents, reads at 1,000 narrow rows with cold windows (the fetch sizes
   * 100, 1,000 and 10,000 stay apart), TPC-B with one client and stock synchronous_commit,
   * pipelining with the clients of docs/pipelining.md's table (pgjdbc one at a time and its
   * batch, Vert.x at limit 256, R2DBC's batch, COPY; the join for the lookups). Every
   * strategy measured at 0.5 ms; witnesses measured at 20 and 320 ms too: selectOne (the RTT
   * itself), copyCsv and executeBatchRewritten, hibernatePersistBatched, joinFetch and
   * batchFetch16, defaultFetch and fetchSize100, jdbcTransaction, and Vert.x at 256 in the
   * three pipelining workloads (a pipelining client's round trips depend on the RTT: from
   * 0.5 ms the model would not know them); the rest predicted from their 0.5 ms cells and
   * marked (a fork costs seconds whatever it measures; pgjdbc's and R2DBC's batch counts are
   * the same at every RTT). An 8 s budget per cell: one operation per iteration of up to
   * 2.7 s, eight round trips at 320 ms; longer witnesses predicted too. Sizes, the other
   * clients and TPC-B's 4 clients and synchronous_commit=off: {@code --profile full}, or
   * {@code --param} and {@code --include}.
   */
  QUICK(Rtt.parseList("0.5ms,20ms,320ms"), Map.of("rows", List.of("1000"),
      "parents", List.of("100"), "clients", List.of("1"), "synchronousCommit", List.of("on"),
      "width", List.of("narrow"), "window", List.of("cold"),
      "client", List.of("jdbcOneByOne", "jdbcBatch", "jdbcJoin", "vertx256", "r2dbcBatch",
          "copy")),
      List.of(Profile.CANARY),
      new Iterations(1, 1, Duration.ofMillis(500), 2, Duration.ofMillis(500)),
      new Budget(Duration.ofSeconds(8), null, List.of(
          "\\.RoundTripBenchmark\\.selectOne$",
          "\\.InsertBenchmark\\.(copyCsv|executeBatchRewritten)$",
          "\\.HibernateInsertBenchmark\\.hibernatePersistBatched$",
          "\\.NPlusOneBenchmark\\.(joinFetch|batchFetch16)$",
          "\\.ReadBenchmark\\.(defaultFetch|fetchSize100)$",
          "\\.TpcbBenchmark\\.jdbcTransaction$",
          "PipelineBenchmark\\.\\w+ client=vertx256\\b")), null),
  /**
   * Hours: the suites as declared, every RTT from 0.5 to 320 ms and sizes up to a million
   * rows, with their iterations (one 2 s warm-up, two where an operation may fill the first,
   * {@link Iterations#warmedFor}; six 500 ms measurements: an operation here
   * is round-trip bound, so an iteration holds hundreds of them at 0.5 ms and at least one
   * anywhere), and a cell's 99.9% interval within 10% of its mean: a wider one measured again
   * in one more fork with the iterations it lacks, within the 60 s budget, and else marked
   * noisy with why (a third fork seldom narrows it: what is left is mostly forks that differ,
   * and it cost the sweep most of its budget).
   */
  FULL(null, Map.of(), List.of(Profile.CANARY), null,
      new Budget(Duration.ofSeconds(60), null, null), new Precision(0.10, 1));

  /** The gate's canary (CanaryBenchmark): a cell of the verify profile only. */
  private static final String CANARY = "\\.CanaryBenchmark\\.";

  /** The RTTs, or null: the suites' declared ones. */
  final List<Rtt> rtts;
  /** Values of size parameters instead of the declared ones. */
  final Map<String, List<String>> sizes;
  /** Benchmarks left out (JMH exclude patterns), whatever --include says. */
  final List<String> excluded;
  /** Forks and iterations, or null: the suites' declared ones. */
  final Iterations iterations;
  final Budget cellBudget;
  /** What a measured cell's interval must reach, or null: whatever its iterations give. */
  final Precision precision;

  Profile(List<Rtt> rtts, Map<String, List<String>> sizes, List<String> excluded,
      Iterations iterations, Budget cellBudget, Precision precision) {
    this.rtts = rtts;
    this.sizes = sizes;
    this.excluded = excluded;
    this.iterations = iterations;
    this.cellBudget = cellBudget;
    this.precision = precision;
  }

  /**
   * How long a cell may take (its iterations within {@code limit}), the highest RTT measured
   * at all ({@code measuredUpTo}, or null: every RTT), and the benchmarks measured at more than
   * one RTT ({@code witnesses}, JMH include patterns, or null: all): a cell beyond any of them
   * is predicted from its series' measured cells.
   */
  record Budget(Duration limit, Rtt measuredUpTo, List<String> witnesses) {
    boolean fits(BenchCommand.Planned p, Rtt rtt, double opMs) {
      return (measuredUpTo == null || rtt.compareTo(measuredUpTo) <= 0)
          && p.iterations().estimatedCellMs(opMs) <= limit.toMillis();
    }

    /**
     * Whether {@code p}, measured at one RTT, is measured at the others too: a witness
     * pattern found in its benchmark's name, or in its series' key where one client of a
     * suite is the witness ("PipelineBenchmark.lookups client=vertx256").
     */
    boolean measuresAgain(BenchCommand.Planned p) {
      return witnesses == null || witnesses.stream().map(Pattern::compile)
          .anyMatch(w -> w.matcher(p.benchmark()).find() || w.matcher(p.series().key()).find());
    }

    /**
     * {@code --budget}: the limit given, and no witnesses: every cell that fits it is measured
     * (a run of one suite, e.g. docs/results' scripts, measures what its budget allows; the
     * witnesses only keep the whole quick run in minutes).
     */
    Budget withLimit(Duration newLimit) {
      return new Budget(newLimit, measuredUpTo, null);
    }
  }
}
