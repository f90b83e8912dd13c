package io.github.latencylab.batch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.github.latencylab.env.BackendKind;
import io.github.latencylab.env.Lab;
import io.github.latencylab.env.LabConfig;
import io.github.latencylab.latency.ToxicPlan.Toxic;
import io.github.latencylab.wire.WireDataSource;
import io.github.latencylab.wire.WireStats;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.postgresql.PGConnection;

/**
 * Crash consistency: every helper, and plain JDBC autocommit row by row as the reference, with
 * the connection cut, reset, stalled or sliced by Toxiproxy, or its session killed by
 * pg_terminate_backend, at seeded random points of the exchange. After each trial: the call
 * failed with an SQLException well before the watchdog (never a hang), or succeeded; the
 * table holds one of the states the helper promises (count and checksum: before or after for
 * an all-or-nothing load; exactly the committed batches with commitEachBatch, which the
 * exception reports; a prefix for the reference); no session of the trial is left on the
 * server; a retry on a new connection, resumed as docs/failure-behaviour.md says, leaves the
 * table exactly as one successful call would.
 *
 * <p>{@code ./mvnw verify} runs one trial per helper and fault kind (seed 11). The full sweep:
 * {@code ./mvnw -B -ntp -o test -pl core -am -Dtest=FaultSweepTest
 * -Dsurefire.failIfNoSpecifiedTests=false -Dlatencylab.faults.trials=100}
 * ({@code -Dlatencylab.faults.seed=N} for another draw; every failure names its seed, helper,
 * trial and fault, so it reproduces).
 */
class FaultSweepTest {

  private static final int ROWS = 1_000;
  // a round trip per row: a quarter of the load still leaves a partial table on every fault
  private static final int REFERENCE_ROWS = 250;
  private static final int BATCH = 250;
  private static final int SOCKET_TIMEOUT_SECONDS = 1;
  private static final long WATCHDOG_SECONDS = 30;
  private static final long SEED = Long.getLong("latencylab.faults.seed", 11);
  private static final int TRIALS =
      Integer.getInteger("latencylab.faults.trials", Fault.values().length);
  private static final List<Object[]> DATA = rows();
  private static final List<Object[]> SEED_ROWS = seedRows();

  private static Lab lab;
  private static WireDataSource trialConnections;
  private static ExecutorService loads;
  private static ScheduledExecutorService faults;
  private static final Map<Helper, Map<Fault, Tally>> TALLY = new EnumMap<>(Helper.class);

  /** Each helper as a caller would configure it, on a 1,000-row load. */
  enum Helper {
    COPY_CSV(true) {
      @Override
      long load(Connection c, List<Object[]> rows, AtomicLong done) throws SQLException {
        return copy().format(CopyLoader.Format.CSV).load(c, rows);
      }
    },
    COPY_BINARY(true) {
      @Override
      long load(Connection c, List<Object[]> rows, AtomicLong done) throws SQLException {
        return copy().format(CopyLoader.Format.BINARY).load(c, rows);
      }
    },
    /** Half the rows are there before: the load updates them and inserts the rest. */
    COPY_UPSERT(true) {
      @Override
      long load(Connection c, List<Object[]> rows, AtomicLong done) throws SQLException {
        return copy().format(CopyLoader.Format.BINARY).upsertOn("id").load(c, rows);
      }
    },
    CHUNKED_ONE_TRANSACTION(true) {
      @Override
      long load(Connection c, List<Object[]> rows, AtomicLong done) throws SQLException {
        return chunked().load(c, rows);
      }
    },
    CHUNKED_COMMIT_EACH_BATCH(false) {
      @Override
      long load(Connection c, List<Object[]> rows, AtomicLong done) throws SQLException {
        return chunked().commitEachBatch(true).load(c, rows);
      }
    },
    MULTI_ROW(true) {
      @Override
      long load(Connection c, List<Object[]> rows, AtomicLong done) throws SQLException {
        MultiRowInsert insert = MultiRowInsert.into("fault_item")
            .column("id", MultiRowInsert.PgType.INT8)
            .column("name", MultiRowInsert.PgType.TEXT)
            .column("amount", MultiRowInsert.PgType.NUMERIC)
            .column("payload", MultiRowInsert.PgType.BYTEA);
        return insert.rowsPerStatement(BATCH).load(c, rows); // 4 statements, one transaction
      }
    },
    UNNEST(true) {
      @Override
      long load(Connection c, List<Object[]> rows, AtomicLong done) throws SQLException {
        UnnestInsert insert = UnnestInsert.into("fault_item")
            .column("id", UnnestInsert.PgType.INT8)
            .column("name", UnnestInsert.PgType.TEXT)
            .column("amount", UnnestInsert.PgType.NUMERIC)
            .column("payload", UnnestInsert.PgType.BYTEA);
        return insert.rowsPerStatement(400).load(c, rows); // 3 statements, one transaction
      }
    },
    /** The reference: what a loop of executeUpdate leaves, one transaction per row. */
    JDBC_AUTOCOMMIT_EACH_ROW(false, REFERENCE_ROWS) {
      @Override
      long load(Connection c, List<Object[]> rows, AtomicLong done) throws SQLException {
        try (PreparedStatement insert = c.prepareStatement(
            "INSERT INTO fault_item (id, name, amount, payload) VALUES (?, ?, ?, ?)")) {
          for (Object[] row : rows) {
            for (int i = 0; i < row.length; i++) {
              insert.setObject(i + 1, row[i]);
            }
            insert.executeUpdate();
            done.incrementAndGet();
          }
        }
        return rows.size();
      }
    };

