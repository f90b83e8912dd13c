package io.github.latencylab.batch;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.sql.Statement;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.StringJoiner;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyIn;
import org.postgresql.util.PSQLException;
import org.postgresql.util.ServerErrorMessage;

/**
 * Loads rows with {@code COPY ... FROM STDIN} through pgjdbc's CopyManager, streaming: rows
 * are encoded as they come from an Iterator or Stream and written in buffers of
 * {@link #bufferSize(int)} bytes, so a million rows never need a million rows in memory.
 * With {@link #upsertOn(String...)} it inserts or updates instead.
 *
 * <pre>{@code
 * long rows = CopyLoader.into("item")
 *     .column("id", CopyLoader.PgType.INT8)
 *     .column("name", CopyLoader.PgType.TEXT)
 *     .load(connection, rows);
 * }</pre>
 *
 * <p><b>When to use it</b>: the fastest way to load many rows into PostgreSQL, and a constant
 * number of round trips however many rows. Where COPY is not available (a proxy or pooler
 * that does not pass the COPY sub-protocol), {@code UnnestInsert} is the next best thing.
 *
 * <p><b>Formats</b> ({@link #format(Format)}, default {@link Format#TEXT}): TEXT and CSV send
 * PostgreSQL's text form of every value, which the server parses into the table's column
 * types. BINARY sends each value in its type's binary form (less parsing, exact floats), but
 * the server reads the bytes as the column's real type, so a wrong declared type would be
 * misread, not rejected: the loader first checks the declared types against the table (one
 * more round trip) and refuses a mismatch.
 *
 * <p><b>Round trips</b>: 2 for any number of rows (the COPY statement, then the data and
 * CopyDone), plus 1 for BINARY's type check. An upsert is 5: create the staging table, the
 * COPY, the INSERT (with the staging table's drop), the commit. In a caller's transaction a
 * SAVEPOINT and its RELEASE are added, and an upsert's commit is left to the caller: a COPY
 * is then 4, an upsert 6.
 *
 * <p><b>Transactions</b>: a COPY is all-or-nothing by itself, so on a connection in autocommit
 * mode it runs alone; an upsert runs in its own transaction. On a connection already in a
 * transaction the load runs inside a savepoint and nothing is committed. After a failure the
 * table is as it was, the connection is usable and its autocommit setting is restored.
 *
 * <p><b>Errors</b>: a value the column type cannot take throws {@link IllegalArgumentException}
 * naming the 0-based row index and the column; the COPY is then cancelled, and the rows sent
 * so far are discarded. A row PostgreSQL rejects throws {@link SQLException} naming its row
 * index and, where the server says, its column (COPY's error context "line N" is the row;
 * with CSV a line break inside a value is a line too, which is accounted for). The server
 * checks the rows as they arrive but pgjdbc reads its answer only at the end of the data, so
 * the whole input is read before a server-side error is reported.
 *
 * <p><b>Upsert</b> ({@link #upsertOn(String...)}): COPY into a temporary staging table made
 * from the target's listed columns ({@code CREATE TEMP TABLE ... ON COMMIT DROP AS SELECT
 * cols FROM target WITH NO DATA}: exactly their types, and none of the target's NOT NULL or
 * identity columns that are not listed), then {@code INSERT INTO target (cols) SELECT cols
 * FROM staging ON CONFLICT (keys) DO UPDATE SET} every other column, and drop the staging
 * table. It needs the TEMPORARY privilege on the database (a plain COPY does not). The keys
 * need a unique index or constraint; a key that appears twice in one load
 * fails with "ON CONFLICT DO UPDATE command cannot affect row a second time". Constraint
 * violations of that INSERT are not tied to a row by PostgreSQL.
 *
 * <p>Needs only JDBC and pgjdbc: copy this file into your code base. Values by column type
 * are in {@link PgType}. Instances are immutable (each setter returns a new one), so a
 * configured helper can be kept in a constant and shared between threads.
 */
public final class CopyLoader {

