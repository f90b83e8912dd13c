package io.github.latencylab.batch;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Savepoint;
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
import java.util.stream.Stream;

/**
 * Inserts rows with {@code INSERT INTO t (cols) SELECT * FROM unnest(?::type[], ...)}: one
 * typed array per column ({@link Connection#createArrayOf}), so one statement carries
 * {@link #rowsPerStatement(int)} rows whatever the column count.
 *
 * <pre>{@code
 * long rows = UnnestInsert.into("item")
 *     .column("id", UnnestInsert.PgType.INT8)
 *     .column("name", UnnestInsert.PgType.TEXT)
 *     .load(connection, rows);
 * }</pre>
 *
 * <p><b>When to use it</b>: thousands to millions of rows with one ordinary SQL statement per
 * chunk (it also works where COPY is not available, and the statement text never changes, so
 * pgjdbc keeps it prepared on the server). {@code CopyLoader} is faster for large loads.
 *
 * <p><b>Limits</b>: the statement has one bind parameter per column, so the 65,535-parameter
 * limit of multi-row VALUES does not apply. A chunk is held in memory as arrays and sent as
 * one Bind message, which PostgreSQL caps at 1 GB: size {@link #rowsPerStatement(int)} to
 * your rows (default {@value #DEFAULT_ROWS_PER_STATEMENT}).
 *
 * <p><b>Round trips</b>: one per statement plus the commit: 10,000 rows are 1 + 1.
 *
 * <p><b>Transactions</b>: on a connection in autocommit mode all statements run in one
 * transaction, committed at the end; on a connection already in a transaction the load runs
 * inside a savepoint and nothing is committed. After a failure the table is as it was, the
 * connection is usable and its autocommit setting is restored.
 *
 * <p><b>Errors</b>: a value the column type cannot take throws {@link IllegalArgumentException}
 * naming the 0-based row index and the column, before its statement is sent. A statement
 * PostgreSQL rejects throws {@link SQLException} naming the rows of that statement (PostgreSQL
 * does not say which of them failed; for a duplicate key its detail names the key), with the
 * server's message and SQLState.
 *
 * <p>Needs only JDBC and pgjdbc: copy this file into your code base. Values by column type
 * are in {@link PgType}. Instances are immutable (each setter returns a new one), so a
 * configured helper can be kept in a constant and shared between threads.
 */
public final class UnnestInsert {

  /** Rows per statement unless {@link #rowsPerStatement(int)} says otherwise. */
  public static final int DEFAULT_ROWS_PER_STATEMENT = 10_000;

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
  private final int rowsPerStatement;

  private UnnestInsert(List<String> tableName, List<String> columnNames,
      List<PgType> columnTypes, int rowsPerStatement) {
    this.tableName = tableName;
    this.columnNames = columnNames;
    this.columnTypes = columnTypes;
    this.rowsPerStatement = rowsPerStatement;
  }

  /** Inserts into {@code table}, found on the search path; the name is quoted, never parsed. */
  public static UnnestInsert into(String table) {
    return new UnnestInsert(List.of(identifier(table)), List.of(), List.of(),
        DEFAULT_ROWS_PER_STATEMENT);
  }

  /** Inserts into {@code schema.table}; both names are quoted as given. */
  public static UnnestInsert into(String schema, String table) {
    return new UnnestInsert(List.of(identifier(schema), identifier(table)), List.of(),
        List.of(), DEFAULT_ROWS_PER_STATEMENT);
  }

  /** Adds a column; each row holds its values in the order the columns were added. */
  public UnnestInsert column(String name, PgType type) {
    Objects.requireNonNull(type, "type");
    if (columnNames.contains(identifier(name))) {
      throw new IllegalArgumentException("column \"" + name + "\" is listed twice");
    }
    List<String> names = new ArrayList<>(columnNames);
    names.add(name);
    List<PgType> types = new ArrayList<>(columnTypes);
    types.add(type);
    return new UnnestInsert(tableName, List.copyOf(names), List.copyOf(types), rowsPerStatement);
  }

