package io.github.latencylab.bench.support;

import io.github.latencylab.env.Allocations;
import io.github.latencylab.gate.WorkGate;
import io.github.latencylab.server.ServerCounters;
import io.github.latencylab.server.StatementStatistics;
import io.github.latencylab.wire.WireCounter;
import io.github.latencylab.wire.WireData;
import io.github.latencylab.wire.WireStats;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.function.BinaryOperator;
import java.util.function.Function;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.ThreadParams;

/**
 * Secondary results of every latency-lab benchmark, per iteration: round trips, statements and
 * bytes each way per operation (counted at the socket), the largest reply (what the server sent
 * between two requests: what a read holds at once), rows per second, the RTT the Lab measured, the
 * server's counters per operation (commits, WAL bytes, temp bytes and files, blocks read, the
 * cache hit ratio; database-wide deltas read on a direct connection of its own, see
 * {@link ServerCounters}), and the work behind the time by the work gate's names
 * ({@link WorkGate}): rows, values and value bytes at the wire, the statements' buffers, WAL,
 * temp bytes and time (pg_stat_statements), the thread's allocations. A benchmark calls {@link #done(long)} once per operation with the
 * rows it wrote or read; {@link WireMetricsProfiler} reports the values (JMH's iteration lines
 * and its summary agree: 1 round trip per {@code SELECT 1} in both).
 *
 * <p>With several threads (e.g. TPC-B clients), round trips are counted on the connections each
 * thread opened and averaged over the threads; rows per second are added up; the server's
 * counters, database-wide, are divided by every thread's operations.
 *
 * <p>Nothing runs on the measured connections between two operations: an idle round trip there
 * would let the link's window shrink, and the next operation would pay for a warm-up the
 * field's long-lived connection does not (320 ms uploads of 10,000 rows paid one RTT more in
 * every sample while each iteration ended so). The WAL, exact at once, is read per iteration;
 * the statistics views, which a session publishes only when idle and at most once a second, are
 * read over the whole fork, warm-up included: the benchmark's sessions publish once before its
 * first operation (what the set-up did is not counted) and once after its last, and the
 * commits those cost, and the reads' own, are taken off.
 */
@State(Scope.Thread)
public class WireMetrics {

  private BenchLab lab;
  private WireStats start;
  private WireStats relayStart; // null unless the Lab's path has the counting relay
  private WireData dataStart;
  private long allocatedStart;
  private String statementView; // pg_stat_statements, or null where it cannot be read
  private StatementStatistics statementsStart;
  private StatementStatistics forkStatements; // before the fork's first operation
  private long startNanos;
  private long ops;
  private long rows;
  private int threads;
  private Connection countersConnection;
  private long walStart;
  private ServerCounters forkStart;
  private long forkOps;
  private int ownReads; // each a commit of the counters connection's, between the fork's reads

  @Setup(Level.Iteration)
  public void begin(BenchLab benchLab, ThreadParams thread)
      throws SQLException {
    lab = benchLab;
    threads = thread.getThreadCount();
    ops = 0;
    rows = 0;
    if (countersConnection == null) {
      countersConnection = lab.directDataSource().getConnection();
      statementView = lab.lab().statementStatistics().view();
      publishMine();
      forkStart = ServerCounters.read(countersConnection);
    }
    walStart = walPosition();
    statementsStart = statements();
    if (forkStatements == null) {
      forkStatements = statementsStart;
    }
    dataStart = data();
    allocatedStart = Allocations.onThisThread();
    start = wire();
    relayStart = lab.lab().relayed() ? relayed() : null;
    lab.wire().takeLargestReply();
    startNanos = System.nanoTime();
  }

  /** One operation done, with the rows it moved. */
  public void done(long rowsMoved) {
    ops++;
    forkOps++;
    rows += rowsMoved;
  }

  @TearDown(Level.Iteration)
  public void end() throws SQLException {
    double seconds = (System.nanoTime() - startNanos) / 1e9;
    WireStats cost = wire().minus(start);
    if (relayStart != null) {
      cost = agreed(cost, relayed().minus(relayStart));
    }
    WireMetricsProfiler.mean("roundTripsPerOp", ops == 0 ? 0 : cost.roundTrips() / (double) ops);
    WireMetricsProfiler.mean("statementsPerOp", ops == 0 ? 0 : cost.statements() / (double) ops);
    WireMetricsProfiler.mean("bytesSentPerOp", ops == 0 ? 0 : cost.bytesSent() / (double) ops);
    WireMetricsProfiler.mean("bytesReceivedPerOp",
        ops == 0 ? 0 : cost.bytesReceived() / (double) ops);
    WireMetricsProfiler.mean("largestReplyBytes", lab.wire().takeLargestReply());
    WireMetricsProfiler.mean("windowRoundTripsPerOp",
        ops == 0 ? 0 : cost.windowRoundTrips() / (double) ops);
    WireMetricsProfiler.sum("rowsPerSecond", seconds == 0 ? 0 : rows / seconds);
    WireMetricsProfiler.mean("addedRttMs", lab.rtt().addedMs());
    WireMetricsProfiler.mean("baselineRttMs", lab.rtt().baselineMs());

    if (ops == 0) {
      return;
    }
    // the work behind the time: what the statements carried, did on the server, allocated
    WireData data = data().minus(dataStart);
    WireMetricsProfiler.mean(counter(WorkGate.ROWS), data.rows() / (double) ops);
    WireMetricsProfiler.mean(counter(WorkGate.VALUES), data.values() / (double) ops);
    WireMetricsProfiler.mean(counter(WorkGate.VALUE_BYTES), data.valueBytesSent() / (double) ops);
    if (allocatedStart >= 0) {
      WireMetricsProfiler.mean(counter(WorkGate.ALLOCATED),
          (Allocations.onThisThread() - allocatedStart) / (double) ops);
    }
    double serverOps = (double) ops * threads; // the server's counters are database-wide
    long wal = walPosition();
    if (wal >= 0 && walStart >= 0) {
      WireMetricsProfiler.mean(counter("walBytesPerOp"), (wal - walStart) / serverOps);
    }
    if (statementsStart != null) {
      StatementStatistics.Work work = statements().sinceAll(statementsStart);
      WireMetricsProfiler.mean(counter(WorkGate.BLOCKS), work.blocks() / serverOps);
      WireMetricsProfiler.mean(counter(WorkGate.WAL), work.walBytes() / serverOps);
      WireMetricsProfiler.mean(counter(WorkGate.TEMP), work.tempBytes() / serverOps);
      WireMetricsProfiler.mean(counter(WorkGate.SERVER_MS), work.serverMs() / serverOps);
    }
  }

