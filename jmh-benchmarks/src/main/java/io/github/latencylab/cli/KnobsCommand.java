package io.github.latencylab.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.latencylab.bench.tpcb.TpcbData;
import io.github.latencylab.bench.tpcb.TpcbDriver;
import io.github.latencylab.bench.tpcb.TpcbTransaction;
import io.github.latencylab.env.Lab;
import io.github.latencylab.env.LabEnvironment;
import io.github.latencylab.latency.Rtt;
import io.github.latencylab.server.PgSetting;
import io.github.latencylab.server.ServerCounters;
import io.github.latencylab.server.SettingChange;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code ./latency-lab knobs}: the server-side findings of the field reports, measured on the
 * Lab's server with its settings changed by name: wal_buffers on the TPC-B transaction (WAL
 * bytes per transaction), work_mem on a sort that spills, shared_buffers smaller and larger
 * than the data set, and the buffer cache cold after a restart, warm, and prewarmed.
 */
@Command(name = "knobs", mixinStandardHelpOptions = true,
    description = {"Measures what the field reports' server knobs do, on the Lab's server:"
        + " wal_buffers on the TPC-B transaction, work_mem on a sort that spills,"
        + " shared_buffers smaller and larger than the data set, and the buffer cache cold"
        + " after a restart, warm, and prewarmed with pg_prewarm. Each setting is applied with"
        + " ALTER SYSTEM (a restart where it needs one) and restored."})
@SuppressWarnings("try") // each SettingChange is a scope: closing it restores the setting
public final class KnobsCommand implements Callable<Integer> {

  static final List<String> EXPERIMENTS = List.of("wal-buffers", "work-mem", "shared-buffers",
      "cache");

  @Option(names = "--experiments", paramLabel = "LIST", split = ",",
      defaultValue = "wal-buffers,work-mem,shared-buffers,cache",
      description = "Which to run (default: ${DEFAULT-VALUE})")
  List<String> experiments;

  @Option(names = "--duration", paramLabel = "SECONDS", defaultValue = "5",
      description = "Seconds each timed run lasts (default: ${DEFAULT-VALUE})")
  int seconds;

  @Option(names = "--scale", paramLabel = "N", defaultValue = "5",
      description = "pgbench scale of the tables (default: ${DEFAULT-VALUE}: ~75 MB with the"
          + " primary key, bigger than a 16 MB shared_buffers, smaller than the default 128 MB)")
  int scale;

  @Option(names = "--wal-buffers", paramLabel = "LIST", split = ",",
      defaultValue = "-1,2MB,16MB,64MB,512MB",
      description = "wal_buffers values (default: ${DEFAULT-VALUE}; -1: 1/32 of shared_buffers)")
  List<String> walBuffers;

  @Option(names = "--work-mem", paramLabel = "LIST", split = ",",
      defaultValue = "4MB,16MB,64MB,256MB",
      description = "work_mem values (default: ${DEFAULT-VALUE}; at scale 5 the sort needs ~50 MB"
          + " on disk and more in memory)")
  List<String> workMem;

  @Option(names = "--shared-buffers", paramLabel = "LIST", split = ",",
      defaultValue = "16MB,128MB",
      description = "shared_buffers values (default: ${DEFAULT-VALUE})")
  List<String> sharedBuffers;

  @Option(names = "--rtt", paramLabel = "RTT", defaultValue = "0ms",
      description = "Added RTT of the timed runs' connections (default: ${DEFAULT-VALUE}: the"
          + " server's side alone)")
  String rtt;

  @Mixin
  JsonOption json;

  @Mixin
  LabOptions labOptions;

  /**
   * One wal_buffers value; per transaction: WAL bytes, WAL flushes (a synchronous commit waits
   * for one), writes because the buffers were full, whole pages logged after the checkpoint.
   */
  record WalBuffersRow(String walBuffers, String inEffect, long transactions, double tps,
      double latencyMs, double walBytesPerTransaction, double walSyncsPerTransaction,
      double walBuffersFullPerTransaction, double fullPageImagesPerTransaction) {
  }

  record WorkMemRow(String workMem, String sortMethod, String sortSpaceType, long sortSpaceKb,
      long tempBytes, long tempFiles, double executionMs) {
  }

  record SharedBuffersRow(String sharedBuffers, double dataSetMb, long transactions, double tps,
      double latencyMs, double cacheHitRatio, double blocksReadPerTransaction) {
  }

  record CacheRun(String state, long sharedHit, long sharedRead, double executionMs,
      double ioReadMs) {
  }

  record CacheExperiment(String table, long pages, String query, List<CacheRun> runs) {
  }