    final boolean allOrNothing;
    final int rows;

    Helper(boolean allOrNothing) {
      this(allOrNothing, ROWS);
    }

    Helper(boolean allOrNothing, int rows) {
      this.allOrNothing = allOrNothing;
      this.rows = rows;
    }

    List<Object[]> data() {
      return DATA.subList(0, rows);
    }

    abstract long load(Connection c, List<Object[]> rows, AtomicLong done) throws SQLException;

    static CopyLoader copy() {
      return CopyLoader.into("fault_item")
          .column("id", CopyLoader.PgType.INT8)
          .column("name", CopyLoader.PgType.TEXT)
          .column("amount", CopyLoader.PgType.NUMERIC)
          .column("payload", CopyLoader.PgType.BYTEA);
    }

    static ChunkedBatchInsert chunked() {
      return ChunkedBatchInsert.into("fault_item")
          .column("id", ChunkedBatchInsert.PgType.INT8)
          .column("name", ChunkedBatchInsert.PgType.TEXT)
          .column("amount", ChunkedBatchInsert.PgType.NUMERIC)
          .column("payload", ChunkedBatchInsert.PgType.BYTEA)
          .batchSize(BATCH); // 4 batches
    }
  }

  /** The fault kinds, taken in turn, each at a seeded random point. */
  enum Fault {
    /** limit_data on the client's stream: the connection closes after N bytes of the load. */
    CUT_UPSTREAM,
    /** limit_data on the server's stream. */
    CUT_DOWNSTREAM,
    /** reset_peer: a TCP RST some milliseconds into the load. */
    RESET_PEER,
    /** timeout: data stops, and the proxy closes the connection after a while or never. */
    TIMEOUT,
    /** slicer and latency on both streams: the bytes arrive in small pieces, late. */
    SLICER_LATENCY,
    /** bandwidth 0: nothing more gets through, the connection stays open. */
    BANDWIDTH_0,
    /** pg_terminate_backend of the load's session at a random moment. */
    TERMINATE_BACKEND
  }

  /** What the trials of one helper and fault found, for the summary. */
  static final class Tally {
    int trials;
    int failed;
    int inDoubtCommitted;
    int retriesRefusedAsDuplicate;
    long longestFailureMs;
    final java.util.SortedSet<String> tables = new java.util.TreeSet<>();
    final java.util.SortedSet<String> messages = new java.util.TreeSet<>();
  }

  // the shape of a message: numbers as N, pgjdbc's echo of a batch entry's values cut off
  private static String shape(Throwable failure) {
    String m = failure.getMessage().replaceAll("\\s+", " ");
    int entry = m.indexOf("Batch entry");
    if (entry >= 0) {
      int aborted = m.indexOf(" was aborted: ", entry);
      m = m.substring(0, entry) + "Batch entry N INSERT ..." + (aborted < 0 ? ""
          : m.substring(aborted));
    }
    return failure.getClass().getSimpleName() + ": " + m.replaceAll("\\d+", "N");
  }