  /**
   * The fork's statistics per operation, after its last operation (JMH runs a trial's teardown
   * inside the last iteration, so they join that iteration's results).
   */
  @TearDown(Level.Trial)
  public void close() throws SQLException {
    if (countersConnection == null) {
      return;
    }
    // which statements the fork ran, by query id, for the runner to read their plans
    StatementStatistics now = statements();
    if (now != null && forkStatements != null) {
      now.sinceEach(forkStatements).forEach((queryId, work) -> WireMetricsProfiler.ofFork(
          STATEMENT + queryId, work.calls() / ((double) forkOps * threads)));
    }
    int published = publishMine();
    ServerCounters fork = ServerCounters.read(countersConnection).minus(forkStart)
        .lessCommits((long) threads * (ServerCounters.OWN_COMMITS + ownReads + published));
    Map<String, Double> perOp = fork.perOperation((double) forkOps * threads);
    for (String counter : List.of("commitsPerOp", "walSyncsPerOp", "tempBytesPerOp",
        "tempFilesPerOp", "blocksReadPerOp", "cacheHitRatio")) {
      WireMetricsProfiler.ofFork(counter(counter), perOp.getOrDefault(counter, Double.NaN));
    }
    countersConnection.close();
    countersConnection = null;
  }

  /**
   * A statement the fork ran: this and its query id, its calls per operation the value (the
   * runner reads its plan: {@code JmhResults.queryIds}).
   */
  public static final String STATEMENT = "statementQueryId.";

  // "commitsPerOp" -> "serverCommitsPerOp": the names JmhJson reads as the cell's counters
  private static String counter(String name) {
    return "server" + Character.toUpperCase(name.charAt(0)) + name.substring(1);
  }

  private int publishMine() {
    int published = 0;
    for (Connection c : myConnections()) {
      published += ServerCounters.publish(c) ? 1 : 0;
    }
    return published;
  }

  // the WAL insert position: exact at once (the views lag), or -1 where there is none
  private long walPosition() throws SQLException {
    ownReads++;
    return ServerCounters.walPosition(countersConnection);
  }

  // every statement's work so far (pg_stat_statements: exact at once), or null without it
  private StatementStatistics statements() throws SQLException {
    if (statementView == null) {
      return null;
    }
    ownReads++;
    return StatementStatistics.read(countersConnection, statementView);
  }

  // with one thread every connection of the fork is this benchmark's; with more, its own
  private List<Connection> myConnections() {
    return lab.dataSource().openConnections(threads == 1 ? null : Thread.currentThread());
  }

  /**
   * What the operations cost ({@code counted}: pgjdbc's at its socket, any other client's at
   * the relay), checked against the relay's own count of pgjdbc's connections where there were
   * any: a difference is a bug in one of the two counts, never noise, and fails the run.
   */
  static WireStats agreed(WireStats counted, WireStats relayChecks) {
    if (relayChecks.bytesSent() != 0 && (counted.roundTrips() != relayChecks.roundTrips()
        || counted.statements() != relayChecks.statements()
        || counted.bytesSent() != relayChecks.bytesSent()
        || counted.bytesReceived() != relayChecks.bytesReceived())) {
      throw new IllegalStateException("The counting relay and pgjdbc's socket disagree on this"
          + " iteration: socket " + counted + "; relay " + relayChecks);
    }
    return counted;
  }

  // the relay's counts of the connections wire() counts at their sockets
  private WireStats relayed() {
    if (threads == 1) {
      return lab.lab().relay().checks().snapshot();
    }
    WireStats sum = WireStats.ZERO;
    for (Connection c : myConnections()) {
      WireCounter relayed = lab.lab().relay().wire(lab.dataSource().counterOf(c).localPort());
      sum = relayed == null ? sum : sum.plus(relayed.snapshot());
    }
    return sum;
  }

  private WireData data() {
    return counted(WireCounter::data, WireData.ZERO, WireData::plus);
  }

  private WireStats wire() {
    return counted(WireCounter::snapshot, WireStats.ZERO, WireStats::plus);
  }

  // with one thread, the Lab's counter (every connection of the fork); with more, the sum of
  // this thread's connections' counters
  private <T> T counted(Function<WireCounter, T> read, T zero, BinaryOperator<T> plus) {
    if (threads == 1) {
      return read.apply(lab.wire());
    }
    T sum = zero;
    for (Connection c : myConnections()) {
      sum = plus.apply(sum, read.apply(lab.dataSource().counterOf(c)));
    }
    return sum;
  }
}
