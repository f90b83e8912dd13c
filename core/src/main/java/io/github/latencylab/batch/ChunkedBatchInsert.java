package io.github.latencylab.batch;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Savepoint;
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

/**
 * Inserts rows with one {@code INSERT ... VALUES (?, ...)} per row, sent with JDBC's
 * {@code addBatch}/{@code executeBatch} in chunks of {@link #batchSize(int)} rows.
 *
 * <pre>{@code
 * long rows = ChunkedBatchInsert.into("item")
 *     .column("id", ChunkedBatchInsert.PgType.INT8)
 *     .column("name", ChunkedBatchInsert.PgType.TEXT)
 *     .load(connection, List.of(new Object[] {1L, "one"}, new Object[] {2L, "two"}));
 * }</pre>
 *
 * <p><b>When to use it</b>: when you want plain JDBC batching, a failing row reported by its
 * exact index, or commits every chunk. It is the slowest of the batch helpers over a slow
 * network: for many rows prefer {@code UnnestInsert} or {@code CopyLoader}.
 *
 * <p><b>Round trips</b>: pgjdbc sends a batch without waiting for replies, but it reckons 250
 * bytes of reply per statement and, so that neither side blocks on a full socket buffer,
 * sends a Sync and reads the replies before a statement would take that past 64,000 bytes:
 * before the 256th statement, so every 255 statements. A chunk of n rows costs
 * ceil(n / 255) round trips, plus one per commit: 10,000 rows in chunks of 1,000 are
 * 10 x 4 + 1 = 41; a chunk of 255 rows is one round trip, of 256 two.
 *
 * <p><b>Transactions</b> (default: all-or-nothing): on a connection in autocommit mode every
 * chunk runs in one transaction, committed at the end; on a connection already in a
 * transaction the load runs inside a savepoint and nothing is committed. Either way, after a
 * failure the table is as it was, the connection is usable and its autocommit setting is
 * restored. {@link #commitPerChunk()} commits after every chunk instead (autocommit
 * connections only): a failure then keeps the chunks committed before it.
 *
 * <p><b>Errors</b>: a value the column type cannot take (wrong Java type, a NUL character in
 * text, a date PostgreSQL cannot store...) throws {@link IllegalArgumentException} naming the
 * 0-based row index and the column, before the chunk is sent. A statement PostgreSQL rejects
 * (a duplicate key, say) throws {@link SQLException} naming the row index, with the server's
 * message, SQLState and the driver's exception as cause. With pgjdbc's
 * {@code reWriteBatchedInserts=true} the driver folds rows into multi-row statements, so only
 * the chunk is named.
 *
 * <p>Needs only JDBC and pgjdbc: copy this file into your code base. Values by column type
 * are in {@link PgType}. Instances are immutable (each setter returns a new one), so a
 * configured helper can be kept in a constant and shared between threads.
 */
public final class ChunkedBatchInsert {

