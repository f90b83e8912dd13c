package io.github.latencylab.batch;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Iterator;
import java.util.List;
import java.util.StringJoiner;
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
 * <p>Needs only JDBC and pgjdbc: copy this file and {@code PgValues.java} into your code base,
 * or depend on {@code io.github.latencylab:latency-lab-loaders}. Values by column type are in
 * {@link PgType}. Instances are immutable (each setter returns a new one), so a
 * configured helper can be kept in a constant and shared between threads.
 */
public final class MultiRowInsert {

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

  /** At most this many bind parameters per statement: the Bind message counts them in 16 bits. */
  public static final int MAX_PARAMETERS = 65_535;

  /** Rows per statement unless {@link #rowsPerStatement(int)} says otherwise. */
  public static final int DEFAULT_ROWS_PER_STATEMENT = 1_000;

  private final PgValues.Target target;
  private final int rowsPerStatement;

  private MultiRowInsert(PgValues.Target target, int rowsPerStatement) {
    this.target = target;
    this.rowsPerStatement = rowsPerStatement;
  }

  /** Inserts into {@code table}, found on the search path; the name is quoted, never parsed. */
  public static MultiRowInsert into(String table) {
    return new MultiRowInsert(PgValues.Target.of(table), DEFAULT_ROWS_PER_STATEMENT);
  }

  /** Inserts into {@code schema.table}; both names are quoted as given. */
  public static MultiRowInsert into(String schema, String table) {
    return new MultiRowInsert(PgValues.Target.of(schema, table), DEFAULT_ROWS_PER_STATEMENT);
  }

  /**
   * Rows per statement (default {@value #DEFAULT_ROWS_PER_STATEMENT}); a statement never
   * carries more than 65,535 / columns, whatever is set here.
   */
  public MultiRowInsert rowsPerStatement(int rows) {
    if (rows < 1) {
      throw new IllegalArgumentException("rowsPerStatement must be at least 1, got " + rows);
    }
    return new MultiRowInsert(target, rows);
  }

  /** Rows per statement: as set, and no more than the 65,535 bind parameters allow. */
  public int rowsPerStatement() {
    return Math.min(rowsPerStatement, MAX_PARAMETERS / Math.max(1, target.names().size()));
  }

  /** Adds a column; each row holds its values in the order the columns were added. */
  public MultiRowInsert column(String name, PgType type) {
    PgValues.Target more = target.column(name, PgValues.type(type));
    if (more.names().size() > MAX_PARAMETERS) {
      throw new IllegalArgumentException("more columns than bind parameters in a statement");
    }
    return new MultiRowInsert(more, rowsPerStatement);
  }

  /** The INSERT for {@code rows} rows, for logs and tests. */
  public String sql(int rows) {
    target.requireColumns();
    StringJoiner tuple = new StringJoiner(", ", "(", ")");
    for (PgValues.Type type : target.types()) {
      tuple.add("?::" + type.sqlName());
    }
    String one = tuple.toString();
    StringBuilder sql = new StringBuilder(rows * (one.length() + 2) + 100)
        .append("INSERT INTO ").append(target.qualifiedTable()).append(' ')
        .append(target.columnList()).append(" VALUES ");
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
    target.requireColumns();
    return PgValues.loadByStatement("MultiRowInsert", target, rowsPerStatement(), this::sql,
        this::bindAndExecute, connection, rows);
  }

  /** Each row's values on its own run of parameters: row r from parameter r x columns + 1. */
  private void bindAndExecute(Connection connection, PreparedStatement insert,
      List<Object[]> rows) throws SQLException {
    int columns = target.names().size();
    for (int r = 0; r < rows.size(); r++) {
      PgValues.bind(insert, r * columns + 1, rows.get(r), target.types());
    }
    insert.execute();
  }
}
