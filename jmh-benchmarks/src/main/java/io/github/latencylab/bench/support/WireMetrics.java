package io.github.latencylab.bench.support;

import io.github.latencylab.server.ServerCounters;
import io.github.latencylab.wire.WireStats;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.infra.ThreadParams;

/**
 * Secondary results of every latency-lab benchmark, per iteration: round trips, statements and
 * bytes each way per operation (counted at the socket), the largest reply (what the server sent
 * between two requests: what a read holds at once), rows per second, the RTT the Lab measured, and the
 * server's counters per operation (commits, WAL bytes, temp bytes and files, blocks read, the
 * cache hit ratio; database-wide deltas read on a direct connection of its own, see
 * {@link ServerCounters}). A benchmark calls {@link #done(long)} once per operation with the
 * rows it wrote or read.
 *
 * <p>JMH adds up EVENTS counters over the measurement iterations and the threads, so each
 * iteration of each thread reports its share: the sum JMH prints is the mean per operation
 * (rows per second: the total over the threads). With several threads (e.g. TPC-B clients),
 * round trips are counted on the connections each thread opened, and the server's counters,
 * database-wide, are divided by every thread's operations.
 *
 * <p>The benchmark's sessions publish their statistics at the end of each iteration, after
 * its round trips are counted (one uncounted round trip per open connection, outside the
 * measured time); the commits that costs, and the reads' own, are taken off.
 */
@State(Scope.Thread)
@AuxCounters(AuxCounters.Type.EVENTS)
public class WireMetrics {

  public double roundTripsPerOp;
  public double statementsPerOp;
  public double rowsPerSecond;
  public double bytesSentPerOp;
  public double bytesReceivedPerOp;
  public double largestReplyBytes;
  public double addedRttMs;
  public double baselineRttMs;
  public double serverCommitsPerOp;
  public double serverWalBytesPerOp;
  public double serverWalSyncsPerOp;
  public double serverTempBytesPerOp;
  public double serverTempFilesPerOp;
  public double serverBlocksReadPerOp;
  public double serverCacheHitRatio;

  private BenchLab lab;
  private WireStats start;
  private long startNanos;
  private long ops;
  private long rows;
  private int iterations;
  private int threads;
  private Connection countersConnection;
  private ServerCounters serverStart;

  @Setup(Level.Iteration)
  public void begin(BenchLab benchLab, IterationParams params, ThreadParams thread)
      throws SQLException {
    lab = benchLab;
    iterations = params.getCount();
    threads = thread.getThreadCount();
    ops = 0;
    rows = 0;
    if (countersConnection == null) {
      countersConnection = lab.directDataSource().getConnection();
    }
    serverStart = ServerCounters.read(countersConnection);
    start = wire();
    lab.wire().takeLargestReply();
    startNanos = System.nanoTime();
  }

  /** One operation done, with the rows it moved. */
  public void done(long rowsMoved) {
    ops++;
    rows += rowsMoved;
  }

  @TearDown(Level.Iteration)
  public void end() throws SQLException {
    double seconds = (System.nanoTime() - startNanos) / 1e9;
    WireStats cost = wire().minus(start);
    double perThread = iterations * (double) threads;
    roundTripsPerOp = ops == 0 ? 0 : cost.roundTrips() / (double) ops / perThread;
    statementsPerOp = ops == 0 ? 0 : cost.statements() / (double) ops / perThread;
    bytesSentPerOp = ops == 0 ? 0 : cost.bytesSent() / (double) ops / perThread;
    bytesReceivedPerOp = ops == 0 ? 0 : cost.bytesReceived() / (double) ops / perThread;
    largestReplyBytes = lab.wire().takeLargestReply() / perThread;
    rowsPerSecond = (seconds == 0 ? 0 : rows / seconds) / iterations;
    addedRttMs = lab.rtt().addedMs() / perThread;
    baselineRttMs = lab.rtt().baselineMs() / perThread;

    int published = 0;
    for (Connection c : myConnections()) {
      published += ServerCounters.publish(c) ? 1 : 0;
    }
    ServerCounters server = ServerCounters.read(countersConnection).minus(serverStart)
        .lessCommits((long) threads * (ServerCounters.OWN_COMMITS + published));
    Map<String, Double> perOp = server.perOperation((double) ops * threads);
    serverCommitsPerOp = share(perOp, "commitsPerOp", perThread);
    serverWalBytesPerOp = share(perOp, "walBytesPerOp", perThread);
    serverWalSyncsPerOp = share(perOp, "walSyncsPerOp", perThread);
    serverTempBytesPerOp = share(perOp, "tempBytesPerOp", perThread);
    serverTempFilesPerOp = share(perOp, "tempFilesPerOp", perThread);
    serverBlocksReadPerOp = share(perOp, "blocksReadPerOp", perThread);
    serverCacheHitRatio = share(perOp, "cacheHitRatio", perThread);
  }

  @TearDown(Level.Trial)
  public void close() throws SQLException {
    if (countersConnection != null) {
      countersConnection.close();
    }
  }

  private static double share(Map<String, Double> values, String name, double perThread) {
    return values.getOrDefault(name, Double.NaN) / perThread;
  }

  // with one thread every connection of the fork is this benchmark's; with more, its own
  private List<Connection> myConnections() {
    return lab.dataSource().openConnections(threads == 1 ? null : Thread.currentThread());
  }

  private WireStats wire() {
    if (threads == 1) {
      return lab.wire().snapshot();
    }
    WireStats sum = WireStats.ZERO;
    for (Connection c : myConnections()) {
      sum = sum.plus(lab.dataSource().counterOf(c).snapshot());
    }
    return sum;
  }
}
