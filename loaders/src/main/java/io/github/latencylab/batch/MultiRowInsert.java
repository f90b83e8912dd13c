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
import org.postgresql.util.PSQLException;
import org.postgresql.util.ServerErrorMessage;

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
 * columns, 4,369 rows of 15. {@link #rowsPerStatement(int)} sets how many (default
 * {@value #DEFAULT_ROWS_PER_STATEMENT}, past which bigger statements save little and cost
 * planning time and memory on both sides), never more than that limit.
 *
 * <p><b>Round trips</b>: one per statement, ceil(rows / {@link #rowsPerStatement()}), and
 * nothing more: 10,000 rows of 2 columns are 10. The transaction control rides with the
 * statements (see below). The rows of one statement are held in memory until it is sent; the
 * input is otherwise streamed.
 *
 * <p><b>Transactions</b>: all-or-nothing. On a connection in autocommit mode one statement is
 * atomic by itself; several run in one transaction whose BEGIN rides with the first and whose
 * COMMIT rides with the last. On a connection already in a transaction the load runs inside a
 * savepoint (set with the first statement, released with the last) and nothing is committed.
 * After a failure the table is as it was, the connection is usable and its autocommit setting
 * is as it was.
 *
 * <p><b>Errors</b>: a value the column type cannot take throws {@link IllegalArgumentException}
 * naming the 0-based row index and the column, before its statement is sent. A statement
 * PostgreSQL rejects throws {@link SQLException} with the server's message and SQLState,
 * naming the row index and, for a value, the column: PostgreSQL does not say which row of a
 * statement failed, so the helper replays that statement's rows through COPY, whose errors
 * do, and rolls the replay back (a few round trips, only on failure).
 *
 * <p>Needs only JDBC and pgjdbc: copy this file into your code base. Values by column type
 * are in {@link PgType}. Instances are immutable (each setter returns a new one), so a
 * configured helper can be kept in a constant and shared between threads.
 */
public final class MultiRowInsert {

  /** At most this many bind parameters per statement: the Bind message counts them in 16 bits. */
  public static final int MAX_PARAMETERS = 65_535;

  /** Rows per statement unless {@link #rowsPerStatement(int)} says otherwise. */
  public static final int DEFAULT_ROWS_PER_STATEMENT = 1_000;

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

  private final List<String> tableName;
  private final List<String> columnNames;
  private final List<PgType> columnTypes;
  private final int rowsPerStatement;

  private MultiRowInsert(List<String> tableName, List<String> columnNames,
      List<PgType> columnTypes, int rowsPerStatement) {
    this.tableName = tableName;
    this.columnNames = columnNames;
    this.columnTypes = columnTypes;
    this.rowsPerStatement = rowsPerStatement;
  }

  /** Inserts into {@code table}, found on the search path; the name is quoted, never parsed. */
  public static MultiRowInsert into(String table) {
    return new MultiRowInsert(List.of(identifier(table)), List.of(), List.of(),
        DEFAULT_ROWS_PER_STATEMENT);
  }

  /** Inserts into {@code schema.table}; both names are quoted as given. */
  public static MultiRowInsert into(String schema, String table) {
    return new MultiRowInsert(List.of(identifier(schema), identifier(table)), List.of(),
        List.of(), DEFAULT_ROWS_PER_STATEMENT);
  }

  /** Adds a column; each row holds its values in the order the columns were added. */
  public MultiRowInsert column(String name, PgType type) {
    Objects.requireNonNull(type, "type");
    if (columnNames.contains(identifier(name))) {
      throw new IllegalArgumentException("column \"" + name + "\" is listed twice");
    }
    if (columnNames.size() + 1 > MAX_PARAMETERS) {
      throw new IllegalArgumentException("more columns than bind parameters in a statement");
    }
    List<String> names = new ArrayList<>(columnNames);
    names.add(name);
    List<PgType> types = new ArrayList<>(columnTypes);
    types.add(type);
    return new MultiRowInsert(tableName, List.copyOf(names), List.copyOf(types),
        rowsPerStatement);
  }

  /**
   * Rows per statement (default {@value #DEFAULT_ROWS_PER_STATEMENT}); a statement never
   * carries more than 65,535 / columns, whatever is set here.
   */
  public MultiRowInsert rowsPerStatement(int rows) {
    if (rows < 1) {
      throw new IllegalArgumentException("rowsPerStatement must be at least 1, got " + rows);
    }
    return new MultiRowInsert(tableName, columnNames, columnTypes, rows);
  }

  /** Rows per statement: as set, and no more than the 65,535 bind parameters allow. */
  public int rowsPerStatement() {
    return Math.min(rowsPerStatement, MAX_PARAMETERS / Math.max(1, columnNames.size()));
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
    requireColumns();
    int perStatement = rowsPerStatement();
    String full = null; // the statement of perStatement rows, prepared once
    PreparedStatement fullStatement = null;
    AllOrNothing transaction = new AllOrNothing(connection);
    List<Object[]> pending = new ArrayList<>();
    long row = 0;
    boolean first = true;
    try {
      while (rows.hasNext()) {
        pending.add(checkRow(rows.next(), row));
        row++;
        boolean last = !rows.hasNext();
        if (pending.size() == perStatement || last) {
          boolean isFull = pending.size() == perStatement;
          if (isFull && full == null) {
            full = sql(perStatement);
          }
          String plain = isFull ? full : sql(pending.size());
          String statement = transaction.sql(plain, first, last);
          if (isFull && statement.equals(plain)) {
            if (fullStatement == null) {
              fullStatement = connection.prepareStatement(full);
            }
            execute(fullStatement, pending);
          } else {
            try (PreparedStatement once = connection.prepareStatement(statement)) {
              execute(once, pending);
            }
          }
          first = false;
          pending.clear();
        }
      }
      if (fullStatement != null) {
        fullStatement.close();
      }
      transaction.done();
    } catch (SQLException | RuntimeException | Error e) {
      closeQuietly(fullStatement, e);
      transaction.undo(e);
      if (e instanceof SQLException s && !pending.isEmpty()) {
        throw refused(connection, s, pending, row - pending.size(), "statement");
      }
      throw e;
    }
    return row;
  }

  private void execute(PreparedStatement insert, List<Object[]> rows) throws SQLException {
    int columns = columnNames.size();
    for (int r = 0; r < rows.size(); r++) {
      bind(insert, r * columns + 1, rows.get(r));
    }
    insert.execute();
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

  // ---- transaction control rides with the statements: one round trip per statement ----

  /**
   * Makes a load of one or more statements all-or-nothing without a round trip of its own.
   * On an autocommit connection one statement is atomic by itself; for more, BEGIN rides with
   * the first (pgjdbc sends it in the same message flow) and COMMIT with the last. In the
   * caller's transaction a SAVEPOINT rides with the first and its RELEASE with the last, so a
   * failure undoes the load alone. pgjdbc learns that a transaction ended from the server's
   * ReadyForQuery, so it knows the COMMIT it did not send.
   */
  private static final class AllOrNothing {
    private static final String SAVEPOINT = "batch_load";

    private final Connection connection;
    private final boolean autoCommit;
    private boolean started;

    AllOrNothing(Connection connection) throws SQLException {
      this.connection = connection;
      this.autoCommit = connection.getAutoCommit();
    }

    /** {@code statement} with the transaction control that rides along with it. */
    String sql(String statement, boolean first, boolean last) throws SQLException {
      if (first) {
        started = true;
        if (autoCommit && !last) {
          connection.setAutoCommit(false);
        }
      }
      String before = first && !autoCommit ? "SAVEPOINT " + SAVEPOINT + "; " : "";
      String after = !last || autoCommit && first ? ""
          : autoCommit ? "; COMMIT" : "; RELEASE SAVEPOINT " + SAVEPOINT;
      return before + statement + after;
    }

    /** After the last statement: autocommit as it was (its COMMIT has been sent already). */
    void done() throws SQLException {
      connection.setAutoCommit(autoCommit);
    }

    /** Undoes what the load did and restores autocommit; never hides {@code failure}. */
    void undo(Throwable failure) {
      if (!started) {
        return;
      }
      try {
        if (autoCommit) {
          if (!connection.getAutoCommit()) {
            connection.rollback();
            connection.setAutoCommit(true);
          }
        } else {
          try (Statement st = connection.createStatement()) {
            st.execute("ROLLBACK TO SAVEPOINT " + SAVEPOINT + "; RELEASE SAVEPOINT " + SAVEPOINT);
          }
        }
      } catch (SQLException | RuntimeException e) {
        failure.addSuppressed(e);
      }
    }
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
