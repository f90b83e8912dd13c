package io.github.latencylab.bench.pipeline;

import static io.github.latencylab.demo.ReactiveConnections.await;

import io.github.latencylab.bench.insert.InsertRows;
import io.github.latencylab.demo.ReactiveConnections;
import io.github.latencylab.env.PostgresTarget;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.pgclient.PgConnection;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.List;

/**
 * Vert.x's reactive PostgreSQL client (4.5, as Quarkus 3 ships it) on one connection, with
 * {@code PgConnectOptions.setPipeliningLimit}: how many commands it sends before it waits for
 * the first reply (1: none pipelined, as JDBC one by one; its default is 256). Every workload is
 * issued as futures without waiting, then awaited all at once: the field report's "futures".
 * A transaction is its BEGIN and COMMIT sent as commands among the others (the Transaction API
 * would wait for BEGIN first). Prepared statements are cached on the connection, as Vert.x
 * recommends: after the first use of a statement, each execution is Bind, Execute and Sync.
 *
 * <p>The calling thread blocks on each future ({@link ReactiveConnections#await}, outside
 * Vert.x's event loop).
 */
final class VertxClient implements PipelineClient {

  private static final String INSERT = Sql.numbered(Sql.INSERT);
  private static final String SELECT_AUTHOR = Sql.numbered(LookupData.SELECT_AUTHOR);
  private static final List<String> TPCB = Sql.TPCB.stream().map(Sql::numbered).toList();

  private final Vertx vertx;
  private final PgConnection connection;

  VertxClient(PostgresTarget target, int pipeliningLimit) {
    PgConnectOptions options = ReactiveConnections.vertx(target, "vertx" + pipeliningLimit)
        .setPipeliningLimit(pipeliningLimit);
    vertx = Vertx.vertx();
    try {
      connection = await(PgConnection.connect(vertx, options));
    } catch (RuntimeException e) {
      await(vertx.close());
      throw e;
    }
  }

  @Override
  public long inserts(List<InsertRows.Row> rows) {
    List<Future<RowSet<Row>>> inserts = new ArrayList<>(rows.size());
    Future<RowSet<Row>> begin = connection.query("BEGIN").execute();
    for (InsertRows.Row row : rows) {
      inserts.add(connection.preparedQuery(INSERT).execute(Tuple.from(Sql.values(row))));
    }
    Future<RowSet<Row>> commit = connection.query("COMMIT").execute();
    awaitAll(begin, inserts, commit);
    long inserted = 0;
    for (Future<RowSet<Row>> f : inserts) {
      inserted += f.result().rowCount();
    }
    return inserted;
  }

  @Override
  public List<LookupData.Author> lookups(List<Long> ids) {
    List<Future<RowSet<Row>>> lookups = new ArrayList<>(ids.size());
    for (Long id : ids) {
      lookups.add(connection.preparedQuery(SELECT_AUTHOR).execute(Tuple.of(id)));
    }
    await(Future.join(lookups));
    List<LookupData.Author> found = new ArrayList<>(ids.size());
    for (Future<RowSet<Row>> f : lookups) {
      for (Row row : f.result()) {
        found.add(new LookupData.Author(row.getLong(0), row.getString(1)));
      }
    }
    return LookupData.inOrder(ids, found);
  }

  @Override
  public int tpcb(int aid, int bid, int tid, int delta) {
    List<Object[]> values = Sql.tpcbValues(aid, bid, tid, delta);
    List<Future<RowSet<Row>>> statements = new ArrayList<>(TPCB.size());
    Future<RowSet<Row>> begin = connection.query("BEGIN").execute();
    for (int i = 0; i < TPCB.size(); i++) {
      statements.add(connection.preparedQuery(TPCB.get(i)).execute(Tuple.from(values.get(i))));
    }
    Future<RowSet<Row>> commit = connection.query("COMMIT").execute();
    awaitAll(begin, statements, commit);
    return statements.get(Sql.TPCB_SELECT).result().iterator().next().getInteger(0);
  }

  /**
   * Waits for every command, failed or not (Future.join, not all: the connection is quiet
   * after it). After a failure PostgreSQL has turned the COMMIT into a rollback; should the
   * COMMIT itself not have run, a ROLLBACK ends the transaction.
   */
  private void awaitAll(Future<RowSet<Row>> begin, List<Future<RowSet<Row>>> statements,
      Future<RowSet<Row>> commit) {
    List<Future<RowSet<Row>>> all = new ArrayList<>(statements.size() + 2);
    all.add(begin);
    all.addAll(statements);
    all.add(commit);
    try {
      await(Future.join(all));
    } catch (RuntimeException e) {
      if (commit.failed()) {
        await(connection.query("ROLLBACK").execute().otherwiseEmpty());
      }
      throw e;
    }
  }

  @Override
  public void close() {
    try {
      await(connection.close());
    } finally {
      await(vertx.close());
    }
  }
}