  /** A clean load's cost, for placing the faults across it. */
  record Clean(WireStats wire, long millis) {
  }

  @BeforeAll
  static void start() {
    lab = Lab.start(LabConfig.fromEnvironment().withBackend(BackendKind.EMBEDDED));
    // what bounds a failure: socketTimeout for reads, connectTimeout for connecting
    trialConnections = lab.dataSource()
        .withProperty("socketTimeout", Integer.toString(SOCKET_TIMEOUT_SECONDS))
        .withProperty("connectTimeout", "5");
    loads = Executors.newSingleThreadExecutor(r -> daemon(r, "fault-load"));
    faults = Executors.newSingleThreadScheduledExecutor(r -> daemon(r, "fault-injector"));
  }

  private static Thread daemon(Runnable r, String name) {
    Thread t = new Thread(r, name);
    t.setDaemon(true);
    return t;
  }

  @AfterAll
  static void stop() {
    loads.shutdownNow();
    faults.shutdownNow();
    lab.close();
    StringBuilder summary = new StringBuilder("fault sweep, seed " + SEED + ", " + TRIALS
        + " trials per helper (" + ROWS + " rows each, the reference " + REFERENCE_ROWS
        + ", socketTimeout " + SOCKET_TIMEOUT_SECONDS
        + " s)\n\n| helper | fault | trials | failed | table after a failure | in doubt,"
        + " committed | retry refused as duplicate | longest failure |\n|---|---|---:|---:|---|"
        + "---:|---:|---:|\n");
    StringBuilder messages = new StringBuilder("\nwhat the callers saw (numbers as N):\n");
    TALLY.forEach((helper, byFault) -> {
      java.util.SortedSet<String> seen = new java.util.TreeSet<>();
      byFault.forEach((fault, t) -> {
        summary.append("| ").append(helper).append(" | ").append(fault).append(" | ")
            .append(t.trials).append(" | ").append(t.failed).append(" | ")
            .append(String.join("; ", t.tables)).append(" | ").append(t.inDoubtCommitted)
            .append(" | ").append(t.retriesRefusedAsDuplicate).append(" | ")
            .append(t.failed == 0 ? "" : t.longestFailureMs + " ms").append(" |\n");
        seen.addAll(t.messages);
      });
      messages.append(helper).append(":\n");
      seen.forEach(m -> messages.append("  ").append(m).append('\n'));
    });
    System.out.print(summary.append(messages));
  }

  @ParameterizedTest
  @EnumSource(Helper.class)
  void everyFaultLeavesAPromisedStateAndARetryCompletesTheLoad(Helper helper) throws Exception {
    Clean clean = cleanRun(helper);
    for (int trial = 0; trial < TRIALS; trial++) {
      Fault fault = Fault.values()[trial % Fault.values().length];
      Random random = new Random(SEED * 1_000_003L + helper.ordinal() * 10_007L + trial);
      trial(helper, fault, trial, random, clean);
    }
  }

  // the fastest of three clean loads, counted from an open connection: where faults can land
  private Clean cleanRun(Helper helper) throws Exception {
    Clean fastest = null;
    for (int run = 0; run < 3; run++) {
      resetTable(helper);
      // no fault here, so no tight socketTimeout: a WAL flush on a busy disk may take a second
      try (Connection c = lab.dataSource().getConnection()) {
        WireStats before = lab.wire(c).snapshot();
        long start = System.nanoTime();
        assertThat(helper.load(c, helper.data(), new AtomicLong())).isEqualTo(helper.rows);
        long millis = Math.max(1, (System.nanoTime() - start) / 1_000_000);
        if (fastest == null || millis < fastest.millis()) {
          fastest = new Clean(lab.wire(c).snapshot().minus(before), millis);
        }
      }
      assertThat(state()).as("%s without a fault", helper).isEqualTo(full(helper));
    }
    return fastest;
  }

