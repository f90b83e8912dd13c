package io.github.latencylab.bench.pipeline;

import io.github.latencylab.batch.CopyLoader;
import io.github.latencylab.bench.insert.InsertRows;
import io.github.latencylab.bench.tpcb.TpcbTransaction;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * pgjdbc, on a connection it is given (the Lab's counted data source, or the previous driver's
 * own, {@link PreviousPgjdbc}): plain JDBC only, so the same code runs on either driver.
 *
 * <p>Round trips (counted at the socket, PipelineJdbcRoundTripsTest): one by one, a round
 * trip per statement and one for the COMMIT (BEGIN rides with the first statement). A batch is
 * sent without waiting, but pgjdbc reads the replies every so often so that neither side
 * blocks on a full socket buffer ({@code QueryExecutorImpl.flushIfDeadlockRisk}): it reckons
 * {@code NODATA_QUERY_RESPONSE_SIZE_BYTES} = 250 bytes of reply per statement (plus the
 * largest row, where a statement returns rows of a bounded size) and, before sending a
 * statement that would bring the estimate to {@code MAX_BUFFERED_RECV_BYTES} = 64,000 bytes,
 * sends a Sync, reads every reply and starts again from that statement's share. 255 x 250 =
 * 63,750: a Sync every 255 statements, so a batch of n rows is ceil(n / 255) round trips
 * (100: 1, 1,000: 4, 10,000: 40) and the COMMIT one more. pgjdbc 42.7.12 started again from 0,
 * leaving that statement out: 255 statements, then 256 a Sync (the same counts at 100, 1,000
 * and 10,000 rows; at 511 rows 2 round trips there, 3 here). A statement RETURNING a bounded
 * row (a bigint id: 258 bytes a statement) syncs every 248. A row of unbounded size
 * (RETURNING a text column; getGeneratedKeys() asks for RETURNING *) cannot be reckoned:
 * pgjdbc syncs after every statement, a round trip each as one by one, and its first batch
 * describes the statement first, one round trip more. reWriteBatchedInserts=true turns the
 * batch into multi-row INSERTs (fewer statements, the same Sync rule): in powers of two up to
 * 65,535 parameters' worth on pgjdbc 42.7.13 (8,192 rows of 4 columns), up to 128 rows on
 * 42.7.12.
 */
final class JdbcClient implements PipelineClient {

  /** What this client does its own way; everything else it does one statement at a time. */
  enum Shape {
    /** One statement, one wait: every workload one by one. */
    EACH,
    /** W1 by addBatch and one executeBatch (reWriteBatchedInserts is the connection's). */
    BATCH,
    /** W1 by CopyLoader: COPY ... FROM STDIN, CSV, on an autocommit connection. */
    COPY,
    /** W2 by one join through the books, the N+1's fix. */
    JOIN,
    /** W2 by one {@code WHERE id = any(?)} with the ids in an array. */
    ANY
  }

  private static final CopyLoader COPY = CopyLoader.into(InsertRows.TABLE)
      .column("id", CopyLoader.PgType.INT8).column("name", CopyLoader.PgType.TEXT)
      .column("amount", CopyLoader.PgType.NUMERIC)
      .column("created_at", CopyLoader.PgType.TIMESTAMPTZ)
      .format(CopyLoader.Format.CSV);

  private final Connection connection;
  private final Shape shape;
  private TpcbTransaction.Client tpcb;

  JdbcClient(Connection connection, Shape shape) {
    this.connection = connection;
    this.shape = shape;
  }

  Connection connection() {
    return connection;
  }

  @Override
  public long inserts(List<InsertRows.Row> rows) throws SQLException {
    if (shape == Shape.COPY) {
      connection.setAutoCommit(true); // a COPY alone is atomic: no transaction to open
      return COPY.load(connection, rows.stream().map(Sql::values));
    }
    connection.setAutoCommit(false);
    try (PreparedStatement ps = connection.prepareStatement(Sql.INSERT)) {
      long inserted = 0;
      for (InsertRows.Row row : rows) {
        bind(ps, row);
        if (shape == Shape.BATCH) {
          ps.addBatch();
        } else {
          inserted += ps.executeUpdate();
        }
      }
      if (shape == Shape.BATCH) {
        for (int count : ps.executeBatch()) {
          // a rewritten batch reports SUCCESS_NO_INFO for each row of a multi-row INSERT
          inserted += count == Statement.SUCCESS_NO_INFO ? 1 : count;
        }
      }
      connection.commit();
      return inserted;
    } catch (SQLException | RuntimeException e) {
      rollback(e);
      throw e;
    }
  }

  private static void bind(PreparedStatement ps, InsertRows.Row row) throws SQLException {
    ps.setLong(1, row.id());
    ps.setString(2, row.name());
    ps.setBigDecimal(3, row.amount());
    ps.setObject(4, row.createdAt());
  }

  @Override
  public List<LookupData.Author> lookups(List<Long> ids) throws SQLException {
    connection.setAutoCommit(true);
    List<LookupData.Author> found = new ArrayList<>(ids.size());
    switch (shape) {
      case JOIN -> {
        try (PreparedStatement ps = connection.prepareStatement(LookupData.JOIN)) {
          read(ps, found);
        }
        return LookupData.inOrder(ids, found);
      }
      case ANY -> {
        try (PreparedStatement ps = connection.prepareStatement(LookupData.ANY)) {
          ps.setArray(1, connection.createArrayOf("int8", ids.toArray()));
          read(ps, found);
        }
        return LookupData.inOrder(ids, found);
      }
      default -> {
        try (PreparedStatement ps = connection.prepareStatement(LookupData.SELECT_AUTHOR)) {
          for (Long id : ids) {
            ps.setLong(1, id);
            read(ps, found);
          }
        }
        return LookupData.inOrder(ids, found);
      }
    }
  }

  private static void read(PreparedStatement ps, List<LookupData.Author> into)
      throws SQLException {
    try (ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        into.add(new LookupData.Author(rs.getLong(1), rs.getString(2)));
      }
    }
  }

  /** TpcbTransaction's jdbcTransaction: autocommit off, five statements, commit(): 6 trips. */
  @Override
  public int tpcb(int aid, int bid, int tid, int delta) throws SQLException {
    if (tpcb == null) {
      tpcb = new TpcbTransaction.Client(connection, TpcbTransaction.jdbcTransaction, 1, 42L);
    }
    connection.setAutoCommit(false);
    try {
      return tpcb.transaction(aid, bid, tid, delta);
    } catch (SQLException | RuntimeException e) {
      rollback(e);
      throw e;
    }
  }

  private void rollback(Exception cause) {
    try {
      if (!connection.getAutoCommit()) {
        connection.rollback();
      }
    } catch (SQLException e) {
      cause.addSuppressed(e);
    }
  }

  @Override
  public void close() throws SQLException {
    connection.close();
  }
}
