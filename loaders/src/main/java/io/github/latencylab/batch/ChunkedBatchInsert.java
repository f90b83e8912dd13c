package io.github.latencylab.batch;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.StringJoiner;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.postgresql.PGConnection;
import org.postgresql.jdbc.PreferQueryMode;
import org.postgresql.util.PSQLException;
import org.postgresql.util.ServerErrorMessage;

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
 * <p>Needs only JDBC and pgjdbc: copy this file into your code base. Values by column type
 * are in {@link PgType}. Instances are immutable (each setter returns a new one), so a
 * configured helper can be kept in a constant and shared between threads.
 */
public final class ChunkedBatchInsert {

  /** Rows per {@code executeBatch} unless {@link #batchSize(int)} says otherwise. */
  public static final int DEFAULT_BATCH_SIZE = 1_000;

  /** Statements pgjdbc sends before it syncs (its 64,000 bytes of replies at 250 each). */
  private static final int STATEMENTS_PER_SYNC = 255;

  private static final String SAVEPOINT = "batch_load";

  /**
   * The column types this helper can bind, and the Java values each takes ({@code null} is
   * SQL NULL for any of them).
   *
   * <ul>
   *   <li>TEXT, VARCHAR, JSONB: {@link String} without NUL (U+0000) and without unpaired
   *       surrogates (neither can be stored); JSONB as JSON text;
   *   <li>INT2: {@link Short}; INT4: {@link Integer} or {@link Short}; INT8: {@link Long},
   *       {@link Integer} or {@link Short};
   *   <li>NUMERIC: {@link BigDecimal} (at most 131,072 digits before the point and 16,383
   *       after), {@link BigInteger}, {@link Long}, {@link Integer} or {@link Short}; and
   *       {@code Double.NaN}, {@code POSITIVE_INFINITY} or {@code NEGATIVE_INFINITY} for
   *       numeric's NaN and (PostgreSQL 14 and later) infinities;
   *   <li>FLOAT4: {@link Float}; FLOAT8: {@link Double} (NaN and infinities included);
   *   <li>BOOL: {@link Boolean};
   *   <li>DATE: {@link LocalDate} from 4714-11-24 BC to 5874897-12-31;
   *       {@code LocalDate.MIN}/{@code MAX} are -infinity/infinity;
   *   <li>TIMESTAMP: {@link LocalDateTime} from 4714-11-24 BC to 294276-12-31 23:59:59.999999,
   *       rounded to the microsecond; {@code LocalDateTime.MIN}/{@code MAX} are
   *       -infinity/infinity;
   *   <li>TIMESTAMPTZ: {@link OffsetDateTime} or {@link Instant}, same range in UTC;
   *       {@code OffsetDateTime.MIN}/{@code MAX} are -infinity/infinity;
   *   <li>UUID: {@link UUID}; BYTEA: {@code byte[]}.
   * </ul>
   */
  public enum PgType {
    TEXT, VARCHAR, INT2, INT4, INT8, NUMERIC, FLOAT4, FLOAT8, BOOL, DATE, TIMESTAMP, TIMESTAMPTZ,
    UUID, BYTEA, JSONB;

    String sqlName() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
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

  private final List<String> tableName;
  private final List<String> columnNames;
  private final List<PgType> columnTypes;
  private final int batchSize;
  private final boolean commitEachBatch;

  private ChunkedBatchInsert(List<String> tableName, List<String> columnNames,
      List<PgType> columnTypes, int batchSize, boolean commitEachBatch) {
    this.tableName = tableName;
    this.columnNames = columnNames;
    this.columnTypes = columnTypes;
    this.batchSize = batchSize;
    this.commitEachBatch = commitEachBatch;
  }

  /** Inserts into {@code table}, found on the search path; the name is quoted, never parsed. */
  public static ChunkedBatchInsert into(String table) {
    return new ChunkedBatchInsert(List.of(identifier(table)), List.of(), List.of(),
        DEFAULT_BATCH_SIZE, false);
  }

  /** Inserts into {@code schema.table}; both names are quoted as given. */
  public static ChunkedBatchInsert into(String schema, String table) {
    return new ChunkedBatchInsert(List.of(identifier(schema), identifier(table)), List.of(),
        List.of(), DEFAULT_BATCH_SIZE, false);
  }