  /** Bytes encoded before they are written to the COPY, unless {@link #bufferSize(int)}. */
  public static final int DEFAULT_BUFFER_SIZE = 64 * 1024;

  /** How rows travel in the COPY stream. */
  public enum Format {
    /** PostgreSQL's text format: tab-separated, backslash escapes, {@code \N} for NULL. */
    TEXT,
    /** CSV: comma-separated, text values always quoted, NULL as an unquoted empty field. */
    CSV,
    /** PostgreSQL's binary format: each value in its type's binary send form. */
    BINARY
  }

  /**
   * The column types this helper can send, and the Java values each takes ({@code null} is
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

  private static final AtomicLong STAGING_TABLES = new AtomicLong();

  private final List<String> tableName;
  private final List<String> columnNames;
  private final List<PgType> columnTypes;
  private final Format format;
  private final int bufferSize;
  private final List<String> upsertKeys;

  private CopyLoader(List<String> tableName, List<String> columnNames, List<PgType> columnTypes,
      Format format, int bufferSize, List<String> upsertKeys) {
    this.tableName = tableName;
    this.columnNames = columnNames;
    this.columnTypes = columnTypes;
    this.format = format;
    this.bufferSize = bufferSize;
    this.upsertKeys = upsertKeys;
  }

  /** Loads into {@code table}, found on the search path; the name is quoted, never parsed. */
  public static CopyLoader into(String table) {
    return new CopyLoader(List.of(identifier(table)), List.of(), List.of(), Format.TEXT,
        DEFAULT_BUFFER_SIZE, List.of());
  }

  /** Loads into {@code schema.table}; both names are quoted as given. */
  public static CopyLoader into(String schema, String table) {
    return new CopyLoader(List.of(identifier(schema), identifier(table)), List.of(), List.of(),
        Format.TEXT, DEFAULT_BUFFER_SIZE, List.of());
  }

  /** Adds a column; each row holds its values in the order the columns were added. */
  public CopyLoader column(String name, PgType type) {
    Objects.requireNonNull(type, "type");
    if (columnNames.contains(identifier(name))) {
      throw new IllegalArgumentException("column \"" + name + "\" is listed twice");
    }
    List<String> names = new ArrayList<>(columnNames);
    names.add(name);
    List<PgType> types = new ArrayList<>(columnTypes);
    types.add(type);
    return new CopyLoader(tableName, List.copyOf(names), List.copyOf(types), format, bufferSize,
        upsertKeys);
  }

  /** The COPY format (default {@link Format#TEXT}). */
  public CopyLoader format(Format format) {
    return new CopyLoader(tableName, columnNames, columnTypes, Objects.requireNonNull(format),
        bufferSize, upsertKeys);
  }

  /**
   * Encoded bytes held before each write to the COPY (default 64 KiB). A row is never split,
   * so a single row larger than this is held whole.
   */
  public CopyLoader bufferSize(int bytes) {
    if (bytes < 1) {
      throw new IllegalArgumentException("buffer size must be at least 1 byte, got " + bytes);
    }
    return new CopyLoader(tableName, columnNames, columnTypes, format, bytes, upsertKeys);
  }

  /**
   * Inserts rows whose {@code keyColumns} are new and updates the other listed columns of
   * rows whose keys exist, through a staging table (see the class comment). The key columns
   * must be among the listed columns and carry a unique index or constraint.
   */
  public CopyLoader upsertOn(String... keyColumns) {
    if (keyColumns.length == 0) {
      throw new IllegalArgumentException("upsertOn needs at least one key column");
    }
    List<String> keys = new ArrayList<>();
    for (String key : keyColumns) {
      if (keys.contains(identifier(key))) {
        throw new IllegalArgumentException("key column \"" + key + "\" is listed twice");
      }
      keys.add(key);
    }
    return new CopyLoader(tableName, columnNames, columnTypes, format, bufferSize,
        List.copyOf(keys));
  }

