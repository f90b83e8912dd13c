package io.github.latencylab.demo;

import io.r2dbc.spi.Connection;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Future;
import io.vertx.sqlclient.SqlConnection;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.BiFunction;
import java.util.stream.Collectors;
import org.hibernate.Session;
import org.hibernate.reactive.mutiny.Mutiny;
import reactor.core.publisher.Mono;

/**
 * The fetch strategies of {@link NPlusOneQueries}, {@link ReactiveQueries} (Hibernate Reactive),
 * {@link R2dbcQueries} and {@link VertxQueries}, as values: what each answers, which SessionFactory or connection
 * it needs, how many SQL statements it makes, and how to run it. Run one with {@link Library#run} (a read-only transaction, counted at the wire) or,
 * in a benchmark, {@code strategy.run(library.openSession(strategy, connection), n)} inside a
 * transaction of your own.
 */
public enum NPlusOneStrategy {

  LAZY_LOOP("lazyLoop", Question.AUTHORS_WITH_BOOKS, Library.Tuning.MAPPED,
      new Query.Orm(NPlusOneQueries::lazyLoop), "lazy collection touched in a loop: the N+1"),
  JOIN_FETCH("joinFetch", Question.AUTHORS_WITH_BOOKS, Library.Tuning.MAPPED,
      new Query.Orm(NPlusOneQueries::joinFetch), "left join fetch a.books"),
  ENTITY_GRAPH("entityGraph", Question.AUTHORS_WITH_BOOKS, Library.Tuning.MAPPED,
      new Query.Orm(NPlusOneQueries::entityGraph), "named entity graph as a fetch graph"),
  BATCH_FETCH_16("batchFetch16", Question.AUTHORS_WITH_BOOKS, Library.Tuning.MAPPED,
      new Query.Orm(NPlusOneQueries::batchFetch16), "@BatchSize(size = 16)"),
  BATCH_FETCH_64("batchFetch64", Question.AUTHORS_WITH_BOOKS, Library.Tuning.MAPPED,
      new Query.Orm(NPlusOneQueries::batchFetch64), "@BatchSize(size = 64)"),
  BATCH_FETCH_DEFAULT("batchFetchDefault", Question.AUTHORS_WITH_BOOKS,
      Library.Tuning.DEFAULT_BATCH_FETCH, new Query.Orm(NPlusOneQueries::batchFetchDefault),
      "hibernate.default_batch_fetch_size=" + Library.DEFAULT_BATCH_FETCH_SIZE),
  SUBSELECT_FETCH("subselectFetch", Question.AUTHORS_WITH_BOOKS, Library.Tuning.MAPPED,
      new Query.Orm(NPlusOneQueries::subselectFetch), "@Fetch(FetchMode.SUBSELECT)"),
  DTO_PROJECTION("dtoProjection", Question.AUTHORS_WITH_BOOKS, Library.Tuning.MAPPED,
      new Query.Orm(NPlusOneQueries::dtoProjection), "select a.id, a.name, b.id, ... : no entities"),
  HR_LAZY_LOOP("hrLazyLoop", Question.AUTHORS_WITH_BOOKS, Library.Tuning.REACTIVE,
      new Query.Reactive(ReactiveQueries::lazyLoop),
      "Hibernate Reactive: Mutiny.fetch(a.getBooks()) chained: the N+1"),
  HR_JOIN_FETCH("hrJoinFetch", Question.AUTHORS_WITH_BOOKS, Library.Tuning.REACTIVE,
      new Query.Reactive(ReactiveQueries::joinFetch), "Hibernate Reactive: left join fetch"),
  HR_BATCH_FETCH_16("hrBatchFetch16", Question.AUTHORS_WITH_BOOKS, Library.Tuning.REACTIVE,
      new Query.Reactive(ReactiveQueries::batchFetch16),
      "Hibernate Reactive: @BatchSize(size = 16), fetches chained"),
  R2DBC_CONCAT_MAP("r2dbcConcatMap", Question.AUTHORS_WITH_BOOKS, Library.Tuning.R2DBC,
      new Query.R2dbc(R2dbcQueries::concatMap), "R2DBC: a query per author, concatMap: the N+1"),
  R2DBC_FLAT_MAP("r2dbcFlatMap", Question.AUTHORS_WITH_BOOKS, Library.Tuning.R2DBC,
      new Query.R2dbc(R2dbcQueries::flatMap),
      "R2DBC: a query per author, flatMap (256 at once)"),
  R2DBC_JOIN("r2dbcJoin", Question.AUTHORS_WITH_BOOKS, Library.Tuning.R2DBC,
      new Query.R2dbc(R2dbcQueries::join), "R2DBC: one left join, rows grouped"),
  VERTX_PIPELINED("vertxPipelined", Question.AUTHORS_WITH_BOOKS, Library.Tuning.VERTX,
      new Query.Vertx(VertxQueries::pipelined),
      "Vert.x SQL client: a query per author, all sent at once (pipelined)"),
  MANY_TO_ONE_LAZY_LOOP("manyToOneLazyLoop", Question.NEWEST_BOOKS_WITH_AUTHOR,
      Library.Tuning.MAPPED, new Query.Orm(NPlusOneQueries::manyToOneLazyLoop),
      "lazy author proxy touched in a loop: the N+1"),
  MANY_TO_ONE_JOIN_FETCH("manyToOneJoinFetch", Question.NEWEST_BOOKS_WITH_AUTHOR,
      Library.Tuning.MAPPED, new Query.Orm(NPlusOneQueries::manyToOneJoinFetch), "join fetch b.author");