  /** Adds a column; each row holds its values in the order the columns were added. */
  public ChunkedBatchInsert column(String name, PgType type) {
    Objects.requireNonNull(type, "type");
    if (columnNames.contains(identifier(name))) {
      throw new IllegalArgumentException("column \"" + name + "\" is listed twice");
    }
    List<String> names = new ArrayList<>(columnNames);
    names.add(name);
    List<PgType> types = new ArrayList<>(columnTypes);
    types.add(type);
    return new ChunkedBatchInsert(tableName, List.copyOf(names), List.copyOf(types), batchSize,
        commitEachBatch);
  }

  /** Rows per {@code executeBatch} (default {@value #DEFAULT_BATCH_SIZE}). */
  public ChunkedBatchInsert batchSize(int rows) {
    if (rows < 1) {
      throw new IllegalArgumentException("batchSize must be at least 1, got " + rows);
    }
    return new ChunkedBatchInsert(tableName, columnNames, columnTypes, rows, commitEachBatch);
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
    return new ChunkedBatchInsert(tableName, columnNames, columnTypes, batchSize, commit);
  }

  /** Whether every batch is committed. */
  public boolean commitEachBatch() {
    return commitEachBatch;
  }

  /** The INSERT this helper prepares, for logs and tests. */
  public String sql() {
    requireColumns();
    StringJoiner values = new StringJoiner(", ", "(", ")");
    for (PgType type : columnTypes) {
      values.add("?::" + type.sqlName());
    }
    return "INSERT INTO " + qualifiedTable() + " " + columnList() + " VALUES " + values;
  }

  public long load(Connection connection, Iterable<? extends Object[]> rows) throws SQLException {
    return load(connection, rows.iterator());
  }

  public long load(Connection connection, Stream<? extends Object[]> rows) throws SQLException {
    return load(connection, rows.iterator());
  }

