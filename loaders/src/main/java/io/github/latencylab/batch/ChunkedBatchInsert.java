package io.github.latencylab.batch;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.StringJoiner;
import java.util.stream.Stream;
import org.postgresql.PGConnection;
import org.postgresql.jdbc.PreferQueryMode;

/**
 * Inserts rows with one {@code INSERT ... VALUES (?, ...)} per row, sent with JDBC's
 * {@code addBatch}/{@code executeBatch} in batches of {@link #batchSize(int)} rows.
 *
 * <pre>{@code
 * long rows = ChunkedBatchInsert.into("item")
 *     .column("id", ChunkedBatchInsert.PgType.INT8)
 *     .column("name", ChunkedBatchInsert.PgType.TEXT)
 *     .load(connection, List.of(new Object[] {1L, "one"}, new Object[] {2L, "two"}));
 * }</pre>
 *
 * <p><b>When to use it</b>: when you want plain JDBC batching, or commits every batch. It is
 * the slowest of the batch helpers over a slow network: for many rows prefer
 * {@code UnnestInsert} or {@code CopyLoader}.
 *
 * <p><b>Round trips</b>: pgjdbc sends a batch without waiting for replies, but it reckons 250
 * bytes of reply per statement and, so that neither side blocks on a full socket buffer,
 * sends a Sync and reads the replies before a statement would take that past 64,000 bytes:
 * before the 256th statement, so every 255 statements. A batch of n rows costs
 * ceil(n / 255) round trips, plus one for the COMMIT (JDBC cannot send it with the batch):
 * 10,000 rows in batches of 1,000 are 10 x 4 + 1 = 41. A load of at most 255 rows on an
 * autocommit connection is one Sync, which PostgreSQL runs as one transaction: 1 round trip.
 *
 * <p><b>Transactions</b> (default: all-or-nothing): on a connection in autocommit mode a load
 * of one Sync runs alone, a longer one in one transaction (its BEGIN rides with the first
 * batch), committed at the end; on a connection already in a transaction the load runs inside
 * a savepoint and nothing is committed. Either way, after a failure the table is as it was,
 * the connection is usable and its autocommit setting is as it was.
 * {@link #commitEachBatch(boolean)} commits after every batch instead (autocommit connections
 * only): a failure then keeps the batches committed before it, and the
 * {@link PartiallyCommittedException} says how many rows they hold.
 *
 * <p><b>Errors</b>: a value the column type cannot take (wrong Java type, a NUL character in
 * text, a date PostgreSQL cannot store...) throws {@link IllegalArgumentException} naming the
 * 0-based row index and the column, before its batch is sent. A row PostgreSQL rejects (a
 * duplicate key, say) throws {@link SQLException} with the server's message and SQLState,
 * naming the row index and, for a value, the column: the helper replays the failed batch's
 * rows through COPY, whose errors name both, and rolls the replay back (a few round trips,
 * only on failure). That works with pgjdbc's {@code reWriteBatchedInserts=true} too, where
 * the driver's own error names only a multi-row statement.
 *
 * <p>Needs only JDBC and pgjdbc: copy this file and {@code PgValues.java} into your code base,
 * or depend on {@code io.github.latencylab:latency-lab-loaders}. Values by column type are in
 * {@link PgType}. Instances are immutable (each setter returns a new one), so a
 * configured helper can be kept in a constant and shared between threads.
 */
public final class ChunkedBatchInsert {

  /** Rows per {@code executeBatch} unless {@link #batchSize(int)} says otherwise. */
  public static final int DEFAULT_BATCH_SIZE = 1_000;

  /** Statements pgjdbc sends before it syncs (its 64,000 bytes of replies at 250 each). */
  private static final int STATEMENTS_PER_SYNC = 255;