  record Report(String kind, String measuredAt, int scale, int durationSeconds, String rtt,
      LabEnvironment environment, List<PgSetting> serverSettings, List<WalBuffersRow> walBuffers,
      String workMemQuery, List<WorkMemRow> workMem, List<SharedBuffersRow> sharedBuffers,
      CacheExperiment cache) {
  }

  static final String SORT = "SELECT aid, abalance, filler FROM pgbench_accounts"
      + " ORDER BY filler DESC, abalance, aid DESC";

  @Override
  public Integer call() throws Exception {
    for (String e : experiments) {
      if (!EXPERIMENTS.contains(e)) {
        throw new IllegalArgumentException("Invalid --experiments value '" + e + "': expected"
            + " one or more of " + String.join(", ", EXPERIMENTS));
      }
    }
    if (seconds < 1 || scale < 1) {
      throw new IllegalArgumentException("--duration and --scale must be at least 1");
    }
    Rtt added = Rtt.parse(rtt);
    List<WalBuffersRow> wal = new ArrayList<>();
    List<WorkMemRow> sorts = new ArrayList<>();
    List<SharedBuffersRow> buffers = new ArrayList<>();
    CacheExperiment cache = null;
    LabEnvironment environment;
    List<PgSetting> settings;
    try (Lab lab = Lab.start(labOptions.config());
        Progress progress = new Progress("knobs", experiments.size() + 1)) {
      System.err.println("latency-lab: " + lab.describe());
      settings = lab.settings().snapshot();
      environment = lab.environment();
      progress.working("pgbench -i -s " + scale + " (JDBC twin)");
      TpcbData.initialize(lab.directDataSource(), scale);
      lab.measure(added);
      progress.step();
      if (experiments.contains("wal-buffers")) {
        progress.working("wal_buffers " + walBuffers);
        for (String v : walBuffers) {
          wal.add(walBuffers(lab, v));
        }
        progress.step();
      }
      if (experiments.contains("work-mem")) {
        progress.working("work_mem " + workMem);
        for (String v : workMem) {
          sorts.add(workMem(lab, v));
        }
        progress.step();
      }
      if (experiments.contains("shared-buffers")) {
        progress.working("shared_buffers " + sharedBuffers);
        for (String v : sharedBuffers) {
          buffers.add(sharedBuffers(lab, v));
        }
        progress.step();
      }
      if (experiments.contains("cache")) {
        progress.working("cold vs warm cache");
        cache = cache(lab);
        progress.step();
      }
    }
    Report report = new Report("knobs", Instant.now().toString(), scale, seconds, rtt,
        environment, settings, wal, SORT, sorts, buffers, cache);
    System.out.println();
    System.out.print(text(report));
    json.write(() -> report, System.out::println);
    return 0;
  }

  private WalBuffersRow walBuffers(Lab lab, String value) throws Exception {
    try (SettingChange change = lab.settings().set("wal_buffers", value)) {
      String inEffect = lab.settings().get("wal_buffers").value();
      TpcbData.prepareRun(lab.directDataSource());
      Measured<TpcbDriver.Result> m = counted(lab, () -> TpcbDriver.run(lab.dataSource(), 1,
          Duration.ofSeconds(seconds), Duration.ofSeconds(1), (c, i) -> {
            TpcbTransaction.Client client = new TpcbTransaction.Client(c,
                TpcbTransaction.statementByStatement, scale, 42L + i);
            return client::transaction;
          }));
      // per commit: the warmup's transactions count on the server too
      ServerCounters s = m.server();
      double commits = s.commits();
      return new WalBuffersRow(value, inEffect, m.value().transactions(), m.value().tps(),
          m.value().latencyMs(), s.walBytes() / commits, s.walSyncs() / commits,
          s.walBuffersFull() / commits, s.walFullPageImages() / commits);
    }
  }

  private WorkMemRow workMem(Lab lab, String value) throws Exception {
    try (SettingChange change = lab.settings().set("work_mem", value)) {
      JsonNode plan = null;
      double[] times = new double[3];
      ServerCounters cost = null;
      for (int i = 0; i < times.length; i++) {
        Measured<JsonNode> m = counted(lab, () -> explain(lab, SORT));
        plan = m.value();
        cost = m.server();
        times[i] = plan.path("Execution Time").asDouble();
      }
      JsonNode sort = find(plan.path("Plan"), "Sort");
      Arrays.sort(times);
      return new WorkMemRow(value, sort.path("Sort Method").asText(),
          sort.path("Sort Space Type").asText(), sort.path("Sort Space Used").asLong(),
          cost.tempBytes(), cost.tempFiles(), times[1]);
    }
  }