  private void trial(Helper helper, Fault fault, int trial, Random random, Clean clean)
      throws Exception {
    resetTable(helper);
    List<AutoCloseable> toxics = new ArrayList<>();
    AtomicLong done = new AtomicLong();
    String what;
    Throwable failure = null;
    long elapsedMs;
    String appName = "fault-trial-" + helper.ordinal() + "-" + trial;
    Connection c = trialConnections.withProperty("ApplicationName", appName).getConnection();
    try {
      int pid = c.unwrap(PGConnection.class).getBackendPID();
      long at = random.nextInt((int) (clean.millis() * 2 / 3) + 1); // ms into the load
      Consumer<Lab.AddedToxic> keep = toxics::add;
      ScheduledFuture<?> scheduled = null;
      switch (fault) {
        case CUT_UPSTREAM -> {
          long bytes = (long) (random.nextDouble() * clean.wire().bytesSent());
          keep.accept(lab.addToxic(toxic("upstream", "limit_data", "bytes", bytes)));
          what = "limit_data upstream after " + bytes + " of " + clean.wire().bytesSent() + " B";
        }
        case CUT_DOWNSTREAM -> {
          long bytes = (long) (random.nextDouble() * clean.wire().bytesReceived());
          keep.accept(lab.addToxic(toxic("downstream", "limit_data", "bytes", bytes)));
          what = "limit_data downstream after " + bytes + " of " + clean.wire().bytesReceived()
              + " B";
        }
        case RESET_PEER -> {
          String stream = random.nextBoolean() ? "upstream" : "downstream";
          keep.accept(lab.addToxic(toxic(stream, "reset_peer", "timeout", at)));
          what = "reset_peer " + stream + " " + at + " ms after its first bytes";
        }
        case TIMEOUT -> {
          String stream = random.nextBoolean() ? "upstream" : "downstream";
          long closeAfter = random.nextBoolean() ? 0 : 50 + random.nextInt(400);
          scheduled = faults.schedule(() -> keep.accept(lab.addToxic(
              toxic(stream, "timeout", "timeout", closeAfter))), at, TimeUnit.MILLISECONDS);
          what = "timeout " + stream + " at " + at + " ms, " + (closeAfter == 0 ? "never closing"
              : "closing after " + closeAfter + " ms");
        }
        case SLICER_LATENCY -> {
          long size = 1 + random.nextInt(64);
          long delayUs = random.nextInt(50);
          for (String stream : new String[] {"upstream", "downstream"}) {
            keep.accept(lab.addToxic(new Toxic(stream, "slicer", Map.of("average_size", size,
                "size_variation", size / 2, "delay", delayUs))));
          }
          keep.accept(lab.addToxic(toxic("downstream", "latency", "latency", 1)));
          what = "slicer " + size + " B ±" + size / 2 + " every " + delayUs + " us both ways,"
              + " latency 1 ms";
        }
        case BANDWIDTH_0 -> {
          String stream = random.nextBoolean() ? "upstream" : "downstream";
          scheduled = faults.schedule(() -> keep.accept(lab.addToxic(
              toxic(stream, "bandwidth", "rate", 0))), at, TimeUnit.MILLISECONDS);
          what = "bandwidth 0 " + stream + " from " + at + " ms";
        }
        case TERMINATE_BACKEND -> {
          scheduled = faults.schedule(() -> terminate(pid), at, TimeUnit.MILLISECONDS);
          what = "pg_terminate_backend at " + at + " ms";
        }
        default -> throw new IllegalStateException(fault.name());
      }
      long start = System.nanoTime();
      Future<Long> load = loads.submit(() -> helper.load(c, helper.data(), done));
      try {
        assertThat(load.get(WATCHDOG_SECONDS, TimeUnit.SECONDS)).isEqualTo(helper.rows);
      } catch (ExecutionException e) {
        failure = e.getCause();
      } catch (TimeoutException hang) {
        load.cancel(true);
        c.abort(Runnable::run);
        fail("seed %d %s trial %d (%s): no answer within the %d s watchdog", SEED, helper,
            trial, what, WATCHDOG_SECONDS);
      }
      elapsedMs = (System.nanoTime() - start) / 1_000_000;
      if (scheduled != null) {
        // never cancelled: a cancelled task that has begun still runs, and would add its
        // toxic after the removal below; at most a clean load's time away
        scheduled.get();
      }
    } finally {
      for (AutoCloseable toxic : toxics) {
        toxic.close();
      }
      try {
        c.close();
      } catch (SQLException e) {
        // pgjdbc's close() throws when its goodbye meets a broken socket (it closes it
        // anyway): in a caller's try-with-resources a suppressed exception of the failure
        if (failure == null) {
          throw e;
        }
        failure.addSuppressed(e);
      }
    }
    String context = String.format("seed %d %s trial %d (%s), failure %s", SEED, helper, trial,
        what, failure);
    System.out.println(context + ", " + elapsedMs + " ms");
    Tally tally = TALLY.computeIfAbsent(helper, h -> new EnumMap<>(Fault.class))
        .computeIfAbsent(fault, f -> new Tally());
    tally.trials++;
    awaitNoSession(appName, context);

    State after = state();
    long resumeAt;
    boolean inDoubt;
    if (failure == null) {
      assertThat(after).as(context).isEqualTo(full(helper));
      resumeAt = helper.rows;
      inDoubt = false;
    } else {
      tally.failed++;
      tally.longestFailureMs = Math.max(tally.longestFailureMs, elapsedMs);
      assertThat(failure).as(context).isInstanceOf(SQLException.class);
      assertThat(failure.getMessage()).as(context).isNotBlank();
      if (helper.allOrNothing) {
        // all or nothing; "all" only when the end of the load got no answer (commit in doubt)
        assertThat(after).as(context).isIn(before(helper), full(helper));
        inDoubt = after.equals(full(helper));
        resumeAt = 0;
      } else {
        long committed = helper == Helper.JDBC_AUTOCOMMIT_EACH_ROW ? done.get()
            : failure instanceof ChunkedBatchInsert.PartiallyCommittedException p
                ? p.committedRows() : 0;
        long inDoubtRows = helper == Helper.JDBC_AUTOCOMMIT_EACH_ROW ? 1 : BATCH;
        if (helper == Helper.CHUNKED_COMMIT_EACH_BATCH) {
          assertThat(committed % BATCH).as(context).isZero();
        }
        // exactly what the exception says, or one more batch (row) whose COMMIT got no answer
        assertThat(after).as(context).isIn(prefix(committed),
            prefix(Math.min(helper.rows, committed + inDoubtRows)));
        inDoubt = !after.equals(prefix(committed));
        if (inDoubt && helper == Helper.CHUNKED_COMMIT_EACH_BATCH) {
          assertThat(failure.getMessage()).as(context).contains("may be in the table or not");
        }
        resumeAt = committed;
      }
      if (inDoubt) {
        tally.inDoubtCommitted++;
      }
      tally.messages.add(shape(failure));
      tally.tables.add(helper.allOrNothing ? (inDoubt ? "all (commit in doubt)"
          : helper == Helper.COPY_UPSERT ? "as before" : "empty")
          : helper == Helper.JDBC_AUTOCOMMIT_EACH_ROW
              ? (inDoubt ? "rows before it + 1 (commit in doubt)" : "rows before it")
              : (inDoubt ? "committed batches + 1 (commit in doubt)" : "committed batches"));
    }
    // the retry: the same call on a new connection, from where the exception says
    if (failure != null) {
      try {
        retry(helper, resumeAt);
      } catch (SQLException duplicate) {
        // the part whose end got no answer was committed: the key refuses it a second time,
        // and the caller resumes after what the table holds
        assertThat(duplicate.getSQLState()).as(context + ", retry: " + duplicate)
            .isEqualTo("23505");
        assertThat(inDoubt).as(context + ", retry refused though nothing was in doubt").isTrue();
        tally.retriesRefusedAsDuplicate++;
        if (after.count() < helper.rows) {
          retry(helper, after.count());
        }
      }
    }
    assertThat(state()).as(context + ", after the retry").isEqualTo(full(helper));
  }

