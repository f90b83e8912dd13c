package io.github.latencylab.bench.tpcb;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import javax.sql.DataSource;

/**
 * pgbench's tables and rows, as {@code pgbench -i -s SCALE} makes them (src/bin/pgbench/
 * pgbench.c, initCreateTables and initGenerateDataServerSide): per unit of scale 1 branch, 10
 * tellers and 100,000 accounts, balances 0; filler NULL in branches and tellers and blank
 * ({@code char(84)} of spaces) in accounts; fillfactor 100; an empty history; then VACUUM
 * ANALYZE and the primary keys. Table names are unqualified: they go where the connection's
 * search_path puts them, like pgbench's.
 */
public final class TpcbData {

  public static final int BRANCHES = 1;
  public static final int TELLERS = 10;
  public static final int ACCOUNTS = 100_000;

  /** The tables' columns, exactly pgbench's (for scales below 20,000: int account ids). */
  static final List<String> DDL = List.of(
      "CREATE TABLE pgbench_history(tid int,bid int,aid    int,delta int,mtime timestamp,"
          + "filler char(22))",
      "CREATE TABLE pgbench_tellers(tid int not null,bid int,tbalance int,filler char(84))"
          + " WITH (fillfactor=100)",
      "CREATE TABLE pgbench_accounts(aid    int not null,bid int,abalance int,filler char(84))"
          + " WITH (fillfactor=100)",
      "CREATE TABLE pgbench_branches(bid int not null,bbalance int,filler char(88))"
          + " WITH (fillfactor=100)");

  private TpcbData() {
  }

  /** Drops and creates the four tables with {@code scale} x 100,000 accounts. */
  public static void initialize(DataSource direct, int scale) throws SQLException {
    if (scale < 1 || scale >= 20_000) {
      throw new IllegalArgumentException("Invalid TPC-B scale " + scale
          + ": must be 1 to 19,999 (pgbench switches to bigint account ids at 20,000)");
    }
    try (Connection c = direct.getConnection(); Statement st = c.createStatement()) {
      st.execute("DROP TABLE IF EXISTS pgbench_accounts, pgbench_branches, pgbench_history,"
          + " pgbench_tellers");
      for (String ddl : DDL) {
        st.execute(ddl);
      }
      c.setAutoCommit(false);
      st.execute("INSERT INTO pgbench_branches(bid,bbalance) SELECT bid, 0"
          + " FROM generate_series(1, " + BRANCHES * scale + ") AS bid");
      st.execute("INSERT INTO pgbench_tellers(tid,bid,tbalance) SELECT tid, (tid - 1) / "
          + TELLERS + " + 1, 0 FROM generate_series(1, " + TELLERS * scale + ") AS tid");
      st.execute("INSERT INTO pgbench_accounts(aid,bid,abalance,filler) SELECT aid, (aid - 1) / "
          + ACCOUNTS + " + 1, 0, '' FROM generate_series(1, " + (long) ACCOUNTS * scale
          + ") AS aid");
      c.commit();
      c.setAutoCommit(true);
      for (String table : List.of("pgbench_branches", "pgbench_tellers", "pgbench_accounts",
          "pgbench_history")) {
        st.execute("VACUUM ANALYZE " + table);
      }
      st.execute("ALTER TABLE pgbench_branches ADD PRIMARY KEY (bid)");
      st.execute("ALTER TABLE pgbench_tellers ADD PRIMARY KEY (tid)");
      st.execute("ALTER TABLE pgbench_accounts ADD PRIMARY KEY (aid)");
      TpcbTransaction.createFunction(st);
    }
  }

  /**
   * What pgbench does before a run unless told not to ({@code -n}): vacuum the two small
   * tables and empty the history, so that runs start alike.
   */
  public static void prepareRun(DataSource direct) throws SQLException {
    try (Connection c = direct.getConnection(); Statement st = c.createStatement()) {
      st.execute("VACUUM pgbench_branches");
      st.execute("VACUUM pgbench_tellers");
      st.execute("TRUNCATE pgbench_history");
    }
  }

  /** The scale of the tables there: their branch count, as pgbench reads it. */
  public static int scale(DataSource direct) throws SQLException {
    try (Connection c = direct.getConnection(); Statement st = c.createStatement();
        var rs = st.executeQuery("SELECT count(*) FROM pgbench_branches")) {
      rs.next();
      return rs.getInt(1);
    }
  }
}
