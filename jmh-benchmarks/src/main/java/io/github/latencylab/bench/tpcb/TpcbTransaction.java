package io.github.latencylab.bench.tpcb;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.SplittableRandom;

/**
 * pgbench's built-in "TPC-B (sort of)" transaction over JDBC, sent four ways. The work is the
 * same each time (one account, teller and branch balance changed by delta, the account's new
 * balance read, one history row); what differs is how many times the client waits for the
 * server: {@link #roundTrips()}.
 *
 * <pre>
 * BEGIN;
 * UPDATE pgbench_accounts SET abalance = abalance + :delta WHERE aid = :aid;
 * SELECT abalance FROM pgbench_accounts WHERE aid = :aid;
 * UPDATE pgbench_tellers SET tbalance = tbalance + :delta WHERE tid = :tid;
 * UPDATE pgbench_branches SET bbalance = bbalance + :delta WHERE bid = :bid;
 * INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (:tid, :bid, :aid, :delta, CURRENT_TIMESTAMP);
 * END;
 * </pre>
 */
public enum TpcbTransaction {

  /** What pgbench sends: BEGIN, the five statements and END, waiting for each: 7 round trips. */
  statementByStatement(7),
  /**
   * JDBC's usual idiom, autocommit off: pgjdbc sends BEGIN with the first statement, and
   * commit() is the last round trip: 6.
   */
  jdbcTransaction(6),
  /**
   * The whole transaction as one string of seven statements: pgjdbc sends them together and
   * waits once: 1 round trip (the SELECT's row comes back among the results).
   */
  multiStatement(1),
  /** The five statements in a PL/pgSQL function on the server, one call: 1 round trip. */
  functionCall(1);

  // public for the other clients of the same transaction (bench.pipeline): the five
  // statements with their parameters in this order
  /** Parameters: delta, aid. */
  public static final String UPDATE_ACCOUNT =
      "UPDATE pgbench_accounts SET abalance = abalance + ? WHERE aid = ?";
  /** Parameter: aid. */
  public static final String SELECT_ACCOUNT =
      "SELECT abalance FROM pgbench_accounts WHERE aid = ?";
  /** Parameters: delta, tid. */
  public static final String UPDATE_TELLER =
      "UPDATE pgbench_tellers SET tbalance = tbalance + ? WHERE tid = ?";
  /** Parameters: delta, bid. */
  public static final String UPDATE_BRANCH =
      "UPDATE pgbench_branches SET bbalance = bbalance + ? WHERE bid = ?";
  /** Parameters: tid, bid, aid, delta. */
  public static final String INSERT_HISTORY = "INSERT INTO pgbench_history (tid, bid, aid,"
      + " delta, mtime) VALUES (?, ?, ?, ?, CURRENT_TIMESTAMP)";
  static final String ALL_IN_ONE = "BEGIN;" + UPDATE_ACCOUNT + ";" + SELECT_ACCOUNT + ";"
      + UPDATE_TELLER + ";" + UPDATE_BRANCH + ";" + INSERT_HISTORY + ";END";
  static final String FUNCTION = "SELECT pgbench_tpcb(?, ?, ?, ?)";

  private final int roundTrips;

  TpcbTransaction(int roundTrips) {
    this.roundTrips = roundTrips;
  }

  /** Round trips one transaction makes, as counted at the socket. */
  public int roundTrips() {
    return roundTrips;
  }

  /** The function {@link #functionCall} calls, created with the tables. */
  static void createFunction(Statement st) throws SQLException {
    st.execute("CREATE OR REPLACE FUNCTION pgbench_tpcb(p_aid int, p_bid int, p_tid int,"
        + " p_delta int) RETURNS int LANGUAGE plpgsql AS $$\n"
        + "DECLARE balance int;\n"
        + "BEGIN\n"
        + "  UPDATE pgbench_accounts SET abalance = abalance + p_delta WHERE aid = p_aid;\n"
        + "  SELECT abalance INTO balance FROM pgbench_accounts WHERE aid = p_aid;\n"
        + "  UPDATE pgbench_tellers SET tbalance = tbalance + p_delta WHERE tid = p_tid;\n"
        + "  UPDATE pgbench_branches SET bbalance = bbalance + p_delta WHERE bid = p_bid;\n"
        + "  INSERT INTO pgbench_history (tid, bid, aid, delta, mtime)\n"
        + "    VALUES (p_tid, p_bid, p_aid, p_delta, CURRENT_TIMESTAMP);\n"
        + "  RETURN balance;\n"
        + "END $$");
  }