  private SharedBuffersRow sharedBuffers(Lab lab, String value) throws Exception {
    try (SettingChange change = lab.settings().set("shared_buffers", value)) {
      double dataSetMb;
      try (Connection c = lab.directDataSource().getConnection(); Statement st = c.createStatement();
          ResultSet rs = st.executeQuery("SELECT pg_total_relation_size('pgbench_accounts')"
              + " / 1048576.0")) {
        rs.next();
        dataSetMb = rs.getDouble(1);
        // what fits is cached, as on a server that has run for a while
        st.execute("CREATE EXTENSION IF NOT EXISTS pg_prewarm");
        st.executeQuery("SELECT pg_prewarm('pgbench_accounts_pkey'),"
            + " pg_prewarm('pgbench_accounts')").close();
      }
      int accounts = TpcbData.ACCOUNTS * scale;
      Measured<TpcbDriver.Result> m = counted(lab, () -> TpcbDriver.run(lab.dataSource(), 1,
          Duration.ofSeconds(seconds), Duration.ofSeconds(1), (c, i) -> {
            // pgbench -S: SELECT abalance FROM pgbench_accounts WHERE aid = :aid
            PreparedStatement select = c.prepareStatement(
                "SELECT abalance FROM pgbench_accounts WHERE aid = ?");
            SplittableRandom random = new SplittableRandom(42L + i);
            return () -> {
              select.setInt(1, random.nextInt(1, accounts + 1));
              try (ResultSet rs = select.executeQuery()) {
                rs.next();
              }
            };
          }));
      return new SharedBuffersRow(lab.settings().get("shared_buffers").value(), dataSetMb,
          m.value().transactions(), m.value().tps(), m.value().latencyMs(),
          m.server().cacheHitRatio(), (double) m.server().blocksRead() / m.server().commits());
    }
  }

  private static CacheExperiment cache(Lab lab) throws Exception {
    String table = "latency_lab_cache_probe";
    String query = "SELECT count(*), sum(length(pad)) FROM " + table;
    long pages;
    try (Connection c = lab.directDataSource().getConnection(); Statement st = c.createStatement()) {
      st.execute("DROP TABLE IF EXISTS " + table);
      // ~3,400 pages (27 MB): several thousand, and under a quarter of the default 128 MB
      // shared_buffers, past which a sequential scan reads through a small ring instead
      st.execute("CREATE TABLE " + table + " AS SELECT g AS id, rpad(g::text, 100, 'x') AS pad"
          + " FROM generate_series(1, 200000) g");
      st.execute("CREATE EXTENSION IF NOT EXISTS pg_prewarm");
      st.execute("CHECKPOINT");
      try (ResultSet rs = st.executeQuery("SELECT pg_relation_size('" + table + "') / 8192")) {
        rs.next();
        pages = rs.getLong(1);
      }
    }
    List<CacheRun> runs = new ArrayList<>();
    try (SettingChange timing = lab.settings().set("track_io_timing", "on")) {
      lab.restartServer();
      runs.add(cacheRun(lab, "cold: first run after a restart", query));
      runs.add(cacheRun(lab, "warm: the same query again", query));
      lab.restartServer();
      try (Connection c = lab.directDataSource().getConnection(); Statement st = c.createStatement()) {
        st.executeQuery("SELECT pg_prewarm('" + table + "')").close();
      }
      runs.add(cacheRun(lab, "prewarmed: after a restart and pg_prewarm", query));
    }
    return new CacheExperiment(table, pages, query, runs);
  }

  private static CacheRun cacheRun(Lab lab, String state, String query) throws SQLException {
    JsonNode plan = explain(lab, query);
    JsonNode top = plan.path("Plan");
    return new CacheRun(state, top.path("Shared Hit Blocks").asLong(),
        top.path("Shared Read Blocks").asLong(), plan.path("Execution Time").asDouble(),
        top.path("I/O Read Time").asDouble(top.path("Shared I/O Read Time").asDouble()));
  }