  /** The COPY statement into {@code table} (already quoted). */
  private String copySql(String table) {
    return "COPY " + table + " " + columnList() + " FROM STDIN (FORMAT "
        + format.name().toLowerCase(java.util.Locale.ROOT) + ")";
  }

  /**
   * The COPY statement into the table, for logs and tests (an upsert COPYs the same columns
   * into its staging table).
   */
  public String sql() {
    requireColumns();
    return copySql(qualifiedTable());
  }

  public long load(Connection connection, Iterable<? extends Object[]> rows) throws SQLException {
    return load(connection, rows.iterator());
  }

  public long load(Connection connection, Stream<? extends Object[]> rows) throws SQLException {
    return load(connection, rows.iterator());
  }

  /**
   * Loads every row {@code rows} yields, streaming, and returns how many rows were copied
   * (upserting: how many were inserted or updated).
   */
  public long load(Connection connection, Iterator<? extends Object[]> rows) throws SQLException {
    requireColumns();
    for (String key : upsertKeys) {
      if (!columnNames.contains(key)) {
        throw new IllegalStateException("key column \"" + key + "\" is not one of the columns "
            + columnList());
      }
    }
    boolean upsert = !upsertKeys.isEmpty();
    boolean autoCommit = connection.getAutoCommit();
    boolean ownTransaction = upsert && autoCommit; // a lone COPY is atomic by itself
    Savepoint savepoint = autoCommit ? null : connection.setSavepoint();
    if (ownTransaction) {
      connection.setAutoCommit(false);
    }
    long result;
    try {
      if (upsert) {
        result = upsert(connection, rows);
      } else {
        if (format == Format.BINARY) {
          checkBinaryTypes(connection, qualifiedTable());
        }
        result = copy(connection, qualifiedTable(), tableName.get(tableName.size() - 1), rows);
      }
      if (ownTransaction) {
        connection.commit();
      } else if (savepoint != null) {
        connection.releaseSavepoint(savepoint);
      }
    } catch (SQLException | RuntimeException | Error e) {
      if (ownTransaction || savepoint != null) {
        undo(connection, ownTransaction, savepoint, e);
      }
      throw e;
    }
    if (ownTransaction) {
      connection.setAutoCommit(true);
    }
    return result;
  }

  private long upsert(Connection connection, Iterator<? extends Object[]> rows)
      throws SQLException {
    String stagingName = "copyloader_staging_" + STAGING_TABLES.incrementAndGet();
    String staging = "pg_temp." + quote(stagingName);
    String columns = columnList();
    String select = columns.substring(1, columns.length() - 1);
    StringJoiner keys = new StringJoiner(", ", "(", ")");
    upsertKeys.forEach(k -> keys.add(quote(k)));
    StringJoiner updates = new StringJoiner(", ");
    for (String c : columnNames) {
      if (!upsertKeys.contains(c)) {
        updates.add(quote(c) + " = EXCLUDED." + quote(c));
      }
    }
    String action = updates.length() == 0 ? "DO NOTHING" : "DO UPDATE SET " + updates;
    try (Statement st = connection.createStatement()) {
      run(st, "CREATE TEMP TABLE " + quote(stagingName) + " ON COMMIT DROP AS SELECT " + select
          + " FROM " + qualifiedTable() + " WITH NO DATA", "create the staging table");
      if (format == Format.BINARY) {
        checkBinaryTypes(connection, staging);
      }
      copy(connection, staging, stagingName, rows);
      // the INSERT and the staging table's drop in one message flow: one round trip
      run(st, "INSERT INTO " + qualifiedTable() + " " + columns + " SELECT " + select + " FROM "
          + staging + " ON CONFLICT " + keys + " " + action + "; DROP TABLE " + staging,
          "insert or update from the staging table (PostgreSQL does not say which row)");
      return st.getUpdateCount();
    }
  }

  private void run(Statement st, String sql, String what) throws SQLException {
    try {
      st.execute(sql);
    } catch (SQLException e) {
      throw new SQLException("CopyLoader upsert into " + qualifiedTable() + " failed to " + what
          + ": " + e.getMessage(), e.getSQLState(), e);
    }
  }