  /** Rows per {@code executeBatch} unless {@link #batchSize(int)} says otherwise. */
  public static final int DEFAULT_BATCH_SIZE = 1_000;

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
   *       after), {@link BigInteger}, {@link Long}, {@link Integer} or {@link Short};
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

  private final List<String> tableName;
  private final List<String> columnNames;
  private final List<PgType> columnTypes;
  private final int batchSize;
  private final boolean commitPerChunk;

  private ChunkedBatchInsert(List<String> tableName, List<String> columnNames,
      List<PgType> columnTypes, int batchSize, boolean commitPerChunk) {
    this.tableName = tableName;
    this.columnNames = columnNames;
    this.columnTypes = columnTypes;
    this.batchSize = batchSize;
    this.commitPerChunk = commitPerChunk;
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
        commitPerChunk);
  }

  /** Rows per {@code executeBatch} (default {@value #DEFAULT_BATCH_SIZE}). */
  public ChunkedBatchInsert batchSize(int rows) {
    if (rows < 1) {
      throw new IllegalArgumentException("batch size must be at least 1, got " + rows);
    }
    return new ChunkedBatchInsert(tableName, columnNames, columnTypes, rows, commitPerChunk);
  }

  /**
   * Commits after every chunk instead of once at the end: a long load then holds locks and
   * row versions for one chunk at a time, but a failure keeps the chunks before it. Needs a
   * connection in autocommit mode (it would otherwise commit the caller's transaction).
   */
  public ChunkedBatchInsert commitPerChunk() {
    return new ChunkedBatchInsert(tableName, columnNames, columnTypes, batchSize, true);
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
   * Inserts every row {@code rows} yields and returns how many; reads at most one chunk
   * ahead, so the rows can be streamed.
   */
  public long load(Connection connection, Iterator<? extends Object[]> rows) throws SQLException {
    String sql = sql();
    boolean autoCommit = connection.getAutoCommit();
    if (commitPerChunk && !autoCommit) {
      throw new IllegalStateException("commitPerChunk() commits, so it needs a connection in"
          + " autocommit mode; this one is in a transaction that a commit would end");
    }
    Savepoint savepoint = autoCommit ? null : connection.setSavepoint();
    if (autoCommit) {
      connection.setAutoCommit(false);
    }
    long committed = 0; // rows committed by commitPerChunk
    long row = 0;
    try (PreparedStatement insert = connection.prepareStatement(sql)) {
      long chunkStart = 0;
      while (rows.hasNext()) {
        bind(insert, 1, checkRow(rows.next(), row));
        insert.addBatch();
        row++;
        if (row - chunkStart == batchSize || !rows.hasNext()) {
          executeChunk(connection, insert, chunkStart, row);
          if (commitPerChunk) {
            connection.commit();
            committed = row;
          }
          chunkStart = row;
        }
      }
      if (autoCommit) {
        connection.commit();
      } else {
        connection.releaseSavepoint(savepoint);
      }
    } catch (SQLException | RuntimeException | Error e) {
      undo(connection, autoCommit, savepoint, e);
      if (committed == 0) {
        throw e;
      }
      String kept = "; " + committed + " rows (row index 0 to " + (committed - 1)
          + ") were committed by earlier chunks and stay, the failing chunk was rolled back";
      if (e instanceof SQLException s) {
        throw new SQLException(s.getMessage() + kept, s.getSQLState(), s);
      }
      if (e instanceof IllegalArgumentException) {
        throw new IllegalArgumentException(e.getMessage() + kept, e);
      }
      throw e;
    }
    if (autoCommit) {
      connection.setAutoCommit(true);
    }
    return row;
  }

  private void executeChunk(Connection connection, PreparedStatement insert, long chunkStart,
      long chunkEnd) throws SQLException {
    try {
      insert.executeBatch();
    } catch (BatchUpdateException e) {
      SQLException server = e.getNextException() != null ? e.getNextException() : e;
      String where;
      Matcher entry = BATCH_ENTRY.matcher(String.valueOf(e.getMessage()));
      if (!rewritesBatches(connection) && entry.find()) {
        where = "row index " + (chunkStart + Long.parseLong(entry.group(1)));
      } else {
        where = "the chunk of row index " + chunkStart + " to " + (chunkEnd - 1)
            + " (the driver did not say which row)";
      }
      throw new SQLException("ChunkedBatchInsert into " + qualifiedTable() + " failed at " + where
          + ": " + server.getMessage(), server.getSQLState(), e);
    }
  }

  // pgjdbc: "Batch entry {0} {1} was aborted: {2}", entry counted from 0 within the batch
  private static final Pattern BATCH_ENTRY = Pattern.compile("Batch entry (\\d+) ");

  // with reWriteBatchedInserts pgjdbc's entries are its multi-row statements, not our rows
  private static boolean rewritesBatches(Connection connection) {
    try {
      return connection.unwrap(org.postgresql.core.BaseConnection.class).getQueryExecutor()
          .isReWriteBatchedInsertsEnabled();
    } catch (SQLException | RuntimeException | LinkageError notPgjdbc) {
      return true; // cannot tell: do not name a row that may be the wrong one
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
        case NUMERIC -> insert.setBigDecimal(p, (BigDecimal) value);
        case FLOAT4 -> insert.setFloat(p, (Float) value);
        case FLOAT8 -> insert.setDouble(p, (Double) value);
        case BOOL -> insert.setBoolean(p, (Boolean) value);
        case BYTEA -> insert.setBytes(p, (byte[]) value);
        // the rest as text that the ::type cast parses: pgjdbc would turn dates before
        // 4713 BC into -infinity, and one bind type per column keeps one prepared statement
        default -> insert.setString(p, text(value, type));
      }
    }
  }

  private static int nullType(PgType type) {
    return switch (type) {
      case INT2 -> Types.SMALLINT;
      case INT4 -> Types.INTEGER;
      case INT8 -> Types.BIGINT;
      case NUMERIC -> Types.NUMERIC;
      case FLOAT4 -> Types.REAL;
      case FLOAT8 -> Types.DOUBLE;
      case BOOL -> Types.BOOLEAN;
      case BYTEA -> Types.BINARY;
      default -> Types.VARCHAR;
    };
  }

  /** Rolls back what this load did and restores autocommit; never hides {@code failure}. */
  private static void undo(Connection connection, boolean autoCommit, Savepoint savepoint,
      Throwable failure) {
    try {
      if (savepoint == null) {
        connection.rollback();
      } else {
        connection.rollback(savepoint);
      }
      if (autoCommit) {
        connection.setAutoCommit(true);
      }
    } catch (SQLException | RuntimeException e) {
      failure.addSuppressed(e);
    }
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
   * Long, BigDecimal with scale >= 0, Float, Double, Boolean, String, LocalDate,
   * LocalDateTime, UTC OffsetDateTime, UUID, byte[]), or an exception naming row and column.
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
        if (value instanceof Integer || value instanceof Short) {
          return ((Number) value).intValue();
        }
      }
      case INT8 -> {
        if (value instanceof Long || value instanceof Integer || value instanceof Short) {
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
      case NUMERIC -> "BigDecimal, BigInteger, Long, Integer or Short";
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
      case NUMERIC -> ((BigDecimal) value).toPlainString();
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
}