  /**
   * Inserts every row {@code rows} yields and returns how many; reads at most one batch
   * ahead, so the rows can be streamed.
   */
  public long load(Connection connection, Iterator<? extends Object[]> rows) throws SQLException {
    String sql = sql();
    boolean autoCommit = connection.getAutoCommit();
    if (commitEachBatch && !autoCommit) {
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
        Object[] checked = checkRow(rows.next(), row);
        bind(insert, 1, checked);
        insert.addBatch();
        batch.add(checked);
        row++;
        boolean last = !rows.hasNext();
        if (batch.size() == batchSize || last) {
          if (row == batch.size()) { // the first batch: the transaction it runs in
            if (!autoCommit) {
              try (Statement st = connection.createStatement()) {
                st.execute("SAVEPOINT " + SAVEPOINT);
              }
              inSavepoint = true;
            } else if (!(last && batch.size() <= STATEMENTS_PER_SYNC && syncsOnce(connection))) {
              connection.setAutoCommit(false); // pgjdbc sends BEGIN with the batch
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
      if (inTransaction) {
        if (!commitEachBatch) {
          commit(connection, 0, row);
        }
        connection.setAutoCommit(true);
      } else if (inSavepoint) {
        try (Statement st = connection.createStatement()) {
          st.execute("RELEASE SAVEPOINT " + SAVEPOINT);
        }
      }
    } catch (SQLException | RuntimeException | Error e) {
      undo(connection, inTransaction, inSavepoint, e);
      Throwable failure = e instanceof SQLException s && !batch.isEmpty()
          ? refused(connection, s, batch, row - batch.size(), "batch") : e;
      if (committed == 0 || e instanceof Error) {
        if (failure instanceof SQLException s) {
          throw s;
        }
        throw e;
      }
      String kept = "; row index 0 to " + (committed - 1) + " (" + committed + " rows) were"
          + " committed by earlier batches and stay: resume at row index " + committed;
      String message = failure instanceof SQLException s ? s.getMessage()
          : getClass().getSimpleName() + " into " + qualifiedTable() + " failed: "
              + failure.getMessage();
      throw new PartiallyCommittedException(message + kept,
          failure instanceof SQLException s ? s.getSQLState() : null, failure, committed);
    }
    return row;
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
      throw new SQLException(getClass().getSimpleName() + " into " + qualifiedTable()
          + " failed to commit row index " + from + " to " + (to - 1) + " (if the connection"
          + " broke, they may be in the table or not): " + e.getMessage(), e.getSQLState(), e);
    }
  }

  /** Rolls back what this load did and restores autocommit; never hides {@code failure}. */
  private static void undo(Connection connection, boolean inTransaction, boolean inSavepoint,
      Throwable failure) {
    try {
      if (inTransaction) {
        connection.rollback();
        connection.setAutoCommit(true);
      } else if (inSavepoint) {
        try (Statement st = connection.createStatement()) {
          st.execute("ROLLBACK TO SAVEPOINT " + SAVEPOINT + "; RELEASE SAVEPOINT " + SAVEPOINT);
        }
      }
    } catch (SQLException | RuntimeException e) {
      failure.addSuppressed(e);
    }
  }

  /** The row's values checked and in the form they are sent, or an exception naming the row. */
  private Object[] checkRow(Object[] row, long index) {
    if (row == null) {
      throw new IllegalArgumentException("row index " + index + " is null");
    }
    if (row.length != columnNames.size()) {
      throw new IllegalArgumentException("row index " + index + " has " + row.length
          + " values; expected " + columnNames.size() + " " + columnList());
    }
    Object[] checked = new Object[row.length];
    for (int i = 0; i < row.length; i++) {
      checked[i] = check(row[i], columnTypes.get(i), index, columnNames.get(i));
    }
    return checked;
  }

  /** Binds a checked row to the parameters from {@code first} (1-based) on. */
  private void bind(PreparedStatement insert, int first, Object[] checked) throws SQLException {
    for (int i = 0; i < checked.length; i++) {
      PgType type = columnTypes.get(i);
      Object value = checked[i];
      int p = first + i;
      if (value == null) {
        insert.setNull(p, nullType(type));
        continue;
      }
      switch (type) {
        case INT2 -> insert.setShort(p, (Short) value);
        case INT4 -> insert.setInt(p, (Integer) value);
        case INT8 -> insert.setLong(p, (Long) value);
        case FLOAT4 -> insert.setFloat(p, (Float) value);
        case FLOAT8 -> insert.setDouble(p, (Double) value);
        case BOOL -> insert.setBoolean(p, (Boolean) value);
        case BYTEA -> insert.setBytes(p, (byte[]) value);
        // the rest as text that the ::type cast parses: pgjdbc would turn dates before
        // 4713 BC into -infinity, BigDecimal cannot hold numeric's NaN, and one bind type per
        // column keeps one prepared statement
        default -> insert.setString(p, text(value, type));
      }
    }
  }

  private static int nullType(PgType type) {
    return switch (type) {
      case INT2 -> Types.SMALLINT;
      case INT4 -> Types.INTEGER;
      case INT8 -> Types.BIGINT;
      case FLOAT4 -> Types.REAL;
      case FLOAT8 -> Types.DOUBLE;
      case BOOL -> Types.BOOLEAN;
      case BYTEA -> Types.BINARY;
      default -> Types.VARCHAR;
    };
  }

  private void requireColumns() {
    if (columnNames.isEmpty()) {
      throw new IllegalStateException("no columns: add them with column(name, type)");
    }
  }

  private String qualifiedTable() {
    StringJoiner name = new StringJoiner(".");
    tableName.forEach(part -> name.add(quote(part)));
    return name.toString();
  }

  private String columnList() {
    StringJoiner list = new StringJoiner(", ", "(", ")");
    columnNames.forEach(c -> list.add(quote(c)));
    return list.toString();
  }

  // ---- finding the row and column of a statement PostgreSQL refused ----

  /**
   * A statement of many rows fails as a whole: PostgreSQL says what was wrong, not in which
   * row or column. COPY's error context says both, so a value or constraint the server refused
   * (SQLState class 22 or 23; never a broken connection or a timeout) is found by replaying
   * the statement's rows through COPY, in text format, inside a transaction or savepoint that
   * is always rolled back: the table stays as it was, and the few round trips this costs come
   * only with a failure. Call it after the load is undone. If the replay does not fail the
   * same way (the failure involved rows of an earlier statement of the load, say), the
   * exception names the statement's rows.
   */
  private SQLException refused(Connection connection, SQLException failure, List<Object[]> rows,
      long firstRow, String unit) {
    PSQLException server = serverError(failure);
    SQLException reported = server != null ? server : failure;
    String state = reported.getSQLState();
    // the connection broke (08: I/O, 57P: the session terminated): no row was refused, and
    // pgjdbc's batch echo of the first statement's values says nothing more
    boolean connectionLost = state != null && (state.startsWith("08") || state.startsWith("57P"));
    if (connectionLost && reported.getNextException() != null) {
      reported = reported.getNextException();
    }
    boolean replayable = server != null && state != null
        && (state.startsWith("22") || state.startsWith("23"));
    CopyErrorAt at = replayable ? replay(connection, server, rows) : null;
    String where;
    if (at != null && at.line() >= 1 && at.line() <= rows.size()) {
      where = "at row index " + (firstRow + at.line() - 1)
          + (at.column() == null ? "" : ", column \"" + at.column() + "\"");
    } else if (rows.size() == 1) {
      where = "at row index " + firstRow;
    } else {
      where = "in the " + unit + " of row index " + firstRow + " to "
          + (firstRow + rows.size() - 1) + (replayable ? " (replayed alone, these rows did not"
          + " fail the same way: the failure involves rows sent before them)"
          : connectionLost ? " (the connection failed: no row was refused)"
          : " (PostgreSQL does not say which row)");
    }
    return new SQLException(getClass().getSimpleName() + " into " + qualifiedTable() + " failed "
        + where + ": " + reported.getMessage(), state, failure);
  }

  private CopyErrorAt replay(Connection connection, PSQLException server, List<Object[]> rows) {
    StringBuilder text = new StringBuilder();
    for (Object[] row : rows) {
      for (int i = 0; i < row.length; i++) {
        String value = row[i] == null ? null
            : row[i] instanceof String s ? s : text(row[i], columnTypes.get(i));
        text.append(i == 0 ? "" : "\t").append(value == null ? "\\N" : value
            .replace("\\", "\\\\").replace("\n", "\\n").replace("\r", "\\r")
            .replace("\t", "\\t"));
      }
      text.append('\n');
    }
    String copy = "COPY " + qualifiedTable() + " " + columnList() + " FROM STDIN";
    try (Statement st = connection.createStatement()) {
      boolean autoCommit = connection.getAutoCommit();
      if (autoCommit) {
        connection.setAutoCommit(false);
      } else {
        st.execute("SAVEPOINT batch_replay");
      }
      try {
        connection.unwrap(PGConnection.class).getCopyAPI().copyIn(copy,
            new ByteArrayInputStream(text.toString().getBytes(StandardCharsets.UTF_8)));
        return null; // it did not fail again
      } catch (SQLException again) {
        return server.getSQLState().equals(again.getSQLState())
            ? copyErrorAt(again, tableName.get(tableName.size() - 1), columnNames) : null;
      } finally {
        if (autoCommit) {
          connection.rollback();
          connection.setAutoCommit(true);
        } else {
          st.execute("ROLLBACK TO SAVEPOINT batch_replay; RELEASE SAVEPOINT batch_replay");
        }
      }
    } catch (SQLException | IOException | RuntimeException e) {
      server.addSuppressed(e);
      return null;
    }
  }

  /** The first server error in {@code e}'s chain (a batch's is its next exception), or null. */
  private static PSQLException serverError(SQLException e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof PSQLException p && p.getServerErrorMessage() != null) {
        return p;
      }
      if (t instanceof SQLException s && s.getNextException() instanceof PSQLException p
          && p.getServerErrorMessage() != null) {
        return p;
      }
    }
    return null;
  }