  /** One client: its connection, its statements, and pgbench's random choices. */
  public static final class Client implements AutoCloseable {
    private final Connection connection;
    private final TpcbTransaction variant;
    private final int scale;
    private final SplittableRandom random;
    private final Statement plain;
    private final PreparedStatement[] statements;

    public Client(Connection connection, TpcbTransaction variant, int scale, long seed)
        throws SQLException {
      this.connection = connection;
      this.variant = variant;
      this.scale = scale;
      this.random = new SplittableRandom(seed);
      this.plain = connection.createStatement();
      connection.setAutoCommit(variant != jdbcTransaction);
      statements = switch (variant) {
        case statementByStatement, jdbcTransaction -> new PreparedStatement[] {
            connection.prepareStatement(UPDATE_ACCOUNT),
            connection.prepareStatement(SELECT_ACCOUNT),
            connection.prepareStatement(UPDATE_TELLER),
            connection.prepareStatement(UPDATE_BRANCH),
            connection.prepareStatement(INSERT_HISTORY)};
        case multiStatement -> new PreparedStatement[] {connection.prepareStatement(ALL_IN_ONE)};
        case functionCall -> new PreparedStatement[] {connection.prepareStatement(FUNCTION)};
      };
    }

    /** One transaction with pgbench's random account, branch, teller and delta. */
    public int transaction() throws SQLException {
      // as pgbench's script: \set aid random(1, 100000 * :scale) and so on
      int aid = random.nextInt(1, TpcbData.ACCOUNTS * scale + 1);
      int bid = random.nextInt(1, TpcbData.BRANCHES * scale + 1);
      int tid = random.nextInt(1, TpcbData.TELLERS * scale + 1);
      int delta = random.nextInt(-5000, 5001);
      return transaction(aid, bid, tid, delta);
    }

    /** One transaction; returns the account's balance after it. */
    public int transaction(int aid, int bid, int tid, int delta) throws SQLException {
      return switch (variant) {
        case statementByStatement -> {
          plain.execute("BEGIN");
          int balance = fiveStatements(aid, bid, tid, delta);
          plain.execute("END");
          yield balance;
        }
        case jdbcTransaction -> {
          int balance = fiveStatements(aid, bid, tid, delta);
          connection.commit();
          yield balance;
        }
        case multiStatement -> allInOne(aid, bid, tid, delta);
        case functionCall -> {
          PreparedStatement call = statements[0];
          call.setInt(1, aid);
          call.setInt(2, bid);
          call.setInt(3, tid);
          call.setInt(4, delta);
          try (ResultSet rs = call.executeQuery()) {
            rs.next();
            yield rs.getInt(1);
          }
        }
      };
    }

    private int fiveStatements(int aid, int bid, int tid, int delta) throws SQLException {
      PreparedStatement updateAccount = statements[0];
      updateAccount.setInt(1, delta);
      updateAccount.setInt(2, aid);
      updateAccount.executeUpdate();
      int balance;
      PreparedStatement select = statements[1];
      select.setInt(1, aid);
      try (ResultSet rs = select.executeQuery()) {
        rs.next();
        balance = rs.getInt(1);
      }
      PreparedStatement teller = statements[2];
      teller.setInt(1, delta);
      teller.setInt(2, tid);
      teller.executeUpdate();
      PreparedStatement branch = statements[3];
      branch.setInt(1, delta);
      branch.setInt(2, bid);
      branch.executeUpdate();
      PreparedStatement history = statements[4];
      history.setInt(1, tid);
      history.setInt(2, bid);
      history.setInt(3, aid);
      history.setInt(4, delta);
      history.executeUpdate();
      return balance;
    }

    private int allInOne(int aid, int bid, int tid, int delta) throws SQLException {
      PreparedStatement all = statements[0];
      int[] values = {delta, aid, aid, delta, tid, delta, bid, tid, bid, aid, delta};
      for (int i = 0; i < values.length; i++) {
        all.setInt(i + 1, values[i]);
      }
      boolean isResultSet = all.execute();
      Integer balance = null;
      while (true) {
        if (isResultSet) {
          try (ResultSet rs = all.getResultSet()) {
            if (rs.next()) {
              balance = rs.getInt(1);
            }
          }
        } else if (all.getUpdateCount() == -1) {
          break;
        }
        isResultSet = all.getMoreResults();
      }
      if (balance == null) {
        throw new IllegalStateException("The multi-statement transaction returned no balance");
      }
      return balance;
    }

    public Connection connection() {
      return connection;
    }

    @Override
    public void close() throws SQLException {
      connection.close();
    }
  }
}
