package io.github.latencylab.bench.pipeline;

import io.github.latencylab.bench.insert.InsertRows;
import java.sql.SQLException;
import java.util.List;

/**
 * One PostgreSQL client library, connected, doing the three workloads of
 * {@link PipelineBenchmark} in its own way: how many statements it sends before it waits is
 * what the suite compares. Every method does the whole work and waits for all of it; an
 * exception leaves nothing half-written (a failed transaction is rolled back) and the client
 * usable.
 *
 * <p>A client does every workload, but not every client has a shape of its own for each: where
 * it has none it does what its library does plainly (pgjdbc's {@code executeBatch} cannot
 * batch a SELECT, so {@code jdbcBatch} looks up one by one, like {@code jdbcOneByOne}).
 * {@link ClientKind#workloads()} lists the workloads where a client is a shape of its own:
 * those are the suite's cells.
 */
public interface PipelineClient extends AutoCloseable {

  /**
   * W1: inserts {@code rows} into {@link InsertRows#TABLE}, one row per INSERT, all in one
   * transaction (COPY: one statement, atomic by itself). Returns the rows inserted.
   */
  long inserts(List<InsertRows.Row> rows) throws SQLException;

  /**
   * W2: the N+1's lookups: the author of each of {@link LookupData}'s books, by primary key,
   * outside a transaction. Returns the authors in the order of {@code ids}.
   */
  List<LookupData.Author> lookups(List<Long> ids) throws SQLException;

  /**
   * W3: pgbench's TPC-B transaction ({@code bench.tpcb.TpcbTransaction}) for one account,
   * teller, branch and delta. Returns the account's balance after it.
   */
  int tpcb(int aid, int bid, int tid, int delta) throws SQLException;

  @Override
  void close() throws SQLException;
}