  private static JsonNode explain(Lab lab, String query) throws SQLException {
    try (Connection c = lab.directDataSource().getConnection(); Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) " + query)) {
      rs.next();
      return new ObjectMapper().readTree(rs.getString(1)).get(0);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException("Cannot read EXPLAIN's JSON: " + e.getMessage(), e);
    }
  }

  private static JsonNode find(JsonNode plan, String nodeType) {
    if (nodeType.equals(plan.path("Node Type").asText())) {
      return plan;
    }
    for (JsonNode child : plan.path("Plans")) {
      JsonNode found = find(child, nodeType);
      if (found != null) {
        return found;
      }
    }
    return null;
  }

  record Measured<T>(T value, ServerCounters server) {
  }

  @FunctionalInterface
  interface Work<T> {
    T run() throws Exception;
  }

  // the server's counters around work whose connections are closed when it returns
  private static <T> Measured<T> counted(Lab lab, Work<T> work) throws Exception {
    try (Connection reader = lab.directDataSource().getConnection()) {
      String earlier = sessions(reader);
      ServerCounters before = ServerCounters.read(reader);
      T value = work.run();
      awaitSessionsGone(reader, earlier);
      ServerCounters after = ServerCounters.read(reader);
      return new Measured<>(value, after.minus(before).lessCommits(ServerCounters.OWN_COMMITS));
    }
  }

  private static String sessions(Connection reader) throws SQLException {
    try (Statement st = reader.createStatement(); ResultSet rs = st.executeQuery(
        "SELECT coalesce(string_agg(pid::text, ','), '0') FROM pg_stat_activity"
            + " WHERE backend_type = 'client backend'")) {
      rs.next();
      return rs.getString(1);
    }
  }

  // a closed session publishes its statistics as it exits, a moment after the client closed it
  private static void awaitSessionsGone(Connection reader, String earlier) throws Exception {
    for (int i = 0; i < 500; i++) {
      try (Statement st = reader.createStatement(); ResultSet rs = st.executeQuery(
          "SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend'"
              + " AND pid NOT IN (" + earlier + ")")) {
        rs.next();
        if (rs.getInt(1) == 0) {
          return;
        }
      }
      Thread.sleep(10);
    }
  }

  static String text(Report r) {
    StringBuilder t = new StringBuilder();
    if (!r.walBuffers().isEmpty()) {
      t.append("wal_buffers: TPC-B, 1 client, ").append(r.durationSeconds()).append(" s each\n");
      t.append(String.format(Locale.ROOT, "%-12s %-10s %9s %10s %12s %10s %10s %10s%n",
          "wal_buffers", "in effect", "TPS", "latency", "WAL/txn", "flushes", "full", "pages"));
      for (WalBuffersRow w : r.walBuffers()) {
        t.append(String.format(Locale.ROOT, "%-12s %-10s %9.1f %7.2f ms %10.0f B %10.2f %10.3f"
            + " %10.2f%n", w.walBuffers(), w.inEffect(), w.tps(), w.latencyMs(),
            w.walBytesPerTransaction(), w.walSyncsPerTransaction(),
            w.walBuffersFullPerTransaction(), w.fullPageImagesPerTransaction()));
      }
      t.append("per transaction: WAL bytes, WAL flushes, writes because wal_buffers were full,"
          + " whole pages logged (first change after the restart's checkpoint)\n");
      t.append('\n');
    }
    if (!r.workMem().isEmpty()) {
      t.append("work_mem: ").append(r.workMemQuery()).append('\n');
      t.append(String.format(Locale.ROOT, "%-9s %-16s %12s %12s %10s%n", "work_mem",
          "sort method", "sort space", "temp bytes", "time"));
      for (WorkMemRow w : r.workMem()) {
        t.append(String.format(Locale.ROOT, "%-9s %-16s %9d kB %12d %7.1f ms%n", w.workMem(),
            w.sortMethod(), w.sortSpaceKb(), w.tempBytes(), w.executionMs()));
      }
      t.append('\n');
    }
    if (!r.sharedBuffers().isEmpty()) {
      t.append("shared_buffers: random primary-key reads (pgbench -S), 1 client\n");
      t.append(String.format(Locale.ROOT, "%-14s %10s %9s %10s %10s %12s%n", "shared_buffers",
          "data set", "TPS", "latency", "hit ratio", "reads/txn"));
      for (SharedBuffersRow s : r.sharedBuffers()) {
        t.append(String.format(Locale.ROOT, "%-14s %7.0f MB %9.1f %7.3f ms %9.1f%% %12.2f%n",
            s.sharedBuffers(), s.dataSetMb(), s.tps(), s.latencyMs(), 100 * s.cacheHitRatio(),
            s.blocksReadPerTransaction()));
      }
      t.append('\n');
    }
    if (r.cache() != null) {
      t.append("buffer cache: ").append(r.cache().query()).append(" (").append(r.cache().pages())
          .append(" pages)\n");
      t.append(String.format(Locale.ROOT, "%-44s %10s %10s %10s %10s%n", "", "shared hit",
          "read", "time", "I/O read"));
      for (CacheRun c : r.cache().runs()) {
        t.append(String.format(Locale.ROOT, "%-44s %10d %10d %7.1f ms %7.1f ms%n", c.state(),
            c.sharedHit(), c.sharedRead(), c.executionMs(), c.ioReadMs()));
      }
    }
    return t.toString();
  }
}
