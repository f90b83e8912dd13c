package io.github.latencylab.batch;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.StringJoiner;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyIn;

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
 * types. BINARY sends each value in its type's binary form (no formatting or parsing, exact
 * floats), but the server reads the bytes as the column's real type, so a wrong declared type
 * would be misread, not rejected: the COPY statement carries a clause that makes the server
 * refuse a declared type that is not the column's before it reads a row (see
 * {@link #sql()}). A domain column, or a server before PostgreSQL 12, costs a type lookup
 * instead (one or two round trips more).
 *
 * <p><b>Round trips</b>: 2 for any number of rows and any format (the COPY statement, then the
 * data and CopyDone). An upsert is 4: create the staging table (BEGIN rides along), the COPY,
 * then the INSERT, the staging table's drop and the COMMIT together. In a caller's
 * transaction a COPY adds a SAVEPOINT and its RELEASE (pgjdbc sends a COPY alone), so 4; an
 * upsert's ride along with its statements, so still 4.
 *
 * <p><b>Transactions</b>: a COPY is all-or-nothing by itself, so on a connection in autocommit
 * mode it runs alone; an upsert runs in its own transaction. On a connection already in a
 * transaction the load runs inside a savepoint and nothing is committed. After a failure the
 * table is as it was, the connection is usable and its autocommit setting is as it was.
 *
 * <p><b>Errors</b>: a value the column type cannot take throws {@link IllegalArgumentException}
 * naming the 0-based row index and the column; the COPY is then cancelled, and the rows sent
 * so far are discarded. A row PostgreSQL rejects throws {@link SQLException} naming its row
 * index and, where the server says, its column (COPY's error context "line N, column c"; with
 * CSV a line break inside a value is a line too, which is accounted for). The server checks
 * the rows as they arrive but pgjdbc reads its answer only at the end of the data, so the
 * whole input is read before a server-side error is reported.
 *
 * <p><b>Upsert</b> ({@link #upsertOn(String...)}): COPY into a temporary staging table made
 * from the target's listed columns ({@code CREATE TEMP TABLE ... ON COMMIT DROP AS SELECT
 * cols FROM target WITH NO DATA}: exactly their types, and none of the target's NOT NULL or
 * identity columns that are not listed), then {@code INSERT INTO target (cols) SELECT cols
 * FROM staging ON CONFLICT (keys) DO UPDATE SET} every other column, and drop the staging
 * table. It needs the TEMPORARY privilege on the database (a plain COPY does not). The keys
 * need a unique index or constraint; a key that appears twice in one load fails with "ON
 * CONFLICT DO UPDATE command cannot affect row a second time". Constraint violations of that
 * INSERT are not tied to a row by PostgreSQL.
 *
 * <p>Needs only JDBC and pgjdbc: copy this file and {@code PgValues.java} into your code base,
 * or depend on {@code io.github.latencylab:latency-lab-loaders}. Values by column type are in
 * {@link PgType}. Instances are immutable (each setter returns a new one), so a
 * configured helper can be kept in a constant and shared between threads.
 */
public final class CopyLoader {

  /** Bytes encoded before they are written to the COPY, unless {@link #bufferSize(int)}. */
  public static final int DEFAULT_BUFFER_SIZE = 64 * 1024;

  /** How rows travel in the COPY stream. */
  public enum Format {
    /** PostgreSQL's text format: tab-separated, backslash escapes, {@code \N} for NULL. */
    TEXT,
    /** CSV: comma-separated, text quoted where needed, NULL as an unquoted empty field. */
    CSV,
    /** PostgreSQL's binary format: each value in its type's binary send form. */
    BINARY
  }

  /**
   * The column types this helper can send. The Java values each takes ({@code null} is SQL
   * NULL for any of them) are listed in {@code PgValues.Type} and docs/batching.md: String
   * for the text types and JSONB, Short, Integer and Long (widening only) for INT2/4/8,
   * BigDecimal and its kin for NUMERIC, java.time for dates and times, UUID, byte[].
   */
  public enum PgType {
    TEXT, VARCHAR, INT2, INT4, INT8, NUMERIC, FLOAT4, FLOAT8, BOOL, DATE, TIMESTAMP, TIMESTAMPTZ,
    UUID, BYTEA, JSONB
  }

  private static final AtomicLong STAGING_TABLES = new AtomicLong();

  private final PgValues.Target target;
  private final Format format;
  private final int bufferSize;
  private final List<String> upsertKeys;

  private CopyLoader(PgValues.Target target, Format format, int bufferSize,
      List<String> upsertKeys) {
    this.target = target;
    this.format = format;
    this.bufferSize = bufferSize;
    this.upsertKeys = upsertKeys;
  }

  /** Loads into {@code table}, found on the search path; the name is quoted, never parsed. */
  public static CopyLoader into(String table) {
    return new CopyLoader(PgValues.Target.of(table), Format.TEXT, DEFAULT_BUFFER_SIZE, List.of());
  }

  /** Loads into {@code schema.table}; both names are quoted as given. */
  public static CopyLoader into(String schema, String table) {
    return new CopyLoader(PgValues.Target.of(schema, table), Format.TEXT, DEFAULT_BUFFER_SIZE,
        List.of());
  }

  /** Adds a column; each row holds its values in the order the columns were added. */
  public CopyLoader column(String name, PgType type) {
    return new CopyLoader(target.column(name, PgValues.type(type)), format, bufferSize,
        upsertKeys);
  }

  /** The COPY format (default {@link Format#TEXT}). */
  public CopyLoader format(Format format) {
    return new CopyLoader(target, Objects.requireNonNull(format), bufferSize, upsertKeys);
  }

  /** The COPY format. */
  public Format format() {
    return format;
  }

  /**
   * Encoded bytes held before each write to the COPY (default 64 KiB). A row is never split,
   * so a single row larger than this is held whole.
   */
  public CopyLoader bufferSize(int bytes) {
    if (bytes < 1) {
      throw new IllegalArgumentException("bufferSize must be at least 1 byte, got " + bytes);
    }
    return new CopyLoader(target, format, bytes, upsertKeys);
  }

  /** Encoded bytes held before each write to the COPY. */
  public int bufferSize() {
    return bufferSize;
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
      if (keys.contains(PgValues.identifier(key))) {
        throw new IllegalArgumentException("key column \"" + key + "\" is listed twice");
      }
      keys.add(key);
    }
    return new CopyLoader(target, format, bufferSize, List.copyOf(keys));
  }

  /** The upsert's key columns; empty for a plain COPY. */
  public List<String> upsertOn() {
    return upsertKeys;
  }

  /** The COPY statement into {@code table} (already quoted). */
  private String copySql(String table, boolean assertTypes) {
    return "COPY " + table + " " + target.columnList() + " FROM STDIN (FORMAT "
        + format.name().toLowerCase(Locale.ROOT) + ")"
        + (assertTypes ? " " + typeAssertion() : "");
  }

  /**
   * The COPY statement into the table, for logs and tests (an upsert COPYs the same columns
   * into its staging table). In BINARY it ends with a WHERE clause that asserts the declared
   * types (see {@link #typeAssertion()}).
   */
  public String sql() {
    target.requireColumns();
    return copySql(target.qualifiedTable(), format == Format.BINARY);
  }

  /**
   * Loads every row {@code rows} yields, streaming, and returns how many rows were copied
   * (upserting: how many were inserted or updated).
   */
  public long load(Connection connection, Iterator<? extends Object[]> rows) throws SQLException {
    target.requireColumns();
    for (String key : upsertKeys) {
      if (!target.names().contains(key)) {
        throw new IllegalStateException("key column \"" + key + "\" is not one of the columns "
            + target.columnList());
      }
    }
    boolean binary = format == Format.BINARY;
    // COPY ... WHERE came with PostgreSQL 12 (pgjdbc knows the version from the connection)
    boolean assertTypes = binary && connection.getMetaData().getDatabaseMajorVersion() >= 12;
    if (binary && !assertTypes) {
      checkBinaryTypes(connection);
    }
    try {
      return loadOnce(connection, rows, assertTypes);
    } catch (TypesNotAsserted refused) {
      // nothing was read or loaded: look the types up, refuse a mismatch, load a domain
      checkBinaryTypes(connection);
      return loadOnce(connection, rows, false);
    }
  }

  public long load(Connection connection, Iterable<? extends Object[]> rows) throws SQLException {
    return load(connection, rows.iterator());
  }

  public long load(Connection connection, Stream<? extends Object[]> rows) throws SQLException {
    return load(connection, rows.iterator());
  }

  private long loadOnce(Connection connection, Iterator<? extends Object[]> rows,
      boolean assertTypes) throws SQLException {
    PgValues.AllOrNothing transaction = new PgValues.AllOrNothing(connection);
    try (Statement st = connection.createStatement()) {
      long result;
      if (!upsertKeys.isEmpty()) {
        result = upsert(connection, st, transaction, rows, assertTypes);
      } else {
        // a lone COPY is atomic by itself; in the caller's transaction pgjdbc sends it alone,
        // so its SAVEPOINT and RELEASE cannot ride with it
        boolean inSavepoint = !transaction.autoCommit();
        if (inSavepoint) {
          transaction.savepoint();
        }
        result = copy(connection, target.qualifiedTable(), target.relation(), rows,
            assertTypes);
        if (inSavepoint) {
          transaction.release();
        }
      }
      transaction.done(); // an upsert's COMMIT has ridden along: nothing is sent
      return result;
    } catch (SQLException | RuntimeException | Error e) {
      transaction.undo(e);
      throw e;
    }
  }

  private long upsert(Connection connection, Statement st, PgValues.AllOrNothing transaction,
      Iterator<? extends Object[]> rows, boolean assertTypes) throws SQLException {
    String stagingName = "copyloader_staging_" + STAGING_TABLES.incrementAndGet();
    String staging = "pg_temp." + PgValues.quote(stagingName);
    String columns = target.columnList();
    String select = columns.substring(1, columns.length() - 1);
    StringJoiner keys = new StringJoiner(", ", "(", ")");
    upsertKeys.forEach(k -> keys.add(PgValues.quote(k)));
    StringJoiner updates = new StringJoiner(", ");
    for (String c : target.names()) {
      if (!upsertKeys.contains(c)) {
        updates.add(PgValues.quote(c) + " = EXCLUDED." + PgValues.quote(c));
      }
    }
    String action = updates.length() == 0 ? "DO NOTHING" : "DO UPDATE SET " + updates;
    // the transaction control rides with the statements: SAVEPOINT (or BEGIN) with the first,
    // RELEASE (or COMMIT) with the last
    run(st, transaction.sql("CREATE TEMP TABLE " + PgValues.quote(stagingName)
        + " ON COMMIT DROP AS SELECT " + select + " FROM " + target.qualifiedTable()
        + " WITH NO DATA", true, false), "create the staging table");
    copy(connection, staging, stagingName, rows, assertTypes);
    try {
      run(st, transaction.sql("INSERT INTO " + target.qualifiedTable() + " " + columns
          + " SELECT " + select + " FROM " + staging + " ON CONFLICT " + keys + " " + action
          + "; DROP TABLE " + staging, false, true), "insert or update from the staging table");
    } catch (SQLException e) {
      String state = String.valueOf(e.getSQLState());
      // the COMMIT rides with this statement: a broken connection leaves it in doubt
      throw new SQLException(e.getMessage().replaceFirst(" from the staging table: ",
          " from the staging table " + (state.startsWith("08") || state.startsWith("57P")
              ? (transaction.autoCommit() ? "(the connection failed: committed or not, running"
                  + " the upsert again is safe)" : "(the connection failed)")
              : "(PostgreSQL does not say which row)") + ": "), e.getSQLState(), e.getCause());
    }
    return st.getUpdateCount();
  }

  private void run(Statement st, String sql, String what) throws SQLException {
    try {
      st.execute(sql);
    } catch (SQLException e) {
      throw new SQLException("CopyLoader upsert into " + target.qualifiedTable() + " failed to "
          + what
          + ": " + e.getMessage(), e.getSQLState(), e);
    }
  }

  // ---- binary COPY: the declared types must be the columns' own ----

  /**
   * A binary COPY makes the server read each value as the column's real type, so a declared
   * FLOAT8 for an int8 column would load garbage, not fail. This WHERE clause makes the server
   * refuse such a COPY when it parses it, before any row: {@code ARRAY[c] @> '{}'::int8[]}
   * exists only if c is an int8 (array operators match element types exactly),
   * {@code textsend(c)} only if c is text, varchar or char(n). "OR true" lets the server fold
   * the clause to TRUE, so no row pays for it, and no round trip either. A domain column fails
   * it too (its array type is the domain's): the loader then looks the types up.
   */
  private String typeAssertion() {
    StringJoiner checks = new StringJoiner(" AND ", "WHERE (", ") OR true");
    for (int i = 0; i < target.names().size(); i++) {
      String c = PgValues.quote(target.names().get(i));
      PgValues.Type type = target.types().get(i);
      checks.add(type == PgValues.Type.TEXT || type == PgValues.Type.VARCHAR
          ? "pg_catalog.textsend(" + c + ") IS NULL"
          : "ARRAY[" + c + "] OPERATOR(pg_catalog.@>) '{}'::pg_catalog." + type.sqlName() + "[]");
    }
    return checks.toString();
  }

  /** The COPY refused its type assertion (see {@link #typeAssertion()}); nothing was read. */
  private static final class TypesNotAsserted extends SQLException {
    private static final long serialVersionUID = 1L;

    TypesNotAsserted(SQLException cause) {
      super(cause.getMessage(), cause.getSQLState(), cause);
    }
  }

  /**
   * The declared types against the table's, looked up (one round trip): refuses any declared
   * type whose binary form differs from the column's (a domain counts as its base type).
   */
  private void checkBinaryTypes(Connection connection) throws SQLException {
    Map<String, String> actual = new HashMap<>();
    try (PreparedStatement types = connection.prepareStatement("SELECT a.attname, b.typname"
        + " FROM pg_catalog.pg_attribute a JOIN pg_catalog.pg_type t ON t.oid = a.atttypid"
        + " JOIN pg_catalog.pg_type b ON b.oid = CASE WHEN t.typtype = 'd' THEN t.typbasetype"
        + " ELSE t.oid END WHERE a.attrelid = ?::regclass AND a.attnum > 0"
        + " AND NOT a.attisdropped")) {
      types.setString(1, target.qualifiedTable());
      try (ResultSet rs = types.executeQuery()) {
        while (rs.next()) {
          actual.put(rs.getString(1), rs.getString(2));
        }
      }
    }
    for (int i = 0; i < target.names().size(); i++) {
      String name = target.names().get(i);
      PgValues.Type declared = target.types().get(i);
      String real = actual.get(name);
      if (real == null) {
        continue; // the COPY itself says the column does not exist
      }
      boolean text = declared == PgValues.Type.TEXT || declared == PgValues.Type.VARCHAR;
      boolean same = real.equals(declared.sqlName())
          || text && (real.equals("text") || real.equals("varchar") || real.equals("bpchar"));
      if (!same) {
        throw new IllegalArgumentException("column \"" + name + "\" is declared " + declared
            + " but is " + real + " in " + target.qualifiedTable() + "; binary COPY would"
            + " misread it: declare the column's own type, or use Format.TEXT or CSV");
      }
    }
  }

  // ---- the COPY: rows encoded into a buffer, written to the server as it fills ----

  /** COPYs every row into {@code table}; {@code relation} is its bare name, as errors show it. */
  private long copy(Connection connection, String table, String relation,
      Iterator<? extends Object[]> rows, boolean assertTypes) throws SQLException {
    CopyIn copy;
    try {
      copy = connection.unwrap(PGConnection.class).getCopyAPI()
          .copyIn(copySql(table, assertTypes));
    } catch (SQLException e) {
      if (assertTypes && "42883".equals(e.getSQLState())) { // undefined_function: a type differs
        throw new TypesNotAsserted(e);
      }
      throw new SQLException("CopyLoader into " + target.qualifiedTable() + " failed: "
          + e.getMessage(), e.getSQLState(), e);
    }
    Encoder out = new Encoder(format, bufferSize, target);
    try {
      out.start();
      while (rows.hasNext()) {
        out.row(rows.next());
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
    if (copy.isActive()) {
      try {
        copy.cancelCopy();
      } catch (SQLException | RuntimeException e) {
        failure.addSuppressed(e);
      }
    }
  }

  /** The server's error, with the row (and column) its "COPY t, line N, column c" names. */
  private SQLException locate(SQLException e, String relation, Encoder out) {
    PgValues.CopyErrorAt at = PgValues.copyErrorAt(e, relation, target.names());
    String where = at == null ? "" : " at row index " + out.rowOfLine(at.line())
        + (at.column() == null ? "" : ", column \"" + at.column() + "\"");
    return new SQLException("CopyLoader into " + target.qualifiedTable() + " failed" + where + ": "
        + e.getMessage(), e.getSQLState(), e);
  }

  /**
   * Checks and encodes rows into a growing byte buffer in one COPY format, and remembers what
   * the server's line numbers mean. Written for speed (a JFR profile showed the encoding of
   * timestamps and numerics through java.time and Strings taking most of the client's time):
   * numbers, dates and times, UUIDs and bytea go into the buffer as bytes, no String between.
   */
  private static final class Encoder {
    // binary COPY header: signature, flags, header extension length
    private static final byte[] SIGNATURE = {'P', 'G', 'C', 'O', 'P', 'Y', '\n', (byte) 0xFF,
        '\r', '\n', 0};
    private static final long PG_EPOCH_DAY = LocalDate.of(2000, 1, 1).toEpochDay();
    private static final long PG_EPOCH_SECOND = PG_EPOCH_DAY * 86_400;
    private static final byte[] HEX = {'0', '1', '2', '3', '4', '5', '6', '7', '8', '9', 'a', 'b',
        'c', 'd', 'e', 'f'};
    // numeric's sign word: positive, negative, NaN, +Infinity, -Infinity
    private static final int NUMERIC_POS = 0x0000;
    private static final int NUMERIC_NEG = 0x4000;
    private static final int NUMERIC_NAN = 0xC000;
    private static final int NUMERIC_PINF = 0xD000;
    private static final int NUMERIC_NINF = 0xF000;

    private enum Escape { NONE, TEXT, CSV }

    private final Format format;
    private final PgValues.Target target;
    private final String[] names;
    private final PgValues.Type[] types;
    private final int[] groups = new int[8];
    private byte[] bytes;
    private int size;
    private long rows;
    // CSV: line breaks inside quoted values count as lines on the server; rows after which
    // the count runs ahead of the row count, with the lines added by then
    private long[] shiftRows = new long[0];
    private long[] shiftLines = new long[0];
    private int shifts;
    private long extraLines;

    Encoder(Format format, int bufferSize, PgValues.Target target) {
      this.format = format;
      this.target = target;
      this.names = target.names().toArray(new String[0]);
      this.types = target.types().toArray(new PgValues.Type[0]);
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

    /** Checks and encodes the next row, or throws an exception naming its row index. */
    void row(Object[] row) {
      long index = rows;
      target.checkShape(row, index);
      long linesBefore = extraLines;
      if (format == Format.BINARY) {
        putShort(types.length);
      }
      for (int i = 0; i < types.length; i++) {
        PgValues.Type type = types[i];
        Object value = PgValues.check(row[i], type, index, names[i]);
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
              text(value, type, Escape.TEXT);
            }
          }
          case CSV -> {
            if (i > 0) {
              put((byte) ',');
            }
            if (value instanceof String s) {
              csv(s);
            } else if (value != null) {
              text(value, type, Escape.NONE); // no delimiters, quotes or line breaks
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

    // ---- text and CSV: PostgreSQL's text input form of each value ----

    private void text(Object value, PgValues.Type type, Escape escape) {
      switch (type) {
        case TEXT, VARCHAR, JSONB -> utf8((String) value, escape);
        case INT2, INT4, INT8 -> decimal(((Number) value).longValue());
        case NUMERIC -> {
          if (value instanceof BigDecimal d) {
            numericText(d);
          } else {
            ascii(value.toString()); // NaN, Infinity, -Infinity
          }
        }
        case BOOL -> put((byte) ((Boolean) value ? 't' : 'f'));
        case DATE -> {
          LocalDate d = (LocalDate) value;
          if (fourDigitYear(d.getYear())) {
            date(d.getYear(), d.getMonthValue(), d.getDayOfMonth());
          } else {
            ascii(PgValues.text(value, type)); // BC, past 9999, or infinity
          }
        }
        case TIMESTAMP -> {
          LocalDateTime t = (LocalDateTime) value;
          if (fourDigitYear(t.getYear())) {
            date(t.getYear(), t.getMonthValue(), t.getDayOfMonth());
            time(t.getHour(), t.getMinute(), t.getSecond(), t.getNano());
          } else {
            ascii(PgValues.text(value, type));
          }
        }
        case TIMESTAMPTZ -> {
          OffsetDateTime t = (OffsetDateTime) value; // UTC, as check() left it
          if (fourDigitYear(t.getYear()) && !t.equals(OffsetDateTime.MAX)) {
            date(t.getYear(), t.getMonthValue(), t.getDayOfMonth());
            time(t.getHour(), t.getMinute(), t.getSecond(), t.getNano());
            put((byte) '+');
            put((byte) '0');
            put((byte) '0');
          } else {
            ascii(PgValues.text(value, type));
          }
        }
        case UUID -> uuid((UUID) value);
        case BYTEA -> {
          byte[] b = (byte[]) value;
          ensure(3 + 2 * b.length);
          if (escape == Escape.TEXT) {
            bytes[size++] = '\\'; // the text format's escape for the backslash of \x
          }
          bytes[size++] = '\\';
          bytes[size++] = 'x';
          for (byte x : b) {
            bytes[size++] = HEX[(x >> 4) & 0xF];
            bytes[size++] = HEX[x & 0xF];
          }
        }
        case FLOAT4, FLOAT8 -> ascii(value.toString());
      }
    }

    /** CSV quotes a string only where it must: delimiters, quotes, line breaks, empty, \. */
    private void csv(String s) {
      boolean quote = s.isEmpty() || s.equals("\\.");
      for (int i = 0; i < s.length() && !quote; i++) {
        char c = s.charAt(i);
        quote = c == ',' || c == '"' || c == '\n' || c == '\r';
      }
      if (quote) {
        put((byte) '"');
        utf8(s, Escape.CSV);
        put((byte) '"');
      } else {
        utf8(s, Escape.NONE);
      }
    }

    private static boolean fourDigitYear(int year) {
      return year >= 1 && year <= 9999;
    }

    private void date(int year, int month, int day) {
      ensure(10);
      digits(year, 4);
      bytes[size++] = '-';
      digits(month, 2);
      bytes[size++] = '-';
      digits(day, 2);
    }

    private void time(int hour, int minute, int second, int nano) {
      ensure(16);
      bytes[size++] = ' ';
      digits(hour, 2);
      bytes[size++] = ':';
      digits(minute, 2);
      bytes[size++] = ':';
      digits(second, 2);
      int micros = nano / 1000;
      if (micros != 0) {
        bytes[size++] = '.';
        digits(micros, 6);
      }
    }

    /** {@code value} in exactly {@code width} digits, zero-padded (room already ensured). */
    private void digits(int value, int width) {
      for (int i = width - 1; i >= 0; i--) {
        bytes[size + i] = (byte) ('0' + value % 10);
        value /= 10;
      }
      size += width;
    }

    private void decimal(long value) {
      if (value == Long.MIN_VALUE) {
        ascii(Long.toString(value));
        return;
      }
      ensure(20);
      if (value < 0) {
        bytes[size++] = '-';
        value = -value;
      }
      int length = digitCount(value);
      for (int i = length - 1; i >= 0; i--) {
        bytes[size + i] = (byte) ('0' + value % 10);
        value /= 10;
      }
      size += length;
    }

    private static int digitCount(long value) {
      long power = 10;
      for (int n = 1; n < 19; n++) {
        if (value < power) {
          return n;
        }
        power *= 10;
      }
      return 19;
    }

    /**
     * A BigDecimal's unscaled value as a long, if it has at most {@code digits} digits:
     * {@code scaleByPowerOfTen} keeps BigDecimal's compact long, {@code unscaledValue} would
     * build a BigInteger.
     */
    private static long unscaled(BigDecimal d, int digits) {
      return d.precision() <= digits ? d.scaleByPowerOfTen(d.scale()).longValue() : -1;
    }

    /** A BigDecimal's plain digits; from its long unscaled value where it has one. */
    private void numericText(BigDecimal d) {
      int scale = d.scale(); // >= 0: check() normalised it
      if (d.precision() > 18) {
        ascii(d.toPlainString());
        return;
      }
      long u = unscaled(d, 18);
      ensure(scale + 22);
      if (u < 0) {
        bytes[size++] = '-';
        u = -u;
      }
      int digits = Math.max(digitCount(u), scale + 1); // a digit before the point at least
      int length = digits + (scale > 0 ? 1 : 0);
      int at = size + length;
      for (int i = 0; i < digits; i++) {
        if (i == scale && scale > 0) {
          bytes[--at] = '.';
        }
        bytes[--at] = (byte) ('0' + u % 10);
        u /= 10;
      }
      size += length;
    }

    private void uuid(UUID u) {
      ensure(36);
      long high = u.getMostSignificantBits();
      long low = u.getLeastSignificantBits();
      hex(high >>> 32, 8);
      bytes[size++] = '-';
      hex(high >>> 16, 4);
      bytes[size++] = '-';
      hex(high, 4);
      bytes[size++] = '-';
      hex(low >>> 48, 4);
      bytes[size++] = '-';
      hex(low, 12);
    }

    private void hex(long value, int digits) {
      for (int i = digits - 1; i >= 0; i--) {
        bytes[size + i] = HEX[(int) (value & 0xF)];
        value >>>= 4;
      }
      size += digits;
    }

    private void ascii(String s) {
      utf8(s, Escape.NONE);
    }

    /** UTF-8 of {@code s} (checked: no NUL, no unpaired surrogates), escaped for the format. */
    private void utf8(String s, Escape escape) {
      int n = s.length();
      ensure(3 * n); // a char is at most 3 bytes, an escape 2, a surrogate pair 4 for 2 chars
      byte[] b = bytes;
      int at = size;
      boolean firstRow = rows == 0;
      for (int i = 0; i < n; i++) {
        char c = s.charAt(i);
        if (c < 0x80) {
          if (escape == Escape.TEXT && (c == '\\' || c == '\n' || c == '\r' || c == '\t')) {
            b[at++] = '\\';
            b[at++] = (byte) (c == '\\' ? '\\' : c == '\n' ? 'n' : c == '\r' ? 'r' : 't');
            continue;
          }
          if (escape == Escape.CSV) {
            if (c == '"') {
              b[at++] = '"';
            } else if (c == (firstRow ? '\r' : '\n')) {
              // PostgreSQL counts this one as a line (before it has seen the first row's
              // end it counts CR, after it LF)
              extraLines++;
            }
          }
          b[at++] = (byte) c;
        } else if (c < 0x800) {
          b[at++] = (byte) (0xC0 | (c >> 6));
          b[at++] = (byte) (0x80 | (c & 0x3F));
        } else if (Character.isHighSurrogate(c)) {
          int cp = Character.toCodePoint(c, s.charAt(++i));
          b[at++] = (byte) (0xF0 | (cp >> 18));
          b[at++] = (byte) (0x80 | ((cp >> 12) & 0x3F));
          b[at++] = (byte) (0x80 | ((cp >> 6) & 0x3F));
          b[at++] = (byte) (0x80 | (cp & 0x3F));
        } else {
          b[at++] = (byte) (0xE0 | (c >> 12));
          b[at++] = (byte) (0x80 | ((c >> 6) & 0x3F));
          b[at++] = (byte) (0x80 | (c & 0x3F));
        }
      }
      size = at;
    }

    // ---- binary: each value's send form, after its length ----

    private void binary(Object value, PgValues.Type type) {
      if (value == null) {
        putInt(-1);
        return;
      }
      switch (type) {
        case TEXT, VARCHAR -> {
          int at = startLength();
          utf8((String) value, Escape.NONE);
          endLength(at);
        }
        case JSONB -> {
          int at = startLength();
          put((byte) 1); // jsonb binary format version
          utf8((String) value, Escape.NONE);
          endLength(at);
        }
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
          LocalDateTime t = (LocalDateTime) value;
          putInt(8);
          putLong(t.equals(LocalDateTime.MIN) ? Long.MIN_VALUE : t.equals(LocalDateTime.MAX)
              ? Long.MAX_VALUE : micros(t.toEpochSecond(ZoneOffset.UTC), t.getNano()));
        }
        case TIMESTAMPTZ -> {
          OffsetDateTime t = (OffsetDateTime) value;
          putInt(8);
          putLong(t.equals(OffsetDateTime.MIN) ? Long.MIN_VALUE : t.equals(OffsetDateTime.MAX)
              ? Long.MAX_VALUE : micros(t.toEpochSecond(), t.getNano()));
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
        case NUMERIC -> {
          if (value instanceof BigDecimal d) {
            numericBinary(d);
          } else {
            double x = (Double) value; // not finite: check() let nothing else through
            putInt(8);
            putShort(0);
            putShort(0);
            putShort(Double.isNaN(x) ? NUMERIC_NAN : x > 0 ? NUMERIC_PINF : NUMERIC_NINF);
            putShort(0);
          }
        }
      }
    }

    /** Microseconds since 2000-01-01 00:00 UTC, PostgreSQL's timestamp. */
    private static long micros(long epochSecond, int nano) {
      return Math.addExact(Math.multiplyExact(epochSecond - PG_EPOCH_SECOND, 1_000_000L),
          nano / 1000);
    }

    /**
     * PostgreSQL's numeric send form: digit count, weight (of the first digit, in powers of
     * 10,000), sign, display scale, then the base-10,000 digits, leading and trailing zero
     * digits stripped. 12345.678 is digits [1, 2345, 6780], weight 1, scale 3.
     */
    private void numericBinary(BigDecimal value) {
      int scale = value.scale(); // >= 0: check() normalised it
      if (value.precision() > 15) {
        numericBinaryFromDigits(value);
        return;
      }
      // the unscaled long, its fraction padded to whole groups of 4 digits (< 10^18)
      long u = Math.abs(unscaled(value, 15));
      int pad = (4 - scale % 4) % 4;
      for (int i = 0; i < pad; i++) {
        u *= 10;
      }
      int fractionGroups = (scale + pad) / 4;
      int n = 0;
      while (u != 0) {
        groups[n++] = (int) (u % 10_000);
        u /= 10_000;
      }
      int low = 0; // groups[i] weighs 10,000^(i - fractionGroups); the top one is not zero
      while (low < n && groups[low] == 0) {
        low++;
      }
      int ndigits = n - low;
      putInt(8 + 2 * ndigits);
      putShort(ndigits);
      putShort(ndigits == 0 ? 0 : n - 1 - fractionGroups);
      putShort(value.signum() < 0 ? NUMERIC_NEG : NUMERIC_POS);
      putShort(scale);
      for (int g = n - 1; g >= low; g--) {
        putShort(groups[g]);
      }
    }

    /** The same, for a numeric too long for a long: through its decimal digits. */
    private void numericBinaryFromDigits(BigDecimal value) {
      int scale = value.scale();
      String digits = value.unscaledValue().abs().toString();
      int intLength = digits.length() - scale;
      String intPart = intLength > 0 ? digits.substring(0, intLength) : "";
      String fracPart = intLength >= 0 ? digits.substring(intLength)
          : "0".repeat(-intLength) + digits;
      int intGroups = (intPart.length() + 3) / 4;
      int fracGroups = (fracPart.length() + 3) / 4;
      String all = "0".repeat(intGroups * 4 - intPart.length()) + intPart + fracPart
          + "0".repeat(fracGroups * 4 - fracPart.length());
      int count = intGroups + fracGroups;
      int first = 0;
      int weight = intGroups - 1;
      while (first < count && group(all, first) == 0) {
        first++;
        weight--;
      }
      int last = count;
      while (last > first && group(all, last - 1) == 0) {
        last--;
      }
      int ndigits = last - first;
      putInt(8 + 2 * ndigits);
      putShort(ndigits);
      putShort(ndigits == 0 ? 0 : weight);
      putShort(value.signum() < 0 ? NUMERIC_NEG : NUMERIC_POS);
      putShort(scale);
      for (int g = first; g < last; g++) {
        putShort(group(all, g));
      }
    }

    private static int group(String digits, int index) {
      return Integer.parseInt(digits, index * 4, index * 4 + 4, 10);
    }

    /** Room for a value's length, filled in by {@link #endLength(int)}. */
    private int startLength() {
      int at = size;
      putInt(0);
      return at;
    }

    private void endLength(int at) {
      int length = size - at - 4;
      bytes[at] = (byte) (length >>> 24);
      bytes[at + 1] = (byte) (length >>> 16);
      bytes[at + 2] = (byte) (length >>> 8);
      bytes[at + 3] = (byte) length;
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
}
