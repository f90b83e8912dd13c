package io.github.latencylab.bench.pipeline;

import io.github.latencylab.bench.insert.InsertRows;
import io.github.latencylab.bench.support.BenchLab;
import io.github.latencylab.bench.support.RttSuite;
import io.github.latencylab.bench.support.WireMetrics;
import io.github.latencylab.bench.tpcb.TpcbData;
import io.github.latencylab.env.Lab;
import io.github.latencylab.env.PostgresTarget;
import java.sql.SQLException;
import java.util.List;
import java.util.SplittableRandom;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Question: how much of a round trip's cost does a client save by sending statements without
 * waiting for each answer (pipelining), and how close does it come to the one-statement fixes?
 *
 * <p>Expected: a client that waits for every answer pays a round trip per statement (N x L);
 * one that pipelines pays about one per window of statements in flight: Vert.x's pipelining
 * limit (1: none; 16: N / 16; 256), pgjdbc's batch (a Sync every 255 statements), whatever
 * R2DBC really sends (to be measured). The one-statement forms stay ahead: COPY is 2 round
 * trips whatever N, the join and {@code = any(?)} 1 for the N+1's lookups. At 0.5 ms the
 * server's work per statement shows; at 320 ms only round trips matter.
 *
 * <p>Three workloads, one benchmark method each, every client doing the same work
 * ({@link PipelineClient}): {@link #inserts} (W1: {@code rows} single-row INSERTs into
 * InsertBenchmark's table in one transaction, the table emptied before each operation outside
 * the measured time), {@link #lookups} (W2: the N+1's {@value LookupData#BOOKS} lookups by
 * primary key, outside a transaction) and {@link #tpcb} (W3: pgbench's TPC-B transaction with
 * pgbench's random account, teller, branch and delta, on {@code pgbench -i -s 1}'s tables).
 * Each method has its own state with its own {@code client} parameter, listing only the
 * clients that have a shape of their own for it ({@link ClientKind#workloads()}; a test keeps
 * the lists and the enum equal), and only inserts has {@code rows}: every cell JMH runs
 * exists, none is skipped.
 *
 * <p>Round trips are counted at the socket for the JDBC clients whose connections come from
 * the Lab's data source (and again at the relay, to check); the Vert.x, R2DBC and
 * previous-pgjdbc clients connect to {@link #clientTarget(Lab)}, the Lab's counting relay,
 * which counts theirs from the protocol, pipelined or not ({@code WireStats}).
 */
// Measured as RttSuite declares (average ms; the full profile's iterations; its @Param rtt),
// with each workload's own @Params below.
@State(Scope.Benchmark)
public class PipelineBenchmark extends RttSuite {

  /**
   * Where the clients that are not the Lab's JDBC connect: the Lab's counting relay, in front
   * of its proxy (the Lab's own path under ./latency-lab bench), which counts their round trips
   * on the Lab's wire as pgjdbc's socket counts its own.
   */
  static PostgresTarget clientTarget(Lab lab) {
    return lab.relayedTarget();
  }

  /** W1's client and rows. */
  @State(Scope.Benchmark)
  public static class Inserts {
    @Param({"jdbcOneByOne", "jdbcBatch", "jdbcRewrite", "jdbc42712Batch", "jdbc42712Rewrite",
        "vertx1", "vertx16", "vertx256", "r2dbcFlux", "r2dbcBatch", "r2dbcBind", "copy"})
    public String client;

    /** Rows inserted per operation, one INSERT each (COPY: one statement). */
    @Param({"100", "1000", "10000"})
    public int rows;

    private BenchLab lab;
    private PipelineClient open;
    private List<InsertRows.Row> data;

    @Setup(Level.Trial)
    public void open(BenchLab benchLab) throws SQLException {
      lab = benchLab;
      data = InsertRows.generate(rows).rows();
      InsertRows.createTable(lab.directDataSource());
      open = ClientKind.of(client, ClientKind.Workload.inserts)
          .open(lab.lab(), clientTarget(lab.lab()));
    }

    @Setup(Level.Invocation)
    public void emptyTable() throws SQLException {
      InsertRows.truncate(lab.directDataSource());
    }

    @TearDown(Level.Trial)
    public void close() throws SQLException {
      long count = InsertRows.count(lab.directDataSource());
      open.close();
      if (count != rows) {
        throw new IllegalStateException(client + " left " + count + " rows, not " + rows);
      }
    }
  }

  /** W2's client. */
  @State(Scope.Benchmark)
  public static class Lookups {
    @Param({"jdbcOneByOne", "jdbcJoin", "jdbcAny", "vertx1", "vertx16", "vertx256",
        "r2dbcFlux", "r2dbcBatch", "r2dbcBind"})
    public String client;

    private PipelineClient open;
    private final List<Long> ids = LookupData.authorIds();
    private List<LookupData.Author> last;

    @Setup(Level.Trial)
    public void open(BenchLab lab) throws SQLException {
      LookupData.create(lab.directDataSource());
      open = ClientKind.of(client, ClientKind.Workload.lookups)
          .open(lab.lab(), clientTarget(lab.lab()));
    }

    @TearDown(Level.Trial)
    public void close() throws SQLException {
      open.close();
      if (last != null && !last.equals(LookupData.expected())) {
        throw new IllegalStateException(client + " looked up other authors than the books'");
      }
    }
  }

  /** W3's client and pgbench's random choices. */
  @State(Scope.Benchmark)
  public static class Tpcb {
    @Param({"jdbcOneByOne", "vertx1", "vertx16", "vertx256", "r2dbcFlux", "r2dbcBatch"})
    public String client;

    private PipelineClient open;
    private final SplittableRandom random = new SplittableRandom(42);

    @Setup(Level.Trial)
    public void open(BenchLab lab) throws SQLException {
      if (!hasScaleOne(lab)) {
        TpcbData.initialize(lab.directDataSource(), 1);
      }
      TpcbData.prepareRun(lab.directDataSource());
      open = ClientKind.of(client, ClientKind.Workload.tpcb)
          .open(lab.lab(), clientTarget(lab.lab()));
    }

    private static boolean hasScaleOne(BenchLab lab) {
      try {
        return TpcbData.scale(lab.directDataSource()) == 1;
      } catch (SQLException noTables) {
        return false;
      }
    }

    int transaction() throws SQLException {
      // pgbench's script at scale 1: \set aid random(1, 100000 * :scale) and so on
      int aid = random.nextInt(1, TpcbData.ACCOUNTS + 1);
      int bid = random.nextInt(1, TpcbData.BRANCHES + 1);
      int tid = random.nextInt(1, TpcbData.TELLERS + 1);
      int delta = random.nextInt(-5000, 5001);
      return open.tpcb(aid, bid, tid, delta);
    }

    @TearDown(Level.Trial)
    public void close() throws SQLException {
      open.close();
    }
  }

  /** W1: {@code rows} INSERTs and a COMMIT, sent as the client sends them. */
  @Benchmark
  public long inserts(Inserts state, WireMetrics metrics) throws SQLException {
    long inserted = state.open.inserts(state.data);
    metrics.done(inserted);
    return inserted;
  }

  /** W2: the N+1's 100 lookups by primary key (or the query that replaces them). */
  @Benchmark
  public List<LookupData.Author> lookups(Lookups state, WireMetrics metrics)
      throws SQLException {
    state.last = state.open.lookups(state.ids);
    metrics.done(state.last.size());
    return state.last;
  }

  /** W3: one TPC-B transaction: BEGIN, five statements, COMMIT. */
  @Benchmark
  public int tpcb(Tpcb state, WireMetrics metrics) throws SQLException {
    int balance = state.transaction();
    metrics.done(1);
    return balance;
  }

  // How to run: ./latency-lab bench --include Pipeline  (--param rows=1000 --rtt 0.5ms,20ms)
  //   or: java -jar jmh-benchmarks/target/benchmarks.jar 'PipelineBenchmark.inserts' \
  //       -p client=vertx16 -p rows=1000 -p rtt=20ms
}