  /**
   * Binary COPY makes the server read each value as the column's real type, so a declared
   * FLOAT8 for an int8 column would load garbage: refuse any declared type whose binary form
   * differs from the column's (domains count as their base type).
   */
  private void checkBinaryTypes(Connection connection, String table) throws SQLException {
    Map<String, String> actual = new HashMap<>();
    try (PreparedStatement types = connection.prepareStatement("SELECT a.attname, b.typname"
        + " FROM pg_catalog.pg_attribute a JOIN pg_catalog.pg_type t ON t.oid = a.atttypid"
        + " JOIN pg_catalog.pg_type b ON b.oid = CASE WHEN t.typtype = 'd' THEN t.typbasetype"
        + " ELSE t.oid END WHERE a.attrelid = ?::regclass AND a.attnum > 0"
        + " AND NOT a.attisdropped")) {
      types.setString(1, table);
      try (ResultSet rs = types.executeQuery()) {
        while (rs.next()) {
          actual.put(rs.getString(1), rs.getString(2));
        }
      }
    }
    for (int i = 0; i < columnNames.size(); i++) {
      String name = columnNames.get(i);
      PgType declared = columnTypes.get(i);
      String real = actual.get(name);
      if (real == null) {
        continue; // the COPY itself says the column does not exist
      }
      boolean text = declared == PgType.TEXT || declared == PgType.VARCHAR;
      boolean same = real.equals(declared.sqlName())
          || text && (real.equals("text") || real.equals("varchar") || real.equals("bpchar"));
      if (!same) {
        throw new IllegalArgumentException("column \"" + name + "\" is declared " + declared
            + " but is " + real + " in " + qualifiedTable() + "; binary COPY would misread it:"
            + " declare the column's own type, or use Format.TEXT or CSV");
      }
    }
  }

  /** COPYs every row into {@code table}; {@code relation} is its bare name, as errors show it. */
  private long copy(Connection connection, String table, String relation,
      Iterator<? extends Object[]> rows) throws SQLException {
    Encoder out = new Encoder(format, bufferSize);
    CopyIn copy = null;
    long row = 0;
    try {
      copy = connection.unwrap(PGConnection.class).getCopyAPI().copyIn(copySql(table));
      out.start();
      while (rows.hasNext()) {
        Object[] checked = checkRow(rows.next(), row);
        out.row(checked, columnTypes);
        row++;
        if (out.size() >= bufferSize) {
          out.writeTo(copy);
        }
      }
      out.finish();
      out.writeTo(copy);
      return copy.endCopy();
    } catch (SQLException e) {
      cancel(copy, e);
      throw locate(e, relation, out);
    } catch (RuntimeException | Error e) {
      cancel(copy, e);
      throw e;
    }
  }

  private static void cancel(CopyIn copy, Throwable failure) {
    if (copy != null && copy.isActive()) {
      try {
        copy.cancelCopy();
      } catch (SQLException | RuntimeException e) {
        failure.addSuppressed(e);
      }
    }
  }

  /** The server's error, with the row (and column) its "COPY t, line N, column c" names. */
  private SQLException locate(SQLException e, String relation, Encoder out) {
    ServerErrorMessage server = e instanceof PSQLException p ? p.getServerErrorMessage() : null;
    String where = server == null || server.getWhere() == null ? "" : server.getWhere();
    String at = "";
    // the context is a stack, innermost first ("JSON data, line 1: ..." may come before it);
    // the relation name is printed raw and may hold anything: read past it, not through it
    String prefix = "COPY " + relation + ", ";
    for (String context : where.split("\n")) {
      if (!context.startsWith(prefix)) {
        continue;
      }
      Matcher line = LINE.matcher(context.substring(prefix.length()));
      if (line.lookingAt()) {
        at = " at row index " + out.rowOfLine(Long.parseLong(line.group(1)));
        String column = context.substring(prefix.length() + line.end());
        for (String name : columnNames) {
          if (column.equals(", column " + name) || column.startsWith(", column " + name + ":")) {
            at += ", column \"" + name + "\"";
            break;
          }
        }
      }
      break;
    }
    return new SQLException("CopyLoader into " + qualifiedTable() + " failed" + at + ": "
        + e.getMessage(), e.getSQLState(), e);
  }

