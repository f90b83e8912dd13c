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
import java.util.Locale;
import java.util.Objects;
import java.util.StringJoiner;
import java.util.UUID;
import java.util.function.IntFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.postgresql.PGConnection;
import org.postgresql.util.PSQLException;
import org.postgresql.util.ServerErrorMessage;

/**
 * What the four loaders share: the column types and the Java values each takes, their checks
 * and PostgreSQL text forms, quoted names, the all-or-nothing transaction, the replay that
 * finds the row of a refused statement, and where COPY's errors point. A loader is copied as
 * two files, its own and this one; each loader keeps only what differs (the SQL it sends, how
 * it binds or streams). Package-private: users reach it through a loader's API.
 */
final class PgValues {

  private PgValues() {}

  /**
   * The column types the loaders take, and the Java values each takes ({@code null} is SQL
   * NULL for any of them). Each loader's own {@code PgType} has the same constants.
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
  enum Type {
    TEXT, VARCHAR, INT2, INT4, INT8, NUMERIC, FLOAT4, FLOAT8, BOOL, DATE, TIMESTAMP, TIMESTAMPTZ,
    UUID, BYTEA, JSONB;

    String sqlName() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** A loader's own {@code PgType} constant as the {@link Type} of the same name. */
  static Type type(Enum<?> declared) {
    return Type.valueOf(Objects.requireNonNull(declared, "type").name());
  }

  /**
   * The table a loader fills and its columns, in the order of each row's values: immutable,
   * quoted wherever it goes into SQL.
   */
  record Target(List<String> table, List<String> names, List<Type> types) {

    /** The table (one name, or schema and name); the names are quoted, never parsed. */
    static Target of(String... table) {
      List<String> parts = new ArrayList<>();
      for (String part : table) {
        parts.add(identifier(part));
      }
      return new Target(List.copyOf(parts), List.of(), List.of());
    }

    Target column(String name, Type type) {
      if (names.contains(identifier(name))) {
        throw new IllegalArgumentException("column \"" + name + "\" is listed twice");
      }
      List<String> moreNames = new ArrayList<>(names);
      moreNames.add(name);
      List<Type> moreTypes = new ArrayList<>(types);
      moreTypes.add(type);
      return new Target(table, List.copyOf(moreNames), List.copyOf(moreTypes));
    }

    void requireColumns() {
      if (names.isEmpty()) {
        throw new IllegalStateException("no columns: add them with column(name, type)");
      }
    }

    String qualifiedTable() {
      StringJoiner name = new StringJoiner(".");
      table.forEach(part -> name.add(quote(part)));
      return name.toString();
    }

    /** The table's own name, as the server's errors show it. */
    String relation() {
      return table.get(table.size() - 1);
    }

    String columnList() {
      StringJoiner list = new StringJoiner(", ", "(", ")");
      names.forEach(c -> list.add(quote(c)));
      return list.toString();
    }

    /** A row holds one value per column, or an exception names it. */
    void checkShape(Object[] row, long index) {
      if (row == null) {
        throw new IllegalArgumentException("row index " + index + " is null");
      }
      if (row.length != names.size()) {
        throw new IllegalArgumentException("row index " + index + " has " + row.length
            + " values; expected " + names.size() + " " + columnList());
      }
    }

    /** The row's values checked and in the form they are sent, or an exception naming them. */
    Object[] checkRow(Object[] row, long index) {
      checkShape(row, index);
      Object[] checked = new Object[row.length];
      for (int i = 0; i < row.length; i++) {
        checked[i] = check(row[i], types.get(i), index, names.get(i));
      }
      return checked;
    }
  }

  // ---- binding: one parameter per value ----