  private static void retry(Helper helper, long from) throws SQLException {
    try (Connection c = trialConnections.getConnection()) {
      helper.load(c, helper.data().subList((int) from, helper.rows), new AtomicLong());
    }
  }

  private static Toxic toxic(String stream, String type, String attribute, long value) {
    return new Toxic(stream, type, Map.of(attribute, value));
  }

  private static void terminate(int pid) {
    try (Connection c = lab.directDataSource().getConnection();
        Statement st = c.createStatement()) {
      st.execute("SELECT pg_terminate_backend(" + pid + ")");
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The trial's session must go: the server notices a closed socket at its next read. */
  private static void awaitNoSession(String appName, String context) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    int sessions;
    do {
      try (Connection c = lab.directDataSource().getConnection();
          PreparedStatement st = c.prepareStatement(
              "SELECT count(*) FROM pg_stat_activity WHERE application_name = ?")) {
        st.setString(1, appName);
        try (ResultSet rs = st.executeQuery()) {
          rs.next();
          sessions = rs.getInt(1);
        }
      }
      if (sessions > 0) {
        Thread.sleep(20);
      }
    } while (sessions > 0 && System.nanoTime() < deadline);
    assertThat(sessions).as(context + ": sessions left on the server").isZero();
  }

  private static void resetTable(Helper helper) throws SQLException {
    try (Connection c = lab.directDataSource().getConnection();
        Statement st = c.createStatement()) {
      st.execute("DROP TABLE IF EXISTS fault_item; CREATE TABLE fault_item (id int8 PRIMARY KEY,"
          + " name text NOT NULL, amount numeric(12,2) NOT NULL, payload bytea NOT NULL)");
      if (helper == Helper.COPY_UPSERT) {
        Helper.copy().load(c, SEED_ROWS);
      }
    }
  }

  /** Count and md5 of the table's content in id order. */
  record State(long count, String md5) {
  }

  private static State state() throws SQLException {
    try (Connection c = lab.directDataSource().getConnection();
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT count(*), count(DISTINCT id), coalesce(md5("
            + "string_agg(id || ':' || name || ':' || amount || ':' || encode(payload, 'hex'),"
            + " '|' ORDER BY id)), '') FROM fault_item")) {
      rs.next();
      assertThat(rs.getLong(2)).as("duplicate ids").isEqualTo(rs.getLong(1));
      return new State(rs.getLong(1), rs.getString(3));
    }
  }

  private static State full(Helper helper) {
    return prefix(helper.rows);
  }

  private static State before(Helper helper) {
    return helper == Helper.COPY_UPSERT ? of(SEED_ROWS) : prefix(0);
  }

  private static State prefix(long n) {
    return of(DATA.subList(0, (int) n));
  }

  private static State of(List<Object[]> rows) {
    if (rows.isEmpty()) {
      return new State(0, "");
    }
    StringBuilder text = new StringBuilder();
    for (Object[] row : rows) {
      if (text.length() > 0) {
        text.append('|');
      }
      text.append(row[0]).append(':').append(row[1]).append(':')
          .append(((BigDecimal) row[2]).toPlainString()).append(':')
          .append(HexFormat.of().formatHex((byte[]) row[3]));
    }
    try {
      return new State(rows.size(), HexFormat.of().formatHex(MessageDigest.getInstance("MD5")
          .digest(text.toString().getBytes(StandardCharsets.UTF_8))));
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  // text that COPY's formats must escape: quotes, separators, a line break, non-ASCII
  private static List<Object[]> rows() {
    Random random = new Random(42);
    List<Object[]> rows = new ArrayList<>(ROWS);
    for (long i = 0; i < ROWS; i++) {
      byte[] payload = new byte[16];
      random.nextBytes(payload);
      rows.add(new Object[] {i, "row " + i + " \"q\", a\tb\\c" + (i % 7 == 0 ? "\nnext" : "")
          + " é€", BigDecimal.valueOf(random.nextInt(10_000_000) - 5_000_000L, 2), payload});
    }
    return List.copyOf(rows);
  }

  private static List<Object[]> seedRows() {
    List<Object[]> seed = new ArrayList<>();
    for (long i = 0; i < ROWS / 2; i++) {
      seed.add(new Object[] {i, "seed " + i, BigDecimal.ONE.setScale(2), new byte[] {1}});
    }
    return List.copyOf(seed);
  }
}
