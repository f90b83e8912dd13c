package io.github.latencylab.bench.tpcb;

import io.github.latencylab.bench.support.BenchLab;
import io.github.latencylab.bench.support.RttSuite;
import io.github.latencylab.bench.support.WireMetrics;
import io.github.latencylab.server.SettingChange;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.ThreadParams;

/**
 * Question: for pgbench's TPC-B-like transaction, what matters more, the server knob the field
 * reports turn (synchronous_commit=off: the commit stops waiting for its WAL flush) or the
 * round trips the transaction makes, and at what latency does the knob stop mattering?
 *
 * <p>Expected: a transaction costs its round trips x RTT plus the server's time, and the knob
 * only shrinks the server's part, by the commit's WAL flush: a few tenths of a millisecond on
 * a local SSD, milliseconds on network storage (field reports 2 and 4 saw ~3x from it on their
 * servers). Its gain therefore shrinks as the RTT grows, and falls under 10% at a latency the
 * flush's cost sets (docs/server-knobs.md gives it); cutting the 7 round trips to 1 (one
 * multi-statement string, one function call) multiplies TPS at every latency. fsync=off on
 * top gains nothing more (field report 4). With several clients TPS is clients / time per
 * transaction, less where they queue for the one branch row at scale 1.
 *
 * <p>Each operation is one transaction by one client with pgbench's random account, teller,
 * branch and delta, on the tables {@code pgbench -i -s scale} makes ({@link TpcbData}). The
 * score is the time per transaction; TPS = clients / that time (rows/s in the results: one
 * history row per transaction). {@code clients} are JMH threads: the runner sets them, plain
 * JMH needs {@code -t} equal to it. The server settings are applied for the trial with ALTER
 * SYSTEM and restored after it; WAL bytes, commits and cache hits per transaction come with
 * the results.
 */
// Measured as RttSuite declares (average ms; the full profile's iterations; its @Param rtt),
// with this suite's own @Params below.
@State(Scope.Benchmark)
public class TpcbBenchmark extends RttSuite {

  @Param({"1"})
  public int scale;

  @Param({"on", "off"})
  public String synchronousCommit;

  /** off on top of synchronous_commit=off: field report 4 saw no further gain. */
  @Param({"on"})
  public String fsync;

  @Param({"1", "4"})
  public int clients;

  private BenchLab lab;
  private SettingChange settings;

  @Setup(Level.Trial)
  public void setUp(BenchLab benchLab, BenchmarkParams params) throws SQLException {
    if (params.getThreads() != clients) {
      throw new IllegalStateException("TpcbBenchmark runs one JMH thread per client: clients="
          + clients + " but " + params.getThreads() + " thread(s); run it with -t " + clients
          + " (./latency-lab bench sets it)");
    }
    lab = benchLab;
    if (!hasTables(scale)) {
      TpcbData.initialize(lab.directDataSource(), scale);
    }
    TpcbData.prepareRun(lab.directDataSource());
    Map<String, String> server = new LinkedHashMap<>();
    server.put("synchronous_commit", synchronousCommit);
    server.put("fsync", fsync);
    settings = lab.lab().settings().set(server);
  }

  private boolean hasTables(int expectedScale) {
    try {
      return TpcbData.scale(lab.directDataSource()) == expectedScale;
    } catch (SQLException noTables) {
      return false;
    }
  }

  /** One client's connection through the proxy, for the benchmark method that runs. */
  @State(Scope.Thread)
  public static class Client {
    TpcbTransaction.Client tx;

    @Setup(Level.Trial)
    public void connect(TpcbBenchmark bench, BenchmarkParams params, ThreadParams thread)
        throws SQLException {
      tx = new TpcbTransaction.Client(bench.lab.dataSource().getConnection(),
          TpcbTransaction.valueOf(method(params)), bench.scale, 42L + thread.getThreadIndex());
    }

    @TearDown(Level.Trial)
    public void disconnect() throws SQLException {
      tx.close();
    }
  }

  /** BEGIN, five statements, END, each waited for, as pgbench sends them: 7 round trips. */
  @Benchmark
  public int statementByStatement(Client client, WireMetrics metrics) throws SQLException {
    return done(client.tx.transaction(), metrics);
  }

  /** Autocommit off: BEGIN rides with the first statement, commit() ends it: 6 round trips. */
  @Benchmark
  public int jdbcTransaction(Client client, WireMetrics metrics) throws SQLException {
    return done(client.tx.transaction(), metrics);
  }

  /** The seven statements in one string, sent together: 1 round trip. */
  @Benchmark
  public int multiStatement(Client client, WireMetrics metrics) throws SQLException {
    return done(client.tx.transaction(), metrics);
  }

  /** One call of a PL/pgSQL function doing the five statements: 1 round trip. */
  @Benchmark
  public int functionCall(Client client, WireMetrics metrics) throws SQLException {
    return done(client.tx.transaction(), metrics);
  }

  private static int done(int balance, WireMetrics metrics) {
    metrics.done(1);
    return balance;
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    settings.close();
  }

  // How to run: ./latency-lab bench --include Tpcb  (--param clients=1,4 --rtt 0.5ms,20ms)
  //   or: java -jar jmh-benchmarks/target/benchmarks.jar TpcbBenchmark -p clients=4 -t 4 -p rtt=20ms
}