  /** Binds a checked row to the parameters from {@code first} (1-based) on. */
  static void bind(PreparedStatement insert, int first, Object[] checked, List<Type> types)
      throws SQLException {
    for (int i = 0; i < checked.length; i++) {
      Type type = types.get(i);
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

  private static int nullType(Type type) {
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

  // ---- all-or-nothing: the load's transaction, or a savepoint in the caller's ----

  /**
   * Makes a load all-or-nothing, with as few round trips of its own as the protocol allows.
   * On an autocommit connection one statement is atomic by itself; for more, BEGIN rides with
   * the first (pgjdbc sends it in the same message flow) and COMMIT with the last. In the
   * caller's transaction a SAVEPOINT rides with the first and its RELEASE with the last, so a
   * failure undoes the load alone. pgjdbc learns that a transaction ended from the server's
   * ReadyForQuery, so it knows the COMMIT it did not send. Where a statement cannot carry
   * them (a JDBC batch, a COPY), {@link #begin()}, {@link #savepoint()} and
   * {@link #release()} send them alone.
   */
  static final class AllOrNothing {
    private static final String SAVEPOINT = "batch_load";

    private final Connection connection;
    private final boolean autoCommit;
    private boolean started;

    AllOrNothing(Connection connection) throws SQLException {
      this.connection = connection;
      this.autoCommit = connection.getAutoCommit();
    }

    /** Whether the connection was in autocommit mode: the load then commits what it does. */
    boolean autoCommit() {
      return autoCommit;
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

    /** Autocommit off: pgjdbc sends BEGIN with the next statement. */
    void begin() throws SQLException {
      connection.setAutoCommit(false);
      started = true;
    }

    /** A SAVEPOINT in the caller's transaction, sent alone. */
    void savepoint() throws SQLException {
      execute("SAVEPOINT " + SAVEPOINT);
      started = true;
    }

    /** The SAVEPOINT's RELEASE, sent alone. */
    void release() throws SQLException {
      execute("RELEASE SAVEPOINT " + SAVEPOINT);
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
          execute("ROLLBACK TO SAVEPOINT " + SAVEPOINT + "; RELEASE SAVEPOINT " + SAVEPOINT);
        }
      } catch (SQLException | RuntimeException e) {
        failure.addSuppressed(e);
      }
    }

    private void execute(String sql) throws SQLException {
      try (Statement st = connection.createStatement()) {
        st.execute(sql);
      }
    }
  }

  // ---- a load in statements of many rows: one round trip each ----

  /** Binds one statement's checked rows and executes it. */
  @FunctionalInterface
  interface RowsSender {
    void send(Connection connection, PreparedStatement statement, List<Object[]> rows)
        throws SQLException;
  }

  /**
   * Loads {@code rows} in statements of {@code perStatement} rows (the last may hold fewer),
   * all or nothing, and returns how many. The statement without transaction control is
   * prepared once and reused; one that carries it is prepared for its one use. Holds one
   * statement's rows at a time, so the rows can be streamed.
   */
  static long loadByStatement(String loader, Target target, int perStatement,
      IntFunction<String> sqlFor, RowsSender sender, Connection connection,
      Iterator<? extends Object[]> rows) throws SQLException {
    AllOrNothing transaction = new AllOrNothing(connection);
    String fullSql = null; // built once: a multi-row statement's text is long
    String reusedSql = null;
    PreparedStatement reused = null;
    List<Object[]> pending = new ArrayList<>();
    long row = 0;
    boolean first = true;
    try {
      while (rows.hasNext()) {
        pending.add(target.checkRow(rows.next(), row));
        row++;
        boolean last = !rows.hasNext();
        if (pending.size() == perStatement || last) {
          boolean full = pending.size() == perStatement;
          if (full && fullSql == null) {
            fullSql = sqlFor.apply(perStatement);
          }
          String plain = full ? fullSql : sqlFor.apply(pending.size());
          String statement = transaction.sql(plain, first, last);
          if (statement.equals(plain) && (reused == null || plain.equals(reusedSql))) {
            if (reused == null) {
              reused = connection.prepareStatement(plain);
              reusedSql = plain;
            }
            sender.send(connection, reused, pending);
          } else {
            try (PreparedStatement once = connection.prepareStatement(statement)) {
              sender.send(connection, once, pending);
            }
          }
          first = false;
          pending.clear();
        }
      }
      if (reused != null) {
        reused.close();
      }
      transaction.done();
    } catch (SQLException | RuntimeException | Error e) {
      if (reused != null) {
        try {
          reused.close();
        } catch (SQLException closing) {
          e.addSuppressed(closing);
        }
      }
      transaction.undo(e);
      if (e instanceof SQLException s && !pending.isEmpty()) {
        throw refused(loader, target, connection, s, pending, row - pending.size(), "statement");
      }
      throw e;
    }
    return row;
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
  static SQLException refused(String loader, Target target, Connection connection,
      SQLException failure, List<Object[]> rows, long firstRow, String unit) {
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
    CopyErrorAt at = replayable ? replay(target, connection, server, rows) : null;
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
    return new SQLException(loader + " into " + target.qualifiedTable() + " failed " + where
        + ": " + reported.getMessage(), state, failure);
  }

  private static CopyErrorAt replay(Target target, Connection connection, PSQLException server,
      List<Object[]> rows) {
    StringBuilder text = new StringBuilder();
    for (Object[] row : rows) {
      for (int i = 0; i < row.length; i++) {
        String value = row[i] == null ? null
            : row[i] instanceof String s ? s : text(row[i], target.types().get(i));
        text.append(i == 0 ? "" : "\t").append(value == null ? "\\N" : value
            .replace("\\", "\\\\").replace("\n", "\\n").replace("\r", "\\r")
            .replace("\t", "\\t"));
      }
      text.append('\n');
    }
    String copy = "COPY " + target.qualifiedTable() + " " + target.columnList() + " FROM STDIN";
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
            ? copyErrorAt(again, target.relation(), target.names()) : null;
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


  // ---- identifiers: always quoted, so no name can end the identifier and start SQL ----

  static String identifier(String name) {
    if (name == null || name.isEmpty()) {
      throw new IllegalArgumentException("a table or column name cannot be null or empty");
    }
    if (name.indexOf('\0') >= 0) {
      throw new IllegalArgumentException("a table or column name cannot contain NUL: " + name);
    }
    return name;
  }

  static String quote(String identifier) {
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
  static Object check(Object value, Type type, long row, String column) {
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
      case INT2, FLOAT4, FLOAT8, BOOL, UUID, BYTEA -> { // one class each, sent as it is
        if (type == Type.INT2 ? value instanceof Short
            : type == Type.FLOAT4 ? value instanceof Float
            : type == Type.FLOAT8 ? value instanceof Double
            : type == Type.BOOL ? value instanceof Boolean
            : type == Type.UUID ? value instanceof UUID
            : value instanceof byte[]) {
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
    }
    throw bad(row, column, type, "expected " + javaTypes(type) + ", got "
        + value.getClass().getName());
  }

  private static String javaTypes(Type type) {
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

  private static void checkText(String s, Type type, long row, String column) {
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
      throw bad(row, column, Type.NUMERIC, "has " + d.scale() + " digits after the decimal"
          + " point; PostgreSQL numeric keeps at most 16383");
    }
    if (d.precision() - d.scale() > 131_072) {
      throw bad(row, column, Type.NUMERIC, "has " + (d.precision() - d.scale())
          + " digits before the decimal point; PostgreSQL numeric keeps at most 131072");
    }
    return d;
  }

  private static LocalDateTime checkTimestamp(LocalDateTime t, long row, String column,
      Type type) {
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

  private static IllegalArgumentException bad(long row, String column, Type type,
      String problem) {
    return new IllegalArgumentException("row index " + row + ", column \"" + column + "\" ("
        + type + "): " + problem);
  }

  /** A checked value as PostgreSQL's text input reads it. */
  static String text(Object value, Type type) {
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
  record CopyErrorAt(long line, String column) {}

  private static final Pattern COPY_LINE = Pattern.compile("line (\\d+)");

  /**
   * The line and column of "COPY t, line N, column c: ..." in the server's error context, or
   * null. The context is a stack, innermost first ("JSON data, line 1: ..." may come before
   * it), and PostgreSQL prints the names raw, so they may hold anything: the relation is read
   * past, not through, and a column matches only whole ({@code price} is not
   * {@code price: note}), followed by nothing, its quoted value or "null input".
   */
  static CopyErrorAt copyErrorAt(SQLException e, String relation, List<String> columns) {
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
