package io.github.latencylab.bench.pipeline;

import io.github.latencylab.bench.insert.InsertRows;
import io.github.latencylab.bench.tpcb.TpcbData;
import io.github.latencylab.env.Lab;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;

/**
 * The suite's workloads for libpq, the field report's own client: pgbench scripts of one
 * transaction each, sent statement by statement (pgbench waits for each) or in one pipeline
 * ({@code \startpipeline} ... {@code \endpipeline}: libpq's pipeline mode, PostgreSQL 14+),
 * where pgbench waits once, at the pipeline's Sync. Run by {@code ./latency-lab pgbench
 * --workload}, counted at the Lab's relay.
 */
public enum PgbenchWorkload {

  /** W3: pgbench's own TPC-B-like transaction (its built-in script when not pipelined). */
  tpcb,
  /** W1: {@code rows} single-row INSERTs into InsertBenchmark's table in one transaction. */
  inserts,
  /** W2: the N+1's {@value LookupData#BOOKS} lookups by primary key, no transaction. */
  lookups;

  /** W1's ids: the table keeps a primary key, and pgbench has no counter of its own. */
  static final String IDS = InsertRows.TABLE + "_ids";

  /**
   * One transaction's script, or null where pgbench's built-in one is it (TPC-B, not
   * pipelined).
   */
  public String script(boolean pipelined, int rows) {
    StringBuilder s = new StringBuilder();
    switch (this) {
      case tpcb -> {
        if (!pipelined) {
          return null;
        }
        s.append("\\set aid random(1, 100000 * :scale)\n")
            .append("\\set bid random(1, 1 * :scale)\n")
            .append("\\set tid random(1, 10 * :scale)\n")
            .append("\\set delta random(-5000, 5000)\n")
            .append("\\startpipeline\n")
            .append("BEGIN;\n")
            .append("UPDATE pgbench_accounts SET abalance = abalance + :delta WHERE aid = :aid;\n")
            .append("SELECT abalance FROM pgbench_accounts WHERE aid = :aid;\n")
            .append("UPDATE pgbench_tellers SET tbalance = tbalance + :delta WHERE tid = :tid;\n")
            .append("UPDATE pgbench_branches SET bbalance = bbalance + :delta WHERE bid = :bid;\n")
            .append("INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (:tid,")
            .append(" :bid, :aid, :delta, CURRENT_TIMESTAMP);\n")
            .append("END;\n")
            .append("\\endpipeline\n");
        return s.toString();
      }
      case inserts -> {
        if (rows < 1) {
          throw new IllegalArgumentException("Invalid --rows " + rows + ": at least 1");
        }
        s.append(pipelined ? "\\startpipeline\n" : "").append("BEGIN;\n");
        String insert = "INSERT INTO " + InsertRows.TABLE + " (id, name, amount, created_at)"
            + " VALUES (nextval('" + IDS + "'), 'row', 1234.56, now());\n";
        s.append(insert.repeat(rows)).append("COMMIT;\n");
      }
      case lookups -> {
        s.append(pipelined ? "\\startpipeline\n" : "");
        for (long id : LookupData.authorIds()) {
          s.append(LookupData.SELECT_AUTHOR.replace("?", Long.toString(id))).append(";\n");
        }
      }
      default -> throw new IllegalStateException(name());
    }
    return s.append(pipelined ? "\\endpipeline\n" : "").toString();
  }

  /** Creates the tables the workload's script needs, on a direct connection. */
  public void create(DataSource direct, int scale) throws SQLException {
    switch (this) {
      case tpcb -> TpcbData.initialize(direct, scale);
      case inserts -> {
        InsertRows.createTable(direct);
        try (Connection c = direct.getConnection(); Statement st = c.createStatement()) {
          Lab.requireLabSchema(c);
          st.execute("DROP SEQUENCE IF EXISTS " + IDS);
          st.execute("CREATE SEQUENCE " + IDS);
        }
      }
      case lookups -> LookupData.create(direct);
      default -> throw new IllegalStateException(name());
    }
  }

  /** Puts the tables back as before a run: pgbench's own preparation, or an empty table. */
  public void prepareRun(DataSource direct) throws SQLException {
    switch (this) {
      case tpcb -> TpcbData.prepareRun(direct);
      case inserts -> InsertRows.truncate(direct);
      case lookups -> {
      }
      default -> throw new IllegalStateException(name());
    }
  }
}
