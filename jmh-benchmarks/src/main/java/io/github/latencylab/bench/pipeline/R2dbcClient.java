package io.github.latencylab.bench.pipeline;

import io.github.latencylab.bench.insert.InsertRows;
import io.github.latencylab.demo.ReactiveConnections;
import io.github.latencylab.env.PostgresTarget;
import io.r2dbc.postgresql.api.PostgresqlBatch;
import io.r2dbc.postgresql.api.PostgresqlConnection;
import io.r2dbc.postgresql.api.PostgresqlResult;
import io.r2dbc.postgresql.api.PostgresqlStatement;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * R2DBC PostgreSQL (1.x) on one connection, three ways to send many statements:
 * <ul>
 *   <li>{@link Shape#FLUX}: a Flux of statements, one {@code createStatement(...).bind(...)
 *       .execute()} each, subscribed eagerly and in order ({@code flatMapSequential}, up to 256
 *       at a time: Reactor's default), so the driver may send one before the previous one's
 *       answer ({@code concatMap} would wait for each by construction);</li>
 *   <li>{@link Shape#BATCH}: {@code connection.createBatch()}, statements with their values
 *       inlined as literals, which the driver sends as one simple query (PostgreSQL's
 *       multi-statement Query message: no parameters, no prepared statements);</li>
 *   <li>{@link Shape#BIND}: one parameterized statement with a {@code .add()}ed binding per
 *       row, what R2DBC's docs give for batches. W3's five statements differ, so it has no
 *       TPC-B of its own: that one runs as {@link Shape#FLUX}.</li>
 * </ul>
 *
 * <p>Transactions, and two traps of this driver. It sends a parameterized statement when its
 * Result is read, not when {@code execute()} is subscribed, whereas a statement without
 * parameters (BEGIN, COMMIT) goes at once: a COMMIT in the same eager Flux as statements whose
 * results are read downstream overtakes them, and the statements after it run in autocommit
 * (PipelineClientsTest caught it: a failed load left its other rows). So FLUX reads each
 * result inside its own inner publisher, and sends BEGIN and COMMIT as statements in the same
 * Flux, in order. And it runs a statement's bindings one after the other (the next when the
 * previous completes), so a COMMIT subscribed after a bound statement would overtake its
 * later bindings: BIND opens and ends its transaction with {@code beginTransaction()} and
 * {@code commitTransaction()}, each waited for. BATCH has BEGIN and COMMIT in its one
 * message. After a failure a ROLLBACK ends whatever is open. The calling thread blocks on the
 * result ({@code block()}).
 */
final class R2dbcClient implements PipelineClient {

  /** How this client sends its statements. */
  enum Shape { FLUX, BATCH, BIND }

  private static final String INSERT = Sql.numbered(Sql.INSERT);
  private static final String SELECT_AUTHOR = Sql.numbered(LookupData.SELECT_AUTHOR);
  private static final List<String> TPCB = Sql.TPCB.stream().map(Sql::numbered).toList();

  private final PostgresqlConnection connection;
  private final Shape shape;

  R2dbcClient(PostgresTarget target, Shape shape, String name) {
    this.connection = ReactiveConnections.r2dbc(target, name);
    this.shape = shape;
  }

  @Override
  public long inserts(List<InsertRows.Row> rows) {
    Flux<Long> counts = switch (shape) {
      case FLUX -> {
        List<PostgresqlStatement> statements = new ArrayList<>(rows.size());
        for (InsertRows.Row row : rows) {
          statements.add(bind(connection.createStatement(INSERT), Sql.values(row)));
        }
        yield eagerlyInTransaction(statements, PostgresqlResult::getRowsUpdated);
      }
      case BATCH -> {
        PostgresqlBatch batch = connection.createBatch().add("BEGIN");
        for (InsertRows.Row row : rows) {
          batch.add(Sql.inline(Sql.INSERT, Sql.values(row)));
        }
        yield batch.add("COMMIT").execute().concatMap(PostgresqlResult::getRowsUpdated);
      }
      case BIND -> {
        PostgresqlStatement insert = connection.createStatement(INSERT);
        for (int i = 0; i < rows.size(); i++) {
          if (i > 0) {
            insert.add();
          }
          bind(insert, Sql.values(rows.get(i)));
        }
        yield connection.beginTransaction()
            .thenMany(insert.execute().concatMap(PostgresqlResult::getRowsUpdated))
            .concatWith(connection.commitTransaction().then(Mono.empty()));
      }
    };
    return block(counts.reduce(0L, Long::sum));
  }

  @Override
  public List<LookupData.Author> lookups(List<Long> ids) {
    Flux<LookupData.Author> authors = switch (shape) {
      case FLUX -> Flux.fromIterable(ids).flatMapSequential(id ->
          connection.createStatement(SELECT_AUTHOR).bind(0, id).execute()
              .concatMap(R2dbcClient::author));
      case BATCH -> {
        PostgresqlBatch batch = connection.createBatch();
        for (Long id : ids) {
          batch.add(Sql.inline(LookupData.SELECT_AUTHOR, id));
        }
        yield batch.execute().concatMap(R2dbcClient::author);
      }
      case BIND -> {
        PostgresqlStatement select = connection.createStatement(SELECT_AUTHOR);
        for (int i = 0; i < ids.size(); i++) {
          if (i > 0) {
            select.add();
          }
          select.bind(0, ids.get(i));
        }
        yield select.execute().concatMap(R2dbcClient::author);
      }
    };
    return LookupData.inOrder(ids, block(authors.collectList()));
  }

  private static Publisher<LookupData.Author> author(PostgresqlResult result) {
    return result.map((row, meta) ->
        new LookupData.Author(row.get(0, Long.class), row.get(1, String.class)));
  }

  @Override
  public int tpcb(int aid, int bid, int tid, int delta) {
    List<Object[]> values = Sql.tpcbValues(aid, bid, tid, delta);
    // only the SELECT has a row: the account's balance
    Function<PostgresqlResult, Publisher<Integer>> balance =
        r -> r.map((row, meta) -> row.get(0, Integer.class));
    Flux<Integer> balances;
    if (shape == Shape.BATCH) {
      PostgresqlBatch batch = connection.createBatch().add("BEGIN");
      for (int i = 0; i < Sql.TPCB.size(); i++) {
        batch.add(Sql.inline(Sql.TPCB.get(i), values.get(i)));
      }
      balances = batch.add("COMMIT").execute().concatMap(balance);
    } else {
      List<PostgresqlStatement> statements = new ArrayList<>(TPCB.size());
      for (int i = 0; i < TPCB.size(); i++) {
        statements.add(bind(connection.createStatement(TPCB.get(i)), values.get(i)));
      }
      balances = eagerlyInTransaction(statements, balance);
    }
    List<Integer> read = block(balances.collectList());
    if (read.size() != 1) {
      throw new IllegalStateException("The TPC-B transaction returned " + read.size()
          + " balances, not 1: " + read);
    }
    return read.get(0);
  }

  /**
   * BEGIN, the statements and COMMIT, each subscribed without waiting for the one before and
   * each result read inside its own publisher, so that each is sent when subscribed: in order.
   */
  private <T> Flux<T> eagerlyInTransaction(List<PostgresqlStatement> statements,
      Function<PostgresqlResult, Publisher<T>> read) {
    List<PostgresqlStatement> all = new ArrayList<>(statements.size() + 2);
    all.add(connection.createStatement("BEGIN"));
    all.addAll(statements);
    all.add(connection.createStatement("COMMIT"));
    return Flux.fromIterable(all).flatMapSequential(s -> s.execute().concatMap(read));
  }

  private static PostgresqlStatement bind(PostgresqlStatement statement, Object[] values) {
    for (int i = 0; i < values.length; i++) {
      statement.bind(i, values[i]);
    }
    return statement;
  }

  /** Waits for {@code work}; after a failure, ends any transaction it left open. */
  private <T> T block(Mono<T> work) {
    return work.onErrorResume(e -> rollback().then(Mono.error(e))).block();
  }

  private Mono<Void> rollback() {
    Function<Throwable, Mono<Void>> keepTheFirstError = e -> Mono.empty();
    return connection.createStatement("ROLLBACK").execute()
        .concatMap(PostgresqlResult::getRowsUpdated).then().onErrorResume(keepTheFirstError);
  }

  @Override
  public void close() {
    connection.close().block();
  }
}
