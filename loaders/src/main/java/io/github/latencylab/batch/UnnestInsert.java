package io.github.latencylab.batch;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.StringJoiner;
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
 * {@link #rowsPerStatement(int)} rows (it also works where COPY is not available, and the
 * statement text never changes, so pgjdbc keeps it prepared on the server). {@code CopyLoader}
 * is faster for large loads.
 *
 * <p><b>Limits</b>: the statement has one bind parameter per column, so the 65,535-parameter
 * limit of multi-row VALUES does not apply. A statement's rows are held in memory as arrays
 * and sent as one Bind message, which PostgreSQL caps at 1 GB: size
 * {@link #rowsPerStatement(int)} to your rows (default {@value #DEFAULT_ROWS_PER_STATEMENT}).
 *
 * <p><b>Round trips</b>: one per statement, ceil(rows / {@link #rowsPerStatement()}), and
 * nothing more: 10,000 rows are 1. The transaction control rides with the statements (see
 * below).
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
 * <p>Needs only JDBC and pgjdbc: copy this file and {@code PgValues.java} into your code base,
 * or depend on {@code io.github.latencylab:latency-lab-loaders}. Values by column type are in
 * {@link PgType}. Instances are immutable (each setter returns a new one), so a
 * configured helper can be kept in a constant and shared between threads.
 */
public final class UnnestInsert {

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

  /** Rows per statement unless {@link #rowsPerStatement(int)} says otherwise. */
  public static final int DEFAULT_ROWS_PER_STATEMENT = 10_000;

  private final int rowsPerStatement;
  private final PgValues.Target target;

  private UnnestInsert(int rowsPerStatement, PgValues.Target target) {
    this.rowsPerStatement = rowsPerStatement;
    this.target = target;
  }

  /** Inserts into {@code table}, found on the search path; the name is quoted, never parsed. */
  public static UnnestInsert into(String table) {
    return new UnnestInsert(DEFAULT_ROWS_PER_STATEMENT, PgValues.Target.of(table));
  }

  /** Inserts into {@code schema.table}; both names are quoted as given. */
  public static UnnestInsert into(String schema, String table) {
    return new UnnestInsert(DEFAULT_ROWS_PER_STATEMENT, PgValues.Target.of(schema, table));
  }

  /** Adds a column; each row holds its values in the order the columns were added. */
  public UnnestInsert column(String name, PgType type) {
    return new UnnestInsert(rowsPerStatement, target.column(name, PgValues.type(type)));
  }

  /** Rows per statement (default {@value #DEFAULT_ROWS_PER_STATEMENT}). */
  public UnnestInsert rowsPerStatement(int rows) {
    if (rows < 1) {
      throw new IllegalArgumentException("rowsPerStatement must be at least 1, got " + rows);
    }
    return new UnnestInsert(rows, target);
  }

  /** Rows per statement. */
  public int rowsPerStatement() {
    return rowsPerStatement;
  }

  /**
   * Inserts every row {@code rows} yields and returns how many; holds one statement's rows
   * at a time, so the rows can be streamed.
   */
  public long load(Connection connection, Iterator<? extends Object[]> rows) throws SQLException {
    String sql = sql(); // one text for any number of rows: prepared once
    return PgValues.loadByStatement("UnnestInsert", target, rowsPerStatement, n -> sql,
        this::bindArraysAndExecute, connection, rows);
  }

  public long load(Connection connection, Iterable<? extends Object[]> rows) throws SQLException {
    return load(connection, rows.iterator());
  }

  public long load(Connection connection, Stream<? extends Object[]> rows) throws SQLException {
    return load(connection, rows.iterator());
  }

  /** The INSERT this helper prepares, for logs and tests. */
  public String sql() {
    target.requireColumns();
    StringJoiner arrays = new StringJoiner(", ", "unnest(", ")");
    for (PgValues.Type type : target.types()) {
      arrays.add("?::" + type.sqlName() + "[]");
    }
    return "INSERT INTO " + target.qualifiedTable() + " " + target.columnList()
        + " SELECT * FROM " + arrays;
  }

  /** One array per column, bound to the statement's one parameter per column. */
  private void bindArraysAndExecute(Connection connection, PreparedStatement insert,
      List<Object[]> rows) throws SQLException {
    List<Array> arrays = new ArrayList<>();
    try {
      for (int i = 0; i < target.types().size(); i++) {
        Array array = array(connection, target.types().get(i), rows, i);
        arrays.add(array);
        insert.setArray(i + 1, array);
      }
      insert.execute();
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
  private static Array array(Connection connection, PgValues.Type type, List<Object[]> rows, int i)
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
      values[r] = value == null || !asText ? value : PgValues.text(value, type);
    }
    String elementType = switch (type) {
      case INT2, INT4, INT8, FLOAT4, FLOAT8, BOOL, BYTEA, VARCHAR -> type.sqlName();
      default -> "text";
    };
    return connection.createArrayOf(elementType, values);
  }
}