  /**
   * How a strategy runs: on a Hibernate ORM session (JDBC), a Hibernate Reactive session
   * (Vert.x), an R2DBC connection or a Vert.x SQL connection.
   */
  public sealed interface Query {

    record Orm(BiFunction<Session, Integer, List<? extends Listing>> run) implements Query {
    }

    record Reactive(BiFunction<Mutiny.Session, Integer, Uni<? extends List<? extends Listing>>> run)
        implements Query {
    }

    record R2dbc(BiFunction<Connection, Integer, Mono<? extends List<? extends Listing>>> run)
        implements Query {
    }

    record Vertx(BiFunction<SqlConnection, Integer, Future<? extends List<? extends Listing>>> run)
        implements Query {
    }
  }

  /** What a strategy answers; strategies of one question return equal data. */
  public enum Question {
    AUTHORS_WITH_BOOKS("%d authors with their books (one-to-many)"),
    NEWEST_BOOKS_WITH_AUTHOR("the %d newest books with their author (many-to-one)");

    private final String format;

    Question(String format) {
      this.format = format;
    }

    /** "100 authors with their books (one-to-many)". */
    public String describe(int n) {
      return String.format(Locale.ROOT, format, n);
    }
  }

  private final String label;
  private final Question question;
  private final Library.Tuning tuning;
  private final Query query;
  private final String description;

  NPlusOneStrategy(String label, Question question, Library.Tuning tuning, Query query,
      String description) {
    this.label = label;
    this.question = question;
    this.tuning = tuning;
    this.query = query;
    this.description = description;
  }

  /** The method's name in {@link NPlusOneQueries}: "lazyLoop", "batchFetch16"... */
  public String label() {
    return label;
  }

  public Question question() {
    return question;
  }

  /** The SessionFactory or connection it needs. */
  public Library.Tuning tuning() {
    return tuning;
  }

  /** How it fetches, in a few words. */
  public String description() {
    return description;
  }

  /** How it runs. */
  public Query query() {
    return query;
  }

  /**
   * Runs a Hibernate ORM strategy in {@code session}, which must come from {@link #tuning()}'s
   * SessionFactory; the reactive ones run with {@link Library#run}.
   */
  public List<? extends Listing> run(Session session, int n) {
    if (!(query instanceof Query.Orm orm)) {
      throw new IllegalStateException(label + " runs on " + tuning + ", not on a Hibernate ORM"
          + " session: run it with Library.run");
    }
    return orm.run().apply(session, n);
  }

  /**
   * The SQL statements it makes (transaction control excluded) for {@code n} of at most as
   * many authors as the database holds, each with at least one book; asserted in the tests.
   */
  public long expectedStatements(int n) {
    if (n <= 0) {
      return 1;
    }
    return switch (this) {
      case LAZY_LOOP, MANY_TO_ONE_LAZY_LOOP, HR_LAZY_LOOP, R2DBC_CONCAT_MAP, R2DBC_FLAT_MAP,
          VERTX_PIPELINED -> 1 + n;
      case JOIN_FETCH, ENTITY_GRAPH, DTO_PROJECTION, MANY_TO_ONE_JOIN_FETCH, HR_JOIN_FETCH,
          R2DBC_JOIN -> 1;
      case BATCH_FETCH_16, HR_BATCH_FETCH_16 -> 1 + ceilDiv(n, 16);
      case BATCH_FETCH_64 -> 1 + ceilDiv(n, 64);
      case BATCH_FETCH_DEFAULT -> 1 + ceilDiv(n, Library.DEFAULT_BATCH_FETCH_SIZE);
      case SUBSELECT_FETCH -> 2;
    };
  }

  /**
   * Its round trips, everything on the wire, for {@code n} as {@link #expectedStatements}: the
   * statements and the COMMIT (pgjdbc's BEGIN rides along with the first query; Hibernate
   * Reactive, Vert.x and R2DBC wait for the BEGIN's answer, one round trip more). Vert.x
   * pipelined: BEGIN, the authors, every author's books at once, COMMIT, where the RTT is
   * longer than Vert.x takes to write the queries (on loopback an answer can come back sooner).
   */
  public long expectedRoundTrips(int n) {
    if (this == VERTX_PIPELINED) {
      return 4;
    }
    return expectedStatements(n) + (query instanceof Query.Orm ? 1 : 2);
  }

  private static long ceilDiv(int a, int b) {
    return (a + b - 1) / b;
  }

  /** The strategy of that label ("lazyLoop") or constant name ("LAZY_LOOP"), any case. */
  public static NPlusOneStrategy of(String name) {
    for (NPlusOneStrategy s : values()) {
      if (s.label.equalsIgnoreCase(name.trim()) || s.name().equalsIgnoreCase(name.trim())) {
        return s;
      }
    }
    throw new IllegalArgumentException("Unknown strategy '" + name + "': expected one of "
        + labels());
  }

  /** "lazyLoop, joinFetch, ...". */
  public static String labels() {
    return Arrays.stream(values()).map(NPlusOneStrategy::label)
        .collect(Collectors.joining(", "));
  }

  /** The strategies that answer {@code question}, the N+1 first. */
  public static List<NPlusOneStrategy> of(Question question) {
    return Arrays.stream(values()).filter(s -> s.question == question).toList();
  }
}