  // ---- identifiers: always quoted, so no name can end the identifier and start SQL ----

  private static String identifier(String name) {
    if (name == null || name.isEmpty()) {
      throw new IllegalArgumentException("a table or column name cannot be null or empty");
    }
    if (name.indexOf('\0') >= 0) {
      throw new IllegalArgumentException("a table or column name cannot contain NUL: " + name);
    }
    return name;
  }

  private static String quote(String identifier) {
    return '"' + identifier.replace("\"", "\"\"") + '"';
  }

  // ---- values: checked once, in the form every path sends ----

  // Julian day 0, 4714-11-24 BC: ISO year -4713, as PostgreSQL has no year 0
  private static final LocalDate MIN_DATE = LocalDate.of(-4713, 11, 24);
  private static final LocalDate MAX_DATE = LocalDate.of(5_874_897, 12, 31);
  private static final LocalDateTime MIN_TIMESTAMP = MIN_DATE.atStartOfDay();
  private static final LocalDateTime MAX_TIMESTAMP =
      LocalDateTime.of(294_276, 12, 31, 23, 59, 59, 999_999_000);

  /**
   * {@code value} as the one Java type this helper sends for {@code type} (Short, Integer,
   * Long, BigDecimal with scale >= 0 or a non-finite Double, Float, Double, Boolean, String,
   * LocalDate, LocalDateTime, UTC OffsetDateTime, UUID, byte[]), or an exception naming row
   * and column.
   */
  private static Object check(Object value, PgType type, long row, String column) {
    if (value == null) {
      return null;
    }
    switch (type) {
      case TEXT, VARCHAR, JSONB -> {
        if (value instanceof String s) {
          checkText(s, type, row, column);
          return s;
        }
      }
      case INT2 -> {
        if (value instanceof Short) {
          return value;
        }
      }
      case INT4 -> {
        if (value instanceof Integer) {
          return value;
        }
        if (value instanceof Short s) {
          return (int) s;
        }
      }
      case INT8 -> {
        if (value instanceof Long) {
          return value;
        }
        if (value instanceof Integer || value instanceof Short) {
          return ((Number) value).longValue();
        }
      }
      case NUMERIC -> {
        BigDecimal d = value instanceof BigDecimal b ? b
            : value instanceof BigInteger i ? new BigDecimal(i)
            : value instanceof Long || value instanceof Integer || value instanceof Short
                ? BigDecimal.valueOf(((Number) value).longValue()) : null;
        if (d != null) {
          return checkNumeric(d, row, column);
        }
        // numeric's NaN and (from PostgreSQL 14) infinities; a finite double is not exact
        if (value instanceof Double x && !Double.isFinite(x)) {
          return value;
        }
      }
      case FLOAT4 -> {
        if (value instanceof Float) {
          return value;
        }
      }
      case FLOAT8 -> {
        if (value instanceof Double) {
          return value;
        }
      }
      case BOOL -> {
        if (value instanceof Boolean) {
          return value;
        }
      }
      case DATE -> {
        if (value instanceof LocalDate d) {
          if (!d.equals(LocalDate.MIN) && !d.equals(LocalDate.MAX)
              && (d.isBefore(MIN_DATE) || d.isAfter(MAX_DATE))) {
            throw bad(row, column, type, "date " + d + " is outside PostgreSQL's range"
                + " 4714-11-24 BC to 5874897-12-31 (LocalDate.MIN/MAX mean -infinity/infinity)");
          }
          return d;
        }
      }
      case TIMESTAMP -> {
        if (value instanceof LocalDateTime t) {
          return checkTimestamp(t, row, column, type);
        }
      }
      case TIMESTAMPTZ -> {
        if (value instanceof OffsetDateTime o && o.getOffset().equals(ZoneOffset.UTC)
            && o.getNano() % 1000 == 0 && o.getYear() >= 1 && o.getYear() <= 294_275) {
          return o; // the common case, already as sent: no conversion
        }
        if (value.equals(OffsetDateTime.MIN) || value.equals(OffsetDateTime.MAX)) {
          return value;
        }
        // as an Instant first: an extreme offset can take a valid OffsetDateTime past what
        // LocalDateTime holds in UTC
        Instant i = value instanceof OffsetDateTime o ? o.toInstant()
            : value instanceof Instant x ? x : null;
        if (i != null) {
          if (i.isBefore(MIN_TIMESTAMP.toInstant(ZoneOffset.UTC))
              || i.isAfter(MAX_TIMESTAMP.toInstant(ZoneOffset.UTC).plusNanos(499))) {
            throw bad(row, column, type, "timestamp " + value + " is outside PostgreSQL's range"
                + " 4714-11-24 00:00 BC to 294276-12-31 23:59:59.999999 UTC"
                + " (OffsetDateTime.MIN/MAX mean -infinity/infinity)");
          }
          return checkTimestamp(i.atOffset(ZoneOffset.UTC).toLocalDateTime(), row, column, type)
              .atOffset(ZoneOffset.UTC);
        }
      }
      case UUID -> {
        if (value instanceof UUID) {
          return value;
        }
      }
      case BYTEA -> {
        if (value instanceof byte[]) {
          return value;
        }
      }
    }
    throw bad(row, column, type, "expected " + javaTypes(type) + ", got "
        + value.getClass().getName());
  }

