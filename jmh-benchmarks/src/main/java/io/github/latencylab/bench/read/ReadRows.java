package io.github.latencylab.bench.read;

import io.github.latencylab.env.Lab;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;

/**
 * The tables the read suite reads: the same rows every run, made by the server from
 * generate_series (a million rows in seconds, nothing sent over the wire), kept for the next
 * fork that reads the same width and size.
 */
final class ReadRows {

  private ReadRows() {
  }

  /** The table of {@code rows} rows of {@code width} (narrow or wide), created if need be. */
  static String create(DataSource direct, String width, int rows) throws SQLException {
    String table = "read_" + width + "_" + rows;
    String columns = switch (width) {
      case "narrow" -> "i::bigint AS id, 'customer ' || i AS name,"
          + " (i % 100000)::numeric(12,2) / 100 AS amount,"
          + " timestamptz '2026-01-01' + i * interval '1 second' AS created_at";
      case "wide" -> "i::bigint AS id, 'customer ' || i AS name,"
          + " (i % 100000)::numeric(12,2) / 100 AS amount,"
          + " timestamptz '2026-01-01' + i * interval '1 second' AS created_at,"
          + wideText(8);
      default -> throw new IllegalArgumentException("width must be narrow or wide, not '"
          + width + "'");
    };
    try (Connection c = direct.getConnection(); Statement st = c.createStatement()) {
      Lab.requireLabSchema(c);
      try (ResultSet rs = st.executeQuery("SELECT count(*) FROM pg_class WHERE relname = '"
          + table + "' AND relnamespace = current_schema()::regnamespace")) {
        rs.next();
        if (rs.getLong(1) == 1) {
          return table;
        }
      }
      st.execute("CREATE TABLE " + table + " AS SELECT " + columns
          + " FROM generate_series(1, " + rows + ") i ORDER BY i");
      st.execute("ANALYZE " + table);
    }
    return table;
  }

  // n text columns of 32 characters each, different in every row
  private static String wideText(int n) {
    StringBuilder sql = new StringBuilder();
    for (int k = 1; k <= n; k++) {
      sql.append(k > 1 ? ", " : "").append("md5((i * ").append(k).append(")::text) AS note")
          .append(k);
    }
    return sql.toString();
  }
}
