package io.github.latencylab.bench.pipeline;

import io.github.latencylab.bench.insert.InsertRows;
import io.github.latencylab.bench.tpcb.TpcbTransaction;
import java.math.BigDecimal;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;

/**
 * The suite's statements are written once, with JDBC's {@code ?} placeholders; the other
 * clients get them numbered ({@code $1}, as Vert.x and R2DBC bind) or, for a simple-query
 * batch, with the values inlined as literals. Only for these statements: none has a {@code ?}
 * inside a literal.
 */
final class Sql {

  /** W1's statement, one row each: id, name, amount, created_at. */
  static final String INSERT = "INSERT INTO " + InsertRows.TABLE
      + " (id, name, amount, created_at) VALUES (?, ?, ?, ?)";

  /** W3's five statements, pgbench's order; {@link #TPCB_SELECT} reads the balance. */
  static final List<String> TPCB = List.of(TpcbTransaction.UPDATE_ACCOUNT,
      TpcbTransaction.SELECT_ACCOUNT, TpcbTransaction.UPDATE_TELLER,
      TpcbTransaction.UPDATE_BRANCH, TpcbTransaction.INSERT_HISTORY);
  static final int TPCB_SELECT = 1;

  private Sql() {
  }

  /** {@code sql} with its {@code ?}s numbered {@code $1, $2...}. */
  static String numbered(String sql) {
    StringBuilder out = new StringBuilder(sql.length() + 8);
    int n = 0;
    for (int i = 0; i < sql.length(); i++) {
      char c = sql.charAt(i);
      if (c == '?') {
        out.append('$').append(++n);
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }

  /** {@code sql} with its {@code ?}s replaced by {@code values} as SQL literals, in order. */
  static String inline(String sql, Object... values) {
    StringBuilder out = new StringBuilder(sql.length() + 16 * values.length);
    int n = 0;
    for (int i = 0; i < sql.length(); i++) {
      char c = sql.charAt(i);
      if (c != '?') {
        out.append(c);
      } else if (n < values.length) {
        out.append(literal(values[n++]));
      } else {
        throw new IllegalArgumentException("More placeholders than the " + values.length
            + " value(s) given in: " + sql);
      }
    }
    if (n != values.length) {
      throw new IllegalArgumentException(values.length + " value(s) for " + n
          + " placeholder(s) in: " + sql);
    }
    return out.toString();
  }

  static String literal(Object value) {
    if (value instanceof Integer || value instanceof Long) {
      return value.toString();
    }
    if (value instanceof BigDecimal d) {
      return d.toPlainString();
    }
    if (value instanceof String s) {
      // standard_conforming_strings is on (PostgreSQL's default since 9.1): only ' is special
      return "'" + s.replace("'", "''") + "'";
    }
    if (value instanceof OffsetDateTime t) {
      return "'" + DateTimeFormatter.ISO_OFFSET_DATE_TIME.format(t) + "'::timestamptz";
    }
    throw new IllegalArgumentException("No SQL literal for a " + value.getClass().getName()
        + " (" + value + "): Sql.literal takes Integer, Long, BigDecimal, String and"
        + " OffsetDateTime");
  }

  /** W1's values of one row, in {@link #INSERT}'s order. */
  static Object[] values(InsertRows.Row row) {
    return new Object[] {row.id(), row.name(), row.amount(), row.createdAt()};
  }

  /** The values of {@link #TPCB}'s statements, statement by statement. */
  static List<Object[]> tpcbValues(int aid, int bid, int tid, int delta) {
    return List.of(new Object[] {delta, aid}, new Object[] {aid}, new Object[] {delta, tid},
        new Object[] {delta, bid}, new Object[] {tid, bid, aid, delta});
  }
}
