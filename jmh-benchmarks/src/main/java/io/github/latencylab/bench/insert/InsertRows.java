package io.github.latencylab.bench.insert;

import io.github.latencylab.env.Lab;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import javax.sql.DataSource;

/** The rows every insert strategy writes: the same data, generated from a fixed seed. */
public record InsertRows(List<Row> rows) {

  public static final String TABLE = "insert_target";
  public static final String[] COLUMNS = {"id", "name", "amount", "created_at"};

  /** One row of {@value #TABLE}. */
  public record Row(long id, String name, BigDecimal amount, OffsetDateTime createdAt) {
  }

  public static InsertRows generate(int count) {
    SplittableRandom random = new SplittableRandom(42);
    OffsetDateTime start = OffsetDateTime.of(2026, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC);
    List<Row> rows = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      rows.add(new Row(i, "customer " + Long.toString(random.nextLong(1L << 40), 36),
          BigDecimal.valueOf(random.nextLong(10_000_000), 2),
          start.plusSeconds(random.nextLong(31_536_000))));
    }
    return new InsertRows(List.copyOf(rows));
  }

  /** (Re)creates {@value #TABLE} in the Lab's schema, the only place it may drop one. */
  public static void createTable(DataSource direct) throws SQLException {
    try (Connection c = direct.getConnection(); Statement st = c.createStatement()) {
      Lab.requireLabSchema(c);
      st.execute("DROP TABLE IF EXISTS " + TABLE);
      st.execute("CREATE TABLE " + TABLE + " (id bigint PRIMARY KEY, name text NOT NULL,"
          + " amount numeric(12,2) NOT NULL, created_at timestamptz NOT NULL)");
    }
  }

  public static void truncate(DataSource direct) throws SQLException {
    try (Connection c = direct.getConnection(); Statement st = c.createStatement()) {
      st.execute("TRUNCATE " + TABLE);
    }
  }

  public static long count(DataSource direct) throws SQLException {
    try (Connection c = direct.getConnection(); Statement st = c.createStatement();
        var rs = st.executeQuery("SELECT count(*) FROM " + TABLE)) {
      rs.next();
      return rs.getLong(1);
    }
  }
}
