package io.github.latencylab.batch;

import java.math.BigDecimal;
import java.math.BigInteger;
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
import java.util.stream.Stream;

/**
 * Inserts rows with multi-row {@code INSERT ... VALUES (?, ...), (?, ...), ...} statements,
 * as many rows per statement as PostgreSQL's bind-parameter limit allows.
 *
 * <pre>{@code
 * long rows = MultiRowInsert.into("item")
 *     .column("id", MultiRowInsert.PgType.INT8)
 *     .column("name", MultiRowInsert.PgType.TEXT)
 *     .load(connection, rows);
 * }</pre>
 *
 * <p><b>When to use it</b>: a few hundred to a few hundred thousand rows, with nothing but
 * portable SQL: one round trip per statement instead of one per row. {@code UnnestInsert}
 * needs one statement where this needs several, and {@code CopyLoader} is faster still for
 * large loads.
 *
 * <p><b>The 65,535-parameter limit</b>: the extended protocol's Bind message counts its
 * parameters in a 16-bit field, so one statement can carry at most 65,535 of them; pgjdbc
 * refuses more ("PreparedStatement can have at most 65,535 parameters"), and older drivers
 * wrapped the count ("bind message supplies 4464 parameters, but prepared statement requires
 * 70000"). So a statement carries at most floor(65,535 / columns) rows: 32,767 rows of 2
 * columns, 4,369 rows of 15. {@link #maxRowsPerStatement(int)} can lower that; the default
 * cap is {@value #DEFAULT_MAX_ROWS_PER_STATEMENT} rows, past which bigger statements save
 * little and cost planning time and memory on both sides.
 *
 * <p><b>Round trips</b>: one per statement, ceil(rows / {@link #rowsPerStatement()}), plus the
 * commit: 10,000 rows of 2 columns are 10 + 1. The rows of one statement are held in memory
 * until it is sent; the input is otherwise streamed.
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
public final class MultiRowInsert {

  /** At most this many bind parameters per statement: the Bind message counts them in 16 bits. */
  public static final int MAX_PARAMETERS = 65_535;

  /** Rows per statement unless {@link #maxRowsPerStatement(int)} says otherwise. */
  public static final int DEFAULT_MAX_ROWS_PER_STATEMENT = 1_000;

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
  private final int maxRowsPerStatement;

  private MultiRowInsert(List<String> tableName, List<String> columnNames,
      List<PgType> columnTypes, int maxRowsPerStatement) {
    this.tableName = tableName;
    this.columnNames = columnNames;
    this.columnTypes = columnTypes;
    this.maxRowsPerStatement = maxRowsPerStatement;
  }

  /** Inserts into {@code table}, found on the search path; the name is quoted, never parsed. */
  public static MultiRowInsert into(String table) {
    return new MultiRowInsert(List.of(identifier(table)), List.of(), List.of(),
        DEFAULT_MAX_ROWS_PER_STATEMENT);
  }

  /** Inserts into {@code schema.table}; both names are quoted as given. */
  public static MultiRowInsert into(String schema, String table) {
    return new MultiRowInsert(List.of(identifier(schema), identifier(table)), List.of(),
        List.of(), DEFAULT_MAX_ROWS_PER_STATEMENT);
  }

  /** Adds a column; each row holds its values in the order the columns were added. */
  public MultiRowInsert column(String name, PgType type) {
    Objects.requireNonNull(type, "type");
    if (columnNames.contains(identifier(name))) {
      throw new IllegalArgumentException("column \"" + name + "\" is listed twice");
    }
    if ((columnNames.size() + 1) > MAX_PARAMETERS) {
      throw new IllegalArgumentException("more columns than bind parameters in a statement");
    }
    List<String> names = new ArrayList<>(columnNames);
    names.add(name);
    List<PgType> types = new ArrayList<>(columnTypes);
    types.add(type);
    return new MultiRowInsert(tableName, List.copyOf(names), List.copyOf(types),
        maxRowsPerStatement);
  }

  /**
   * At most {@code rows} rows per statement (default
   * {@value #DEFAULT_MAX_ROWS_PER_STATEMENT}); never more than 65,535 / columns.
   */
  public MultiRowInsert maxRowsPerStatement(int rows) {
    if (rows < 1) {
      throw new IllegalArgumentException("rows per statement must be at least 1, got " + rows);
    }
    return new MultiRowInsert(tableName, columnNames, columnTypes, rows);
  }

  /** Rows per statement: the cap, and no more than the 65,535 bind parameters allow. */
  public int rowsPerStatement() {
    requireColumns();
    return Math.min(maxRowsPerStatement, MAX_PARAMETERS / columnNames.size());
  }

  /** The INSERT for {@code rows} rows, for logs and tests. */
  public String sql(int rows) {
    requireColumns();
    StringJoiner tuple = new StringJoiner(", ", "(", ")");
    for (PgType type : columnTypes) {
      tuple.add("?::" + type.sqlName());
    }
    String one = tuple.toString();
    StringBuilder sql = new StringBuilder(rows * (one.length() + 2) + 100)
        .append("INSERT INTO ").append(qualifiedTable()).append(' ').append(columnList())
        .append(" VALUES ");
    for (int r = 0; r < rows; r++) {
      sql.append(r == 0 ? "" : ", ").append(one);
    }
    return sql.toString();
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
    int perStatement = rowsPerStatement();
    boolean autoCommit = connection.getAutoCommit();
    Savepoint savepoint = autoCommit ? null : connection.setSavepoint();
    if (autoCommit) {
      connection.setAutoCommit(false);
    }
    PreparedStatement full = null; // the statement of perStatement rows, prepared once
    long row = 0;
    try {
      List<Object[]> pending = new ArrayList<>();
      while (rows.hasNext()) {
        pending.add(checkRow(rows.next(), row));
        row++;
        if (pending.size() == perStatement || !rows.hasNext()) {
          if (pending.size() == perStatement) {
            if (full == null) {
              full = connection.prepareStatement(sql(perStatement));
            }
            execute(full, pending, row - pending.size());
          } else {
            try (PreparedStatement rest = connection.prepareStatement(sql(pending.size()))) {
              execute(rest, pending, row - pending.size());
            }
          }
          pending.clear();
        }
      }
      if (full != null) {
        full.close();
      }
      if (autoCommit) {
        connection.commit();
      } else {
        connection.releaseSavepoint(savepoint);
      }
    } catch (SQLException | RuntimeException | Error e) {
      closeQuietly(full, e);
      undo(connection, autoCommit, savepoint, e);
      throw e;
    }
    if (autoCommit) {
      connection.setAutoCommit(true);
    }
    return row;
  }

  private void execute(PreparedStatement insert, List<Object[]> rows, long firstRow)
      throws SQLException {
    int columns = columnNames.size();
    for (int r = 0; r < rows.size(); r++) {
      bind(insert, r * columns + 1, rows.get(r));
    }
    try {
      insert.executeUpdate();
    } catch (SQLException e) {
      throw new SQLException("MultiRowInsert into " + qualifiedTable() + " failed in the"
          + " statement of row index " + firstRow + " to " + (firstRow + rows.size() - 1)
          + " (PostgreSQL does not say which row): " + e.getMessage(), e.getSQLState(), e);
    }
  }

  private static void closeQuietly(PreparedStatement statement, Throwable failure) {
    if (statement != null) {
      try {
        statement.close();
      } catch (SQLException e) {
        failure.addSuppressed(e);
      }
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