  /**
   * The column types this helper can bind. The Java values each takes ({@code null} is SQL
   * NULL for any of them) are listed in {@code PgValues.Type} and docs/batching.md: String
   * for the text types and JSONB, Short, Integer and Long (widening only) for INT2/4/8,
   * BigDecimal and its kin for NUMERIC, java.time for dates and times, UUID, byte[].
   */
  public enum PgType {
    TEXT, VARCHAR, INT2, INT4, INT8, NUMERIC, FLOAT4, FLOAT8, BOOL, DATE, TIMESTAMP, TIMESTAMPTZ,
    UUID, BYTEA, JSONB
  }

  /**
   * A load with {@link #commitEachBatch(boolean)} failed after committing some batches: the
   * first {@link #committedRows()} rows of the input are in the table and stay, so a retry
   * resumes at that row index. The cause is the failure.
   */
  public static final class PartiallyCommittedException extends SQLException {
    private static final long serialVersionUID = 1L;

    private final long committedRows;

    PartiallyCommittedException(String message, String sqlState, Throwable cause,
        long committedRows) {
      super(message, sqlState, cause);
      this.committedRows = committedRows;
    }

    /** Rows committed, from row index 0 on: resume at this row index. */
    public long committedRows() {
      return committedRows;
    }
  }

  private final PgValues.Target target;
  private final int batchSize;
  private final boolean commitEachBatch;

  private ChunkedBatchInsert(PgValues.Target target, int batchSize, boolean commitEachBatch) {
    this.target = target;
    this.batchSize = batchSize;
    this.commitEachBatch = commitEachBatch;
  }

  /** Inserts into {@code table}, found on the search path; the name is quoted, never parsed. */
  public static ChunkedBatchInsert into(String table) {
    return new ChunkedBatchInsert(PgValues.Target.of(table), DEFAULT_BATCH_SIZE, false);
  }

  /** Inserts into {@code schema.table}; both names are quoted as given. */
  public static ChunkedBatchInsert into(String schema, String table) {
    return new ChunkedBatchInsert(PgValues.Target.of(schema, table), DEFAULT_BATCH_SIZE, false);
  }

  /** Adds a column; each row holds its values in the order the columns were added. */
  public ChunkedBatchInsert column(String name, PgType type) {
    return new ChunkedBatchInsert(target.column(name, PgValues.type(type)), batchSize,
        commitEachBatch);
  }

  /** Rows per {@code executeBatch} (default {@value #DEFAULT_BATCH_SIZE}). */
  public ChunkedBatchInsert batchSize(int rows) {
    if (rows < 1) {
      throw new IllegalArgumentException("batchSize must be at least 1, got " + rows);
    }
    return new ChunkedBatchInsert(target, rows, commitEachBatch);
  }

  /** Rows per {@code executeBatch}. */
  public int batchSize() {
    return batchSize;
  }

  /**
   * Whether to commit after every batch instead of once at the end (default false): a long
   * load then holds locks and row versions for one batch at a time, but a failure keeps the
   * batches before it ({@link PartiallyCommittedException} says how many rows). Needs a
   * connection in autocommit mode (it would otherwise commit the caller's transaction).
   */
  public ChunkedBatchInsert commitEachBatch(boolean commit) {
    return new ChunkedBatchInsert(target, batchSize, commit);
  }

  /** Whether every batch is committed. */
  public boolean commitEachBatch() {
    return commitEachBatch;
  }

  /** The INSERT this helper prepares, for logs and tests. */
  public String sql() {
    target.requireColumns();
    StringJoiner values = new StringJoiner(", ", "(", ")");
    for (PgValues.Type type : target.types()) {
      values.add("?::" + type.sqlName());
    }
    return "INSERT INTO " + target.qualifiedTable() + " " + target.columnList() + " VALUES "
        + values;
  }

