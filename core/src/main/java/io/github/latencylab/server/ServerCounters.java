package io.github.latencylab.server;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The server's cumulative counters for the current database, read at one moment: take one
 * before and one after a piece of work, and {@link #minus} gives what the work cost the server.
 * From {@code pg_stat_database}: commits, blocks found in shared buffers (hit) or read from the
 * kernel (read), temporary files and their bytes (sorts and hashes that spilled); and the WAL
 * written, from the WAL insert position ({@code pg_current_wal_insert_lsn()}), which is exact
 * at once, where pg_stat_wal is not.
 *
 * <p>Since PostgreSQL 15 a session publishes its statistics at most once a second, when it goes
 * idle: read the counters around work done on other connections only after
 * {@link #publish(Connection)} ran on each of them, or they lag. These counters are
 * database-wide: whatever else runs on the database at the same time counts too.
 *
 * @param commits pg_stat_database.xact_commit
 * @param blocksHit blks_hit: 8 kB blocks found in shared buffers
 * @param blocksRead blks_read: blocks PostgreSQL had to read (from the OS cache or the disk)
 * @param tempFiles temp_files
 * @param tempBytes temp_bytes
 * @param walBytes the WAL insert position in bytes, or -1 where it cannot be read (a standby)
 * @param walSyncs pg_stat_wal.wal_sync: WAL flushes to disk (a synchronous commit waits for
 *     one), or -1 where pg_stat_wal has no such column (before 14, from 18 on)
 * @param walBuffersFull pg_stat_wal.wal_buffers_full: WAL written because wal_buffers were
 *     full, or -1
 * @param walFullPageImages pg_stat_wal.wal_fpi: whole pages logged, the first change of each
 *     page after a checkpoint (full_page_writes), or -1
 */
public record ServerCounters(long commits, long blocksHit, long blocksRead, long tempFiles,
    long tempBytes, long walBytes, long walSyncs, long walBuffersFull, long walFullPageImages) {

  /** Commits two {@link #read}s on one connection add to the delta between them. */
  public static final int OWN_COMMITS = 2;

  /**
   * Reads the counters on {@code direct}, a connection of its own: it first publishes what its
   * own session did before (one statement), then reads (another). A delta between two reads on
   * the same connection therefore holds exactly two commits of its own
   * ({@link #OWN_COMMITS}): the first read's, and the second's publishing statement.
   */
  public static ServerCounters read(Connection direct) throws SQLException {
    publish(direct);
    String stats = StatementStatistics.OWN + "SELECT d.xact_commit, d.blks_hit, d.blks_read,"
        + " d.temp_files, d.temp_bytes,"
        + " %s FROM pg_stat_database d%s WHERE d.datname = current_database()";
    String lsn = "pg_wal_lsn_diff(pg_current_wal_insert_lsn(), '0/0')::bigint";
    String wal = ", w.wal_sync, w.wal_buffers_full, w.wal_fpi";
    // a standby has no WAL insert position; pg_stat_wal's columns vary with the version
    String[][] attempts = {{lsn + wal, ", pg_stat_wal w"}, {lsn + ", -1, -1, -1", ""},
        {"-1, -1, -1, -1", ""}};
    SQLException last = null;
    for (String[] a : attempts) {
      try {
        return query(direct, String.format(stats, a[0], a[1]));
      } catch (SQLException e) {
        last = e;
        if (!direct.getAutoCommit()) {
          direct.rollback();
        }
      }
    }
    throw last;
  }

  /**
   * The WAL insert position in bytes on {@code direct}: exact at once, where the statistics
   * views lag; -1 where there is none (a standby). One statement, one commit.
   */
  public static long walPosition(Connection direct) throws SQLException {
    try (Statement st = direct.createStatement(); ResultSet rs = st.executeQuery(
        StatementStatistics.OWN
            + "SELECT pg_wal_lsn_diff(pg_current_wal_insert_lsn(), '0/0')::bigint")) {
      rs.next();
      return rs.getLong(1);
    } catch (SQLException e) {
      if (!direct.getAutoCommit()) {
        direct.rollback();
      }
      return -1;
    }
  }

  private static ServerCounters query(Connection c, String sql) throws SQLException {
    try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
      rs.next();
      return new ServerCounters(rs.getLong(1), rs.getLong(2), rs.getLong(3), rs.getLong(4),
          rs.getLong(5), rs.getLong(6), rs.getLong(7), rs.getLong(8), rs.getLong(9));
    }
  }

  /**
   * Makes {@code connection}'s session publish its statistics now (PostgreSQL 15+; earlier
   * versions publish at every transaction's end anyway). Costs one round trip and one commit
   * on that connection; returns whether it ran. A connection in a transaction is committed
   * first; one in a failed transaction is left alone.
   */
  public static boolean publish(Connection connection) {
    try {
      if (connection.isClosed() || connection.getMetaData().getDatabaseMajorVersion() < 15) {
        return false;
      }
      // a session with no table statistics pending does not publish its commit count even
      // when forced: reading pg_database gives it some
      try (Statement st = connection.createStatement()) {
        st.execute(StatementStatistics.OWN + "SELECT pg_stat_force_next_flush() FROM pg_database"
            + " WHERE datname = current_database()");
      }
      if (!connection.getAutoCommit()) {
        connection.commit();
      }
      return true;
    } catch (SQLException e) {
      return false;
    }
  }

  public ServerCounters minus(ServerCounters earlier) {
    return new ServerCounters(commits - earlier.commits, blocksHit - earlier.blocksHit,
        blocksRead - earlier.blocksRead, tempFiles - earlier.tempFiles,
        tempBytes - earlier.tempBytes, known(walBytes, earlier.walBytes),
        known(walSyncs, earlier.walSyncs), known(walBuffersFull, earlier.walBuffersFull),
        known(walFullPageImages, earlier.walFullPageImages));
  }

  private static long known(long now, long before) {
    return now < 0 || before < 0 ? -1 : now - before;
  }

  /** The same counters less {@code n} commits (e.g. the measurement's own). */
  public ServerCounters lessCommits(long n) {
    return new ServerCounters(commits - n, blocksHit, blocksRead, tempFiles, tempBytes,
        walBytes, walSyncs, walBuffersFull, walFullPageImages);
  }

  /** blks_hit / (blks_hit + blks_read), or NaN when no block was touched. */
  public double cacheHitRatio() {
    long touched = blocksHit + blocksRead;
    return touched == 0 ? Double.NaN : (double) blocksHit / touched;
  }

  /**
   * A delta per operation, by the names results use: {@code commitsPerOp},
   * {@code blocksHitPerOp}, {@code blocksReadPerOp}, {@code tempFilesPerOp},
   * {@code tempBytesPerOp}, {@code walBytesPerOp}, {@code walSyncsPerOp},
   * {@code walBuffersFullPerOp}, {@code walFullPageImagesPerOp} and {@code cacheHitRatio} (a
   * ratio, not per operation); a value that cannot be known is left out.
   */
  public Map<String, Double> perOperation(double operations) {
    Map<String, Double> out = new LinkedHashMap<>();
    if (operations <= 0) {
      return out;
    }
    out.put("commitsPerOp", commits / operations);
    out.put("blocksHitPerOp", blocksHit / operations);
    out.put("blocksReadPerOp", blocksRead / operations);
    double ratio = cacheHitRatio();
    if (!Double.isNaN(ratio)) {
      out.put("cacheHitRatio", ratio);
    }
    out.put("tempFilesPerOp", tempFiles / operations);
    out.put("tempBytesPerOp", tempBytes / operations);
    if (walBytes >= 0) {
      out.put("walBytesPerOp", walBytes / operations);
    }
    if (walSyncs >= 0) {
      out.put("walSyncsPerOp", walSyncs / operations);
      out.put("walBuffersFullPerOp", walBuffersFull / operations);
      out.put("walFullPageImagesPerOp", walFullPageImages / operations);
    }
    return out;
  }
}