  private static String javaTypes(PgType type) {
    return switch (type) {
      case TEXT, VARCHAR, JSONB -> "String";
      case INT2 -> "Short";
      case INT4 -> "Integer or Short";
      case INT8 -> "Long, Integer or Short";
      case NUMERIC -> "BigDecimal, BigInteger, Long, Integer or Short (or Double NaN, Infinity or"
          + " -Infinity)";
      case FLOAT4 -> "Float";
      case FLOAT8 -> "Double";
      case BOOL -> "Boolean";
      case DATE -> "LocalDate";
      case TIMESTAMP -> "LocalDateTime";
      case TIMESTAMPTZ -> "OffsetDateTime or Instant";
      case UUID -> "UUID";
      case BYTEA -> "byte[]";
    };
  }

  private static void checkText(String s, PgType type, long row, String column) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c != '\0' && c < Character.MIN_SURROGATE) {
        continue; // the common case
      }
      if (c == '\0') {
        throw bad(row, column, type, "contains a NUL character (\\u0000) at index " + i
            + "; PostgreSQL cannot store NUL in text");
      }
      if (Character.isSurrogate(c)) {
        if (Character.isHighSurrogate(c) && i + 1 < s.length()
            && Character.isLowSurrogate(s.charAt(i + 1))) {
          i++;
        } else {
          throw bad(row, column, type, String.format("contains an unpaired surrogate (\\u%04X)"
              + " at index %d, which has no UTF-8 encoding", (int) c, i));
        }
      }
    }
  }

  private static BigDecimal checkNumeric(BigDecimal d, long row, String column) {
    if (d.scale() < 0) {
      d = d.setScale(0); // 1E+3 is 1000: PostgreSQL keeps no negative scale
    }
    if (d.scale() > 16_383) {
      throw bad(row, column, PgType.NUMERIC, "has " + d.scale() + " digits after the decimal"
          + " point; PostgreSQL numeric keeps at most 16383");
    }
    if (d.precision() - d.scale() > 131_072) {
      throw bad(row, column, PgType.NUMERIC, "has " + (d.precision() - d.scale())
          + " digits before the decimal point; PostgreSQL numeric keeps at most 131072");
    }
    return d;
  }

  private static LocalDateTime checkTimestamp(LocalDateTime t, long row, String column,
      PgType type) {
    if (t.getNano() % 1000 == 0 && t.getYear() >= 1 && t.getYear() <= 294_275) {
      return t; // the common case: in range, whole microseconds
    }
    if (t.equals(LocalDateTime.MIN) || t.equals(LocalDateTime.MAX)) {
      return t;
    }
    if (t.isBefore(MIN_TIMESTAMP) || t.isAfter(MAX_TIMESTAMP.plusNanos(499))) {
      throw bad(row, column, type, "timestamp " + t + " is outside PostgreSQL's range"
          + " 4714-11-24 00:00 BC to 294276-12-31 23:59:59.999999"
          + " (LocalDateTime.MIN/MAX mean -infinity/infinity)");
    }
    // PostgreSQL keeps microseconds: round half up here, so every path stores the same value
    return t.plusNanos(500).truncatedTo(ChronoUnit.MICROS);
  }

  private static IllegalArgumentException bad(long row, String column, PgType type,
      String problem) {
    return new IllegalArgumentException("row index " + row + ", column \"" + column + "\" ("
        + type + "): " + problem);
  }

  /** A checked value as PostgreSQL's text input reads it. */
  private static String text(Object value, PgType type) {
    return switch (type) {
      case DATE -> dateText((LocalDate) value);
      case TIMESTAMP -> timestampText((LocalDateTime) value, false);
      case TIMESTAMPTZ -> {
        OffsetDateTime t = (OffsetDateTime) value;
        yield t.equals(OffsetDateTime.MIN) ? "-infinity" : t.equals(OffsetDateTime.MAX)
            ? "infinity" : timestampText(t.toLocalDateTime(), true);
      }
      // a BigDecimal, or a Double spelt NaN, Infinity or -Infinity as numeric reads them
      case NUMERIC -> value instanceof BigDecimal d ? d.toPlainString() : value.toString();
      case BYTEA -> hex((byte[]) value);
      default -> value.toString();
    };
  }

  private static String hex(byte[] bytes) {
    char[] out = new char[2 + 2 * bytes.length];
    out[0] = '\\';
    out[1] = 'x';
    for (int i = 0; i < bytes.length; i++) {
      out[2 + 2 * i] = Character.forDigit((bytes[i] >> 4) & 0xF, 16);
      out[3 + 2 * i] = Character.forDigit(bytes[i] & 0xF, 16);
    }
    return new String(out);
  }

  private static String dateText(LocalDate d) {
    if (d.equals(LocalDate.MIN)) {
      return "-infinity";
    }
    if (d.equals(LocalDate.MAX)) {
      return "infinity";
    }
    StringBuilder out = new StringBuilder(16);
    appendDate(out, d);
    return d.getYear() <= 0 ? out.append(" BC").toString() : out.toString();
  }

  private static String timestampText(LocalDateTime t, boolean utc) {
    if (t.equals(LocalDateTime.MIN)) {
      return "-infinity";
    }
    if (t.equals(LocalDateTime.MAX)) {
      return "infinity";
    }
    StringBuilder out = new StringBuilder(40);
    appendDate(out, t.toLocalDate());
    out.append(' ');
    pad(out, t.getHour(), 2).append(':');
    pad(out, t.getMinute(), 2).append(':');
    pad(out, t.getSecond(), 2);
    int micros = t.getNano() / 1000;
    if (micros != 0) {
      pad(out.append('.'), micros, 6);
    }
    if (utc) {
      out.append("+00");
    }
    return t.getYear() <= 0 ? out.append(" BC").toString() : out.toString();
  }

  // ISO year y <= 0 is (1 - y) BC: PostgreSQL has no year 0
  private static void appendDate(StringBuilder out, LocalDate d) {
    int year = d.getYear() <= 0 ? 1 - d.getYear() : d.getYear();
    pad(out, year, 4).append('-');
    pad(out, d.getMonthValue(), 2).append('-');
    pad(out, d.getDayOfMonth(), 2);
  }

  private static StringBuilder pad(StringBuilder out, int value, int width) {
    String digits = Integer.toString(value);
    for (int i = digits.length(); i < width; i++) {
      out.append('0');
    }
    return out.append(digits);
  }

  // ---- where a server error is: COPY's error context names the line and the column ----

  /** What COPY's error context says: the 1-based line, and the column if it names one. */
  private record CopyErrorAt(long line, String column) {}

  private static final Pattern COPY_LINE = Pattern.compile("line (\\d+)");

  /**
   * The line and column of "COPY t, line N, column c: ..." in the server's error context, or
   * null. The context is a stack, innermost first ("JSON data, line 1: ..." may come before
   * it), and PostgreSQL prints the names raw, so they may hold anything: the relation is read
   * past, not through, and a column matches only whole ({@code price} is not
   * {@code price: note}), followed by nothing, its quoted value or "null input".
   */
  private static CopyErrorAt copyErrorAt(SQLException e, String relation, List<String> columns) {
    ServerErrorMessage server = e instanceof PSQLException p ? p.getServerErrorMessage() : null;
    String where = server == null || server.getWhere() == null ? "" : server.getWhere();
    String prefix = "COPY " + relation + ", ";
    for (String context : where.split("\n")) {
      if (!context.startsWith(prefix)) {
        continue;
      }
      Matcher line = COPY_LINE.matcher(context);
      if (!line.region(prefix.length(), context.length()).lookingAt()) {
        return null;
      }
      String rest = context.substring(line.end());
      String named = null;
      for (String name : columns) {
        String at = ", column " + name;
        boolean whole = rest.equals(at) || rest.equals(at + ": null input")
            || rest.startsWith(at + ": \"") && rest.endsWith("\"");
        if (whole && (named == null || name.length() > named.length())) {
          named = name;
        }
      }
      return new CopyErrorAt(Long.parseLong(line.group(1)), named);
    }
    return null;
  }
}