  /**
   * Inserts every row {@code rows} yields and returns how many; reads at most one batch
   * ahead, so the rows can be streamed.
   */
  public long load(Connection connection, Iterator<? extends Object[]> rows) throws SQLException {
    String sql = sql();
    PgValues.AllOrNothing transaction = new PgValues.AllOrNothing(connection);
    if (commitEachBatch && !transaction.autoCommit()) {
      throw new IllegalStateException("commitEachBatch(true) commits, so it needs a connection"
          + " in autocommit mode; this one is in a transaction that a commit would end");
    }
    boolean inTransaction = false; // ours: autocommit is off until the end
    boolean inSavepoint = false; // the caller's transaction: a savepoint around the load
    long committed = 0; // rows committed by commitEachBatch
    long row = 0;
    List<Object[]> batch = new ArrayList<>();
    try (PreparedStatement insert = connection.prepareStatement(sql)) {
      while (rows.hasNext()) {
        Object[] checked = target.checkRow(rows.next(), row);
        PgValues.bind(insert, 1, checked, target.types());
        insert.addBatch();
        batch.add(checked);
        row++;
        boolean last = !rows.hasNext();
        if (batch.size() == batchSize || last) {
          if (row == batch.size()) { // the first batch: the transaction it runs in
            if (!transaction.autoCommit()) {
              transaction.savepoint(); // JDBC sends a batch alone
              inSavepoint = true;
            } else if (!(last && batch.size() <= STATEMENTS_PER_SYNC && syncsOnce(connection))) {
              transaction.begin(); // pgjdbc sends BEGIN with the batch
              inTransaction = true;
            }
          }
          insert.executeBatch();
          long batchStart = row - batch.size();
          batch.clear();
          if (commitEachBatch) {
            if (inTransaction) {
              commit(connection, batchStart, row);
            }
            committed = row;
          }
        }
      }
      if (inTransaction && !commitEachBatch) {
        commit(connection, 0, row);
      } else if (inSavepoint) {
        transaction.release();
      }
      transaction.done();
    } catch (SQLException | RuntimeException | Error e) {
      transaction.undo(e);
      Throwable failure = e instanceof SQLException s && !batch.isEmpty()
          ? PgValues.refused("ChunkedBatchInsert", target, connection, s, batch,
              row - batch.size(), "batch")
          : e;
      if (committed == 0 || e instanceof Error) {
        if (failure instanceof SQLException s) {
          throw s;
        }
        throw e;
      }
      String kept = "; row index 0 to " + (committed - 1) + " (" + committed + " rows) were"
          + " committed by earlier batches and stay: resume at row index " + committed;
      String message = failure instanceof SQLException s ? s.getMessage()
          : "ChunkedBatchInsert into " + target.qualifiedTable() + " failed: "
              + failure.getMessage();
      throw new PartiallyCommittedException(message + kept,
          failure instanceof SQLException s ? s.getSQLState() : null, failure, committed);
    }
    return row;
  }

  public long load(Connection connection, Iterable<? extends Object[]> rows) throws SQLException {
    return load(connection, rows.iterator());
  }

  public long load(Connection connection, Stream<? extends Object[]> rows) throws SQLException {
    return load(connection, rows.iterator());
  }

  /**
   * Whether the driver sends a batch of up to 255 statements with one Sync, which PostgreSQL
   * runs as one implicit transaction: pgjdbc does, unless it sends each statement alone
   * (preferQueryMode=simple). Another driver: do not count on it.
   */
  private static boolean syncsOnce(Connection connection) {
    try {
      return connection.isWrapperFor(PGConnection.class) && connection.unwrap(PGConnection.class)
          .getPreferQueryMode() != PreferQueryMode.SIMPLE;
    } catch (SQLException e) {
      return false;
    }
  }

  private void commit(Connection connection, long from, long to) throws SQLException {
    try {
      connection.commit();
    } catch (SQLException e) {
      throw new SQLException("ChunkedBatchInsert into " + target.qualifiedTable()
          + " failed to commit row index " + from + " to " + (to - 1) + " (if the connection"
          + " broke, they may be in the table or not): " + e.getMessage(), e.getSQLState(), e);
    }
  }
}