  private static final Pattern LINE = Pattern.compile("line (\\d+)");

  /**
   * Encodes rows into a growing byte buffer in one COPY format, and remembers what the
   * server's line numbers mean.
   */
  private static final class Encoder {
    // binary COPY header: signature, flags, header extension length
    private static final byte[] SIGNATURE = {'P', 'G', 'C', 'O', 'P', 'Y', '\n', (byte) 0xFF,
        '\r', '\n', 0};
    private static final long PG_EPOCH_DAY = LocalDate.of(2000, 1, 1).toEpochDay();
    private static final long PG_EPOCH_SECOND = PG_EPOCH_DAY * 86_400;

    private final Format format;
    private byte[] bytes;
    private int size;
    private long rows;
    // CSV: line breaks inside quoted values count as lines on the server; rows after which
    // the count runs ahead of the row count, with the lines added by then
    private long[] shiftRows = new long[0];
    private long[] shiftLines = new long[0];
    private int shifts;
    private long extraLines;

    Encoder(Format format, int bufferSize) {
      this.format = format;
      this.bytes = new byte[Math.max(64, Math.min(bufferSize, 1 << 20) + 1024)];
    }

    int size() {
      return size;
    }

    void writeTo(CopyIn copy) throws SQLException {
      if (size > 0) {
        copy.writeToCopy(bytes, 0, size);
        size = 0;
      }
    }

    void start() {
      if (format == Format.BINARY) {
        put(SIGNATURE, 0, SIGNATURE.length);
        putInt(0); // flags: no OIDs
        putInt(0); // no header extension
      }
    }

    void finish() {
      if (format == Format.BINARY) {
        putShort(-1); // file trailer
      }
    }

    void row(Object[] values, List<PgType> types) {
      long linesBefore = extraLines;
      if (format == Format.BINARY) {
        putShort(values.length);
      }
      for (int i = 0; i < values.length; i++) {
        Object value = values[i];
        PgType type = types.get(i);
        switch (format) {
          case BINARY -> binary(value, type);
          case TEXT -> {
            if (i > 0) {
              put((byte) '\t');
            }
            if (value == null) {
              put((byte) '\\');
              put((byte) 'N');
            } else {
              utf8(value instanceof String s ? s : text(value, type), Escape.TEXT);
            }
          }
          case CSV -> {
            if (i > 0) {
              put((byte) ',');
            }
            if (value instanceof String s) {
              put((byte) '"');
              utf8(s, Escape.CSV);
              put((byte) '"');
            } else if (value != null) {
              utf8(text(value, type), Escape.NONE); // no delimiters, quotes or line breaks
            }
          }
        }
      }
      if (format != Format.BINARY) {
        put((byte) '\n');
      }
      if (extraLines != linesBefore) {
        if (shifts == shiftRows.length) {
          shiftRows = Arrays.copyOf(shiftRows, Math.max(8, shifts * 2));
          shiftLines = Arrays.copyOf(shiftLines, shiftRows.length);
        }
        shiftRows[shifts] = rows;
        shiftLines[shifts] = extraLines;
        shifts++;
      }
      rows++;
    }

    /** The 0-based row the server's 1-based "line N" is in. */
    long rowOfLine(long line) {
      // row r starts on line r + 1 + (lines added by rows before r): find the last row
      // starting at or before the line
      long low = 0;
      long high = Math.max(0, rows - 1);
      while (low < high) {
        long mid = (low + high + 1) >>> 1;
        if (mid + 1 + extraBefore(mid) <= line) {
          low = mid;
        } else {
          high = mid - 1;
        }
      }
      return low;
    }

