package io.github.latencylab.server;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * What the server did for each statement, by the server itself: pg_stat_statements, read on a
 * connection of its own. Its counters are the statement's own (the buffers its execution
 * touched, the WAL and temporary files it wrote), added when the statement ends, for every
 * session: no background work (autovacuum, the checkpointer) and nothing published late, so no
 * extra statement on the measured connections. Two reads' {@link #since difference} is what
 * ran between them; a statement is found by the query identifier EXPLAIN gives its plan
 * ({@link QueryPlan#queryId()}).
 */
public final class StatementStatistics {

  /**
   * What the Lab's own reads of the server begin with, so that they are not counted as the
   * work they read (pg_stat_statements keeps a statement's comments).
   */
  public static final String OWN = "/* latency-lab */ ";

  /**
   * One statement's counters.
   *
   * @param calls executions
   * @param rows rows returned or changed
   * @param blocksHit shared buffers found in the cache
   * @param blocksRead shared buffers read from the OS (its cache or the disk)
   * @param tempBytes bytes written to temporary files (sorts and hashes past work_mem)
   * @param walBytes WAL written
   * @param serverMs time executing (planning not included)
   */
  public record Work(long calls, long rows, long blocksHit, long blocksRead, long tempBytes,
      long walBytes, double serverMs) {

    public static final Work NONE = new Work(0, 0, 0, 0, 0, 0, 0);

    /** Shared buffers touched: hit or read. */
    public long blocks() {
      return blocksHit + blocksRead;
    }

    public Work plus(Work o) {
      return new Work(calls + o.calls, rows + o.rows, blocksHit + o.blocksHit,
          blocksRead + o.blocksRead, tempBytes + o.tempBytes, walBytes + o.walBytes,
          serverMs + o.serverMs);
    }

    Work minus(Work o) {
      return new Work(calls - o.calls, rows - o.rows, blocksHit - o.blocksHit,
          blocksRead - o.blocksRead, tempBytes - o.tempBytes, walBytes - o.walBytes,
          serverMs - o.serverMs);
    }
  }

  private final Map<Long, Work> byQueryId;

  private StatementStatistics(Map<Long, Work> byQueryId) {
    this.byQueryId = byQueryId;
  }

  /**
   * Where pg_stat_statements can be read on {@code c}'s database: the view's qualified name,
   * creating the extension when {@code create} (a server the Lab owns) and the library is
   * loaded; else the one line that says why not.
   */
  public static Located locate(Connection c, boolean create) throws SQLException {
    String database;
    boolean loaded;
    try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT"
        + " current_database(), current_setting('shared_preload_libraries')"
        + " ~ '(^|[ ,])pg_stat_statements($|[ ,])'")) {
      rs.next();
      database = rs.getString(1);
      loaded = rs.getBoolean(2);
    }
    if (!loaded) {
      return new Located(null, "the server's work per statement is not counted:"
          + " pg_stat_statements is not in shared_preload_libraries of the database " + database + " (add it and"
          + " restart the server to count buffers, WAL and temp bytes per statement)");
    }
    String schema = schema(c);
    if (schema == null && create) {
      try (Statement st = c.createStatement()) {
        st.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements SCHEMA public");
      }
      schema = schema(c);
    }
    if (schema == null) {
      return new Located(null, "the server's work per statement is not counted:"
          + " pg_stat_statements is loaded but not created in the database " + database + " (CREATE EXTENSION"
          + " pg_stat_statements)");
    }
    return new Located("\"" + schema.replace("\"", "\"\"") + "\".pg_stat_statements", null);
  }

  private static String schema(Connection c) throws SQLException {
    try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT"
        + " extnamespace::regnamespace::text FROM pg_extension"
        + " WHERE extname = 'pg_stat_statements'")) {
      return rs.next() ? rs.getString(1).replace("\"", "") : null;
    }
  }

  /** Every top-level statement's counters on {@code c}'s database now. */
  public static StatementStatistics read(Connection c, String view) throws SQLException {
    Map<Long, Work> all = new HashMap<>();
    try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(OWN + "SELECT"
        + " queryid, calls, rows, shared_blks_hit, shared_blks_read,"
        + " temp_blks_written * current_setting('block_size')::bigint, wal_bytes::bigint,"
        + " total_exec_time FROM " + view + " WHERE toplevel AND dbid ="
        + " (SELECT oid FROM pg_database WHERE datname = current_database())"
        + " AND query NOT LIKE '" + OWN.strip() + "%'")) {
      while (rs.next()) {
        // one query id per user: the same statement of two users adds up
        all.merge(rs.getLong(1), new Work(rs.getLong(2), rs.getLong(3), rs.getLong(4),
            rs.getLong(5), rs.getLong(6), rs.getLong(7), rs.getDouble(8)), Work::plus);
      }
    }
    return new StatementStatistics(all);
  }

  /**
   * The counters of the top-level statements of {@code queryIds} (null: every one) on {@code
   * c}'s database now, read without their texts (pg_stat_statements' function with showtext
   * off, which leaves its query file unread): for a test's stretch, read before it and after,
   * each a short read.
   */
  public static StatementStatistics readOf(Connection c, String view, Collection<Long> queryIds)
      throws SQLException {
    if (queryIds != null && queryIds.isEmpty()) {
      return new StatementStatistics(new HashMap<>());
    }
    try (PreparedStatement st = c.prepareStatement(sqlOf(view, queryIds != null))) {
      if (queryIds != null) {
        st.setString(1, queryIds(queryIds));
      }
      try (ResultSet rs = st.executeQuery()) {
        return of(rs);
      }
    }
  }

  /**
   * The query of {@link #readOf}: with {@code byQueryId}, of the query ids of one parameter
   * (an int8 array's text, {@link #queryIds}).
   */
  public static String sqlOf(String view, boolean byQueryId) {
    String[] both = SQL.computeIfAbsent(view, v -> {
      String all = OWN + "SELECT queryid, calls, rows, shared_blks_hit, shared_blks_read,"
          + " temp_blks_written * current_setting('block_size')::bigint, wal_bytes::bigint,"
          + " total_exec_time FROM " + v + "(false) WHERE toplevel AND dbid ="
          + " (SELECT oid FROM pg_database WHERE datname = current_database())";
      // the ids bound as an int8[] in text (queryIds): no driver array built every test
      return new String[] {all, all + " AND queryid = ANY (?::int8[])"};
    });
    return both[byQueryId ? 1 : 0];
  }

  // the two reads' SQL by view: built once, not for every test
  private static final Map<String, String[]> SQL = new java.util.concurrent.ConcurrentHashMap<>();

  /** {@code ids} as PostgreSQL writes an int8[]: what {@link #sqlOf}'s id read binds. */
  public static String queryIds(Collection<Long> ids) {
    StringBuilder text = new StringBuilder("{");
    for (long id : ids) {
      text.append(text.length() == 1 ? "" : ",").append(id);
    }
    return text.append('}').toString();
  }

  /** The counters {@link #sqlOf}'s query returned. */
  public static StatementStatistics of(ResultSet rs) throws SQLException {
    Map<Long, Work> all = new HashMap<>();
    while (rs.next()) {
      all.merge(rs.getLong(1), new Work(rs.getLong(2), rs.getLong(3), rs.getLong(4),
          rs.getLong(5), rs.getLong(6), rs.getLong(7), rs.getDouble(8)), Work::plus);
    }
    return new StatementStatistics(all);
  }

  /**
   * These counters with those of {@code queryIds} as {@code later} read them (an id it has no
   * row of, evicted meanwhile, dropped).
   */
  public StatementStatistics updatedWith(StatementStatistics later, Collection<Long> queryIds) {
    Map<Long, Work> all = new HashMap<>(byQueryId);
    for (long id : queryIds) {
      Work now = later.byQueryId.get(id);
      if (now == null) {
        all.remove(id);
      } else {
        all.put(id, now);
      }
    }
    return new StatementStatistics(all);
  }

  /** What the statement of {@code queryId} did between {@code earlier} and this read. */
  public Work since(StatementStatistics earlier, long queryId) {
    Work now = byQueryId.getOrDefault(queryId, Work.NONE);
    // an entry pg_stat_statements evicted and took again meanwhile starts from zero
    Work before = earlier.byQueryId.getOrDefault(queryId, Work.NONE);
    return now.calls() >= before.calls() ? now.minus(before) : now;
  }

  /**
   * What every statement but the Lab's own reads did between {@code earlier} and this read.
   */
  public Work sinceAll(StatementStatistics earlier) {
    Work all = Work.NONE;
    for (long queryId : byQueryId.keySet()) {
      all = all.plus(since(earlier, queryId));
    }
    return all;
  }

  /**
   * What each statement that ran between {@code earlier} and this read did, by query
   * identifier: those with calls only.
   */
  public Map<Long, Work> sinceEach(StatementStatistics earlier) {
    Map<Long, Work> out = new LinkedHashMap<>();
    for (long queryId : byQueryId.keySet()) {
      Work w = since(earlier, queryId);
      if (w.calls() > 0) {
        out.put(queryId, w);
      }
    }
    return out;
  }

  /**
   * The text pg_stat_statements keeps of each statement of {@code queryIds} on {@code c}'s
   * database: the first one it saw of the shape, its constants as {@code $1}, {@code $2}, ...
   */
  public static Map<Long, String> texts(Connection c, String view, Collection<Long> queryIds)
      throws SQLException {
    Map<Long, String> out = new LinkedHashMap<>();
    try (PreparedStatement st = c.prepareStatement(OWN + "SELECT queryid, query FROM " + view
        + " WHERE toplevel AND dbid = (SELECT oid FROM pg_database WHERE datname ="
        + " current_database()) AND queryid = ANY (?)")) {
      st.setArray(1, c.createArrayOf("bigint", queryIds.toArray()));
      try (ResultSet rs = st.executeQuery()) {
        while (rs.next()) {
          out.putIfAbsent(rs.getLong(1), rs.getString(2));
        }
      }
    }
    return out;
  }

  /**
   * Where pg_stat_statements is read.
   *
   * @param view its view, qualified, or null
   * @param why why it cannot be read, or null
   */
  public record Located(String view, String why) {
    public Optional<String> unavailable() {
      return Optional.ofNullable(why);
    }
  }
}