  /** Rows per statement (default {@value #DEFAULT_ROWS_PER_STATEMENT}). */
  public UnnestInsert rowsPerStatement(int rows) {
    if (rows < 1) {
      throw new IllegalArgumentException("rows per statement must be at least 1, got " + rows);
    }
    return new UnnestInsert(tableName, columnNames, columnTypes, rows);
  }

  /** The INSERT this helper prepares, for logs and tests. */
  public String sql() {
    requireColumns();
    StringJoiner arrays = new StringJoiner(", ", "unnest(", ")");
    for (PgType type : columnTypes) {
      arrays.add("?::" + type.sqlName() + "[]");
    }
    return "INSERT INTO " + qualifiedTable() + " " + columnList() + " SELECT * FROM " + arrays;
  }

  public long load(Connection connection, Iterable<? extends Object[]> rows) throws SQLException {
    return load(connection, rows.iterator());
  }

  public long load(Connection connection, Stream<? extends Object[]> rows) throws SQLException {
    return load(connection, rows.iterator());
  }

  /**
   * Inserts every row {@code rows} yields and returns how many; holds one statement's rows
   * at a time, so the rows can be streamed.
   */
  public long load(Connection connection, Iterator<? extends Object[]> rows) throws SQLException {
    String sql = sql();
    boolean autoCommit = connection.getAutoCommit();
    Savepoint savepoint = autoCommit ? null : connection.setSavepoint();
    if (autoCommit) {
      connection.setAutoCommit(false);
    }
    long row = 0;
    try (PreparedStatement insert = connection.prepareStatement(sql)) {
      List<Object[]> pending = new ArrayList<>();
      while (rows.hasNext()) {
        pending.add(checkRow(rows.next(), row));
        row++;
        if (pending.size() == rowsPerStatement || !rows.hasNext()) {
          execute(connection, insert, pending, row - pending.size());
          pending.clear();
        }
      }
      if (autoCommit) {
        connection.commit();
      } else {
        connection.releaseSavepoint(savepoint);
      }
    } catch (SQLException | RuntimeException | Error e) {
      undo(connection, autoCommit, savepoint, e);
      throw e;
    }
    if (autoCommit) {
      connection.setAutoCommit(true);
    }
    return row;
  }

  private void execute(Connection connection, PreparedStatement insert, List<Object[]> rows,
      long firstRow) throws SQLException {
    List<Array> arrays = new ArrayList<>();
    try {
      for (int i = 0; i < columnTypes.size(); i++) {
        Array array = array(connection, columnTypes.get(i), rows, i);
        arrays.add(array);
        insert.setArray(i + 1, array);
      }
      insert.executeUpdate();
    } catch (SQLException e) {
      throw new SQLException("UnnestInsert into " + qualifiedTable() + " failed in the"
          + " statement of row index " + firstRow + " to " + (firstRow + rows.size() - 1)
          + " (PostgreSQL does not say which row): " + e.getMessage(), e.getSQLState(), e);
    } finally {
      for (Array array : arrays) {
        array.free();
      }
    }
  }

  /**
   * Column {@code i} of {@code rows} as an array pgjdbc can send: Java arrays of the
   * column's type where pgjdbc encodes them, else PostgreSQL's text form in a text[] that
   * the statement's {@code ::type[]} cast parses (no type lookups, no extra round trips).
   */
  private static Array array(Connection connection, PgType type, List<Object[]> rows, int i)
      throws SQLException {
    int n = rows.size();
    Object[] values = switch (type) {
      case INT2 -> new Short[n];
      case INT4 -> new Integer[n];
      case INT8 -> new Long[n];
      case FLOAT4 -> new Float[n];
      case FLOAT8 -> new Double[n];
      case BOOL -> new Boolean[n];
      case BYTEA -> new byte[n][];
      default -> new String[n];
    };
    boolean asText = values instanceof String[];
    for (int r = 0; r < n; r++) {
      Object value = rows.get(r)[i];
      values[r] = value == null || !asText ? value : text(value, type);
    }
    String elementType = switch (type) {
      case INT2, INT4, INT8, FLOAT4, FLOAT8, BOOL, BYTEA, VARCHAR -> type.sqlName();
      default -> "text";
    };
    return connection.createArrayOf(elementType, values);
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