    private long extraBefore(long row) {
      int i = Arrays.binarySearch(shiftRows, 0, shifts, row);
      int before = i >= 0 ? i - 1 : -i - 2; // last shift at a row < row
      return before < 0 ? 0 : shiftLines[before];
    }

    private void binary(Object value, PgType type) {
      if (value == null) {
        putInt(-1);
        return;
      }
      switch (type) {
        case TEXT, VARCHAR -> lengthPrefixed(() -> utf8((String) value, Escape.NONE));
        case JSONB -> lengthPrefixed(() -> {
          put((byte) 1); // jsonb binary format version
          utf8((String) value, Escape.NONE);
        });
        case INT2 -> {
          putInt(2);
          putShort((Short) value);
        }
        case INT4 -> {
          putInt(4);
          putInt((Integer) value);
        }
        case INT8 -> {
          putInt(8);
          putLong((Long) value);
        }
        case FLOAT4 -> {
          putInt(4);
          putInt(Float.floatToRawIntBits((Float) value));
        }
        case FLOAT8 -> {
          putInt(8);
          putLong(Double.doubleToRawLongBits((Double) value));
        }
        case BOOL -> {
          putInt(1);
          put((byte) ((Boolean) value ? 1 : 0));
        }
        case DATE -> {
          LocalDate d = (LocalDate) value;
          putInt(4);
          putInt(d.equals(LocalDate.MIN) ? Integer.MIN_VALUE : d.equals(LocalDate.MAX)
              ? Integer.MAX_VALUE : Math.toIntExact(d.toEpochDay() - PG_EPOCH_DAY));
        }
        case TIMESTAMP -> {
          putInt(8);
          putLong(micros((LocalDateTime) value));
        }
        case TIMESTAMPTZ -> {
          OffsetDateTime t = (OffsetDateTime) value;
          putInt(8);
          putLong(t.equals(OffsetDateTime.MIN) ? Long.MIN_VALUE : t.equals(OffsetDateTime.MAX)
              ? Long.MAX_VALUE : micros(t.toLocalDateTime()));
        }
        case UUID -> {
          UUID u = (UUID) value;
          putInt(16);
          putLong(u.getMostSignificantBits());
          putLong(u.getLeastSignificantBits());
        }
        case BYTEA -> {
          byte[] b = (byte[]) value;
          putInt(b.length);
          put(b, 0, b.length);
        }
        case NUMERIC -> numeric((BigDecimal) value);
      }
    }

    /** Microseconds since 2000-01-01 00:00, PostgreSQL's timestamp; MIN/MAX are -/+infinity. */
    private static long micros(LocalDateTime t) {
      if (t.equals(LocalDateTime.MIN)) {
        return Long.MIN_VALUE;
      }
      if (t.equals(LocalDateTime.MAX)) {
        return Long.MAX_VALUE;
      }
      long seconds = t.toEpochSecond(ZoneOffset.UTC) - PG_EPOCH_SECOND;
      return Math.addExact(Math.multiplyExact(seconds, 1_000_000L), t.getNano() / 1000);
    }

    /**
     * PostgreSQL's numeric send form: digit count, weight (of the first digit, in powers of
     * 10,000), sign, display scale, then the base-10,000 digits, leading and trailing zero
     * digits stripped. 12345.678 is digits [1, 2345, 6780], weight 1, scale 3.
     */
    private void numeric(BigDecimal value) {
      int scale = value.scale(); // >= 0: check() normalised it
      String digits = value.unscaledValue().abs().toString();
      int intLength = digits.length() - scale;
      String intPart = intLength > 0 ? digits.substring(0, intLength) : "";
      String fracPart = intLength >= 0 ? digits.substring(intLength)
          : "0".repeat(-intLength) + digits;
      int intGroups = (intPart.length() + 3) / 4;
      int fracGroups = (fracPart.length() + 3) / 4;
      String all = "0".repeat(intGroups * 4 - intPart.length()) + intPart + fracPart
          + "0".repeat(fracGroups * 4 - fracPart.length());
      int groups = intGroups + fracGroups;
      int first = 0;
      int weight = intGroups - 1;
      while (first < groups && group(all, first) == 0) {
        first++;
        weight--;
      }
      int last = groups;
      while (last > first && group(all, last - 1) == 0) {
        last--;
      }
      int ndigits = last - first;
      putInt(8 + 2 * ndigits);
      putShort(ndigits);
      putShort(ndigits == 0 ? 0 : weight);
      putShort(value.signum() < 0 ? 0x4000 : 0x0000);
      putShort(scale);
      for (int g = first; g < last; g++) {
        putShort(group(all, g));
      }
    }

    private static int group(String digits, int index) {
      return Integer.parseInt(digits, index * 4, index * 4 + 4, 10);
    }

    private void lengthPrefixed(Runnable payload) {
      int at = size;
      putInt(0);
      payload.run();
      int length = size - at - 4;
      bytes[at] = (byte) (length >>> 24);
      bytes[at + 1] = (byte) (length >>> 16);
      bytes[at + 2] = (byte) (length >>> 8);
      bytes[at + 3] = (byte) length;
    }

    private enum Escape { NONE, TEXT, CSV }

    /** UTF-8 of {@code s} (checked: no NUL, no unpaired surrogates), escaped for the format. */
    private void utf8(String s, Escape escape) {
      boolean firstRow = rows == 0;
      for (int i = 0; i < s.length(); i++) {
        char c = s.charAt(i);
        if (c < 0x80) {
          if (escape == Escape.TEXT) {
            switch (c) {
              case '\\' -> {
                put((byte) '\\');
                put((byte) '\\');
              }
              case '\n' -> {
                put((byte) '\\');
                put((byte) 'n');
              }
              case '\r' -> {
                put((byte) '\\');
                put((byte) 'r');
              }
              case '\t' -> {
                put((byte) '\\');
                put((byte) 't');
              }
              default -> put((byte) c);
            }
          } else if (escape == Escape.CSV) {
            if (c == '"') {
              put((byte) '"');
            } else if (c == (firstRow ? '\r' : '\n')) {
              // PostgreSQL counts this one as a line (before it has seen the first row's
              // end it counts CR, after it LF)
              extraLines++;
            }
            put((byte) c);
          } else {
            put((byte) c);
          }
        } else if (c < 0x800) {
          put((byte) (0xC0 | (c >> 6)));
          put((byte) (0x80 | (c & 0x3F)));
        } else if (Character.isHighSurrogate(c)) {
          int cp = Character.toCodePoint(c, s.charAt(++i));
          put((byte) (0xF0 | (cp >> 18)));
          put((byte) (0x80 | ((cp >> 12) & 0x3F)));
          put((byte) (0x80 | ((cp >> 6) & 0x3F)));
          put((byte) (0x80 | (cp & 0x3F)));
        } else {
          put((byte) (0xE0 | (c >> 12)));
          put((byte) (0x80 | ((c >> 6) & 0x3F)));
          put((byte) (0x80 | (c & 0x3F)));
        }
      }
    }

    private void ensure(int more) {
      if (size + more > bytes.length) {
        bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, size + more));
      }
    }

    private void put(byte b) {
      ensure(1);
      bytes[size++] = b;
    }

    private void put(byte[] b, int offset, int length) {
      ensure(length);
      System.arraycopy(b, offset, bytes, size, length);
      size += length;
    }

    private void putShort(int v) {
      ensure(2);
      bytes[size++] = (byte) (v >>> 8);
      bytes[size++] = (byte) v;
    }

    private void putInt(int v) {
      ensure(4);
      bytes[size++] = (byte) (v >>> 24);
      bytes[size++] = (byte) (v >>> 16);
      bytes[size++] = (byte) (v >>> 8);
      bytes[size++] = (byte) v;
    }

    private void putLong(long v) {
      putInt((int) (v >>> 32));
      putInt((int) v);
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
