package io.github.latencylab.demo;

import static io.github.latencylab.demo.NPlusOneStrategy.BATCH_FETCH_16;
import static io.github.latencylab.demo.NPlusOneStrategy.BATCH_FETCH_64;
import static io.github.latencylab.demo.NPlusOneStrategy.BATCH_FETCH_DEFAULT;
import static io.github.latencylab.demo.NPlusOneStrategy.LAZY_LOOP;
import static io.github.latencylab.demo.NPlusOneStrategy.MANY_TO_ONE_LAZY_LOOP;
import static io.github.latencylab.demo.NPlusOneStrategy.SUBSELECT_FETCH;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.latencylab.demo.Listing.AuthorWithBooks;
import io.github.latencylab.demo.Listing.BookWithAuthor;
import io.github.latencylab.demo.NPlusOneStrategy.Query;
import io.github.latencylab.demo.NPlusOneStrategy.Question;
import io.github.latencylab.env.BackendKind;
import io.github.latencylab.env.Lab;
import io.github.latencylab.env.LabConfig;
import io.github.latencylab.junit.LabExtension;
import io.github.latencylab.latency.Rtt;
import io.smallrye.mutiny.Uni;
import java.sql.Connection;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.hibernate.Session;
import org.hibernate.reactive.mutiny.Mutiny;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What each strategy costs, read at the wire: SQL statements (transaction control excluded)
 * and round trips (everything: BEGIN rides along with the first query, the COMMIT is one).
 * Each run is a read-only transaction on a connection opened before counting.
 */
class NPlusOneStrategyTest {

  @RegisterExtension
  static final LabExtension LAB =
      LabExtension.withConfig(LabConfig.fromEnvironment().withBackend(BackendKind.EMBEDDED));

  static final int AUTHORS = 100;
  static final int BOOKS_PER_AUTHOR = 10;

  static Library library;

  @BeforeAll
  static void seed(Lab lab) {
    library = Library.create(lab).seed(AUTHORS, BOOKS_PER_AUTHOR);
  }

  @AfterAll
  static void close() {
    library.close();
  }

  @ParameterizedTest(name = "{0}: {1} SQL statements, {2} round trips")
  @CsvSource({
      // strategy,        SQL statements, round trips (+ COMMIT)
      "lazyLoop,           101, 102", // 1 for the authors + 1 per author
      "joinFetch,            1,   2",
      "entityGraph,          1,   2", // the same left join as joinFetch
      "batchFetch16,         8,   9", // 1 + ceil(100 / 16)
      "batchFetch64,         3,   4", // 1 + ceil(100 / 64)
      "batchFetchDefault,    5,   6", // 1 + ceil(100 / 32)
      "subselectFetch,       2,   3", // the authors, then every author's books at once
      "dtoProjection,        1,   2",
      "manyToOneLazyLoop,  101, 102", // 1 for the books + 1 per (distinct) author
      "manyToOneJoinFetch,   1,   2",
      // on the event loop the BEGIN waits for its answer: one round trip more
      "hrLazyLoop,         101, 103", // each Mutiny.fetch once the previous one's books came
      "hrJoinFetch,          1,   3",
      "hrBatchFetch16,       8,  10",
      "r2dbcConcatMap,     101, 103",
      "r2dbcFlatMap,       101, 103", // subscribed at once, yet sent one at a time
      "r2dbcJoin,            1,   3",
  })
  void costOfListingHundred(String strategy, long statements, long roundTrips,
      Connection connection) {
    // a reactive client prepares a statement on its connection the first time: not counted
    library.run(NPlusOneStrategy.of(strategy), connection, 100);
    StrategyRun run = library.run(NPlusOneStrategy.of(strategy), connection, 100);

    assertThat(run.statements()).as("SQL statements").isEqualTo(statements);
    assertThat(run.roundTrips()).as("round trips").isEqualTo(roundTrips);
    assertThat(run.strategy().expectedRoundTrips(100)).isEqualTo(roundTrips);
    assertThat(run.sql()).first().asString().startsWith("BEGIN");
    assertThat(run.sql()).last().isEqualTo("COMMIT");
    assertThat(run.wire().statements()).as("statements with BEGIN and COMMIT")
        .isEqualTo(statements + 2);
    assertThat(run.strategy().expectedStatements(100)).isEqualTo(statements);
  }

  /**
   * Hibernate 7 on PostgreSQL batch-fetches with one array parameter, {@code author_id =
   * any ($1)}: one SQL text whatever the batch, the array trimmed to the keys waiting (not
   * padded with nulls), and a lone key loaded by the plain single-key select.
   */
  @ParameterizedTest(name = "{0} for {1}: {2} SQL statements")
  @CsvSource({
      "batchFetch16,       1, 2",
      "batchFetch16,      16, 2",
      "batchFetch16,      17, 3", // 16 keys, then author 17 alone
      "batchFetch16,      33, 4",
      "batchFetch64,      64, 2",
      "batchFetch64,      65, 3",
      "batchFetchDefault, 32, 2",
      "batchFetchDefault, 33, 3",
      "lazyLoop,           1, 2",
      "lazyLoop,          10, 11",
      "subselectFetch,     1, 2",
      "subselectFetch,    10, 2",
  })
  void batchesOfTheSize(String strategy, int n, long statements, Connection connection) {
    StrategyRun run = library.run(NPlusOneStrategy.of(strategy), connection, n);

    assertThat(run.statements()).isEqualTo(statements);
    assertThat(run.roundTrips()).isEqualTo(statements + 1);
    assertThat(run.strategy().expectedStatements(n)).isEqualTo(statements);
    assertThat(run.result()).hasSize(n);
  }

  @Test
  void batchFetchingSendsArraysAndALoneKeyAlone(Connection connection) {
    List<String> queries = library.run(BATCH_FETCH_16, connection, 17).queries();

    assertThat(queries).containsExactly(
        "select a1_0.id,a1_0.name from author a1_0 where a1_0.id<=$1 order by a1_0.id",
        "select bb1_0.author_id,bb1_0.id,bb1_0.published,bb1_0.title from book bb1_0"
            + " where bb1_0.author_id = any ($1)",
        "select bb1_0.author_id,bb1_0.id,bb1_0.published,bb1_0.title from book bb1_0"
            + " where bb1_0.author_id=$1");
    List<String> batched = library.run(BATCH_FETCH_DEFAULT, connection, 100).queries();
    assertThat(batched.subList(1, batched.size())).hasSize(4)
        .allMatch(sql -> sql.endsWith("where b1_0.author_id = any ($1)"));
  }

  @Test
  void theNPlusOneIsOneSelectPerAuthor(Connection connection) {
    List<String> queries = library.run(LAZY_LOOP, connection, 100).queries();

    assertThat(queries.get(0))
        .isEqualTo("select a1_0.id,a1_0.name from author a1_0 where a1_0.id<=$1 order by a1_0.id");
    assertThat(queries.subList(1, 101)).containsOnly("select b1_0.author_id,b1_0.id,"
        + "b1_0.published,b1_0.title from book b1_0 where b1_0.author_id=$1");
  }

  @Test
  void subselectRepeatsTheAuthorsQuery(Connection connection) {
    assertThat(library.run(SUBSELECT_FETCH, connection, 100).queries()).last().asString()
        .endsWith("where bs1_0.author_id in (select a1_0.id from author a1_0 where"
            + " a1_0.id<=$1)");
  }

  @Test
  void everyStrategyReturnsTheSameData(Connection connection) {
    List<? extends Listing> expected = library.run(LAZY_LOOP, connection, 100).result();
    assertThat(expected).hasSize(100).allSatisfy(row ->
        assertThat(((AuthorWithBooks) row).books()).hasSize(BOOKS_PER_AUTHOR));
    assertThat(((AuthorWithBooks) expected.get(0)).name()).isEqualTo("Author 1");
    for (NPlusOneStrategy strategy : NPlusOneStrategy.of(Question.AUTHORS_WITH_BOOKS)) {
      assertThat(library.run(strategy, connection, 100).result()).as(strategy.label())
          .isEqualTo(expected);
    }

    List<? extends Listing> books = library.run(MANY_TO_ONE_LAZY_LOOP, connection, 100).result();
    Set<Long> authors = books.stream().map(b -> ((BookWithAuthor) b).authorId())
        .collect(Collectors.toSet());
    assertThat(books).hasSize(100);
    assertThat(authors).as("the 100 newest books have 100 different authors").hasSize(100);
    assertThat(books.get(0)).isEqualTo(new BookWithAuthor(1000, "Book 10 by Author 100", 100,
        "Author 100"));
    for (NPlusOneStrategy strategy : NPlusOneStrategy.of(Question.NEWEST_BOOKS_WITH_AUTHOR)) {
      assertThat(library.run(strategy, connection, 100).result()).as(strategy.label())
          .isEqualTo(books);
    }
  }

  @ParameterizedTest
  @MethodSource("hibernateOrmStrategies")
  void aStrategyRunsInASessionOfItsOwnTuning(NPlusOneStrategy strategy, Connection connection) {
    try (Session session = library.openSession(strategy, connection)) {
      session.beginTransaction();
      assertThat(strategy.run(session, 3)).hasSize(3);
      session.getTransaction().commit();
    }
  }

  /**
   * The one client here that overlaps the N+1: Vert.x sends every author's query before the
   * first answer, so 101 statements cross in 4 round trips. Counted at an RTT far above the
   * time Vert.x takes to write them: on loopback an answer can come back before the last
   * query is written.
   */
  @Test
  void vertxPipelinesTheHundredQueriesIntoOneRoundTrip(Lab lab, Connection connection) {
    library.run(NPlusOneStrategy.VERTX_PIPELINED, connection, 100); // prepared, not counted
    lab.rtt(Rtt.parse("200ms"));
    try {
      StrategyRun run = library.run(NPlusOneStrategy.VERTX_PIPELINED, connection, 100);
      assertThat(run.statements()).isEqualTo(101);
      assertThat(run.roundTrips()).isEqualTo(4);
      assertThat(run.sql()).startsWith("BEGIN").endsWith("COMMIT");
    } finally {
      lab.rtt(Rtt.ZERO);
    }
  }

  /**
   * Hibernate Reactive cannot overlap the N+1 either: a session runs one operation at a time,
   * and every author's Mutiny.fetch started at once breaks it (3.2).
   */
  @Test
  void hibernateReactiveRefusesFetchesOverlappedInOneSession() {
    Mutiny.SessionFactory factory = library.sessionFactory(Library.Tuning.REACTIVE)
        .unwrap(Mutiny.SessionFactory.class);
    assertThatThrownBy(() -> factory.withTransaction(session -> session
            .createSelectionQuery("from Author a where a.id <= 10 order by a.id", Author.class)
            .getResultList()
            .chain(authors -> Uni.join().all(authors.stream()
                .map(a -> Mutiny.fetch(a.getBooks())).toList()).andFailFast()))
        .await().indefinitely())
        .hasMessageContaining("Illegal pop() with non-matching JdbcValuesSourceProcessingState");
  }

  static Stream<NPlusOneStrategy> hibernateOrmStrategies() {
    return Arrays.stream(NPlusOneStrategy.values()).filter(s -> s.query() instanceof Query.Orm);
  }

  @Test
  void aReactiveStrategyRefusesAHibernateOrmSession(Connection connection) {
    try (Session session = library.openSession(LAZY_LOOP, connection)) {
      assertThatThrownBy(() -> NPlusOneStrategy.HR_LAZY_LOOP.run(session, 3))
          .isInstanceOf(IllegalStateException.class)
          .hasMessage("hrLazyLoop runs on REACTIVE, not on a Hibernate ORM session: run it with"
              + " Library.run");
    }
  }

  @Test
  void theN1AndTheDefaultBatchRefuseTheOtherSessionFactory(Connection connection) {
    try (Session session = library.openSession(BATCH_FETCH_DEFAULT, connection)) {
      assertThatThrownBy(() -> LAZY_LOOP.run(session, 3))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("without batch or subselect fetching");
    }
    try (Session session = library.openSession(LAZY_LOOP, connection)) {
      assertThatThrownBy(() -> BATCH_FETCH_DEFAULT.run(session, 3))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("hibernate.default_batch_fetch_size");
    }
  }

  @Test
  void strategiesAreFoundByLabel() {
    assertThat(NPlusOneStrategy.of("batchFetch64")).isEqualTo(BATCH_FETCH_64);
    assertThat(NPlusOneStrategy.of("LAZY_LOOP")).isEqualTo(LAZY_LOOP);
    assertThatThrownBy(() -> NPlusOneStrategy.of("eager"))
        .hasMessage("Unknown strategy 'eager': expected one of lazyLoop, joinFetch,"
            + " entityGraph, batchFetch16, batchFetch64, batchFetchDefault, subselectFetch,"
            + " dtoProjection, hrLazyLoop, hrJoinFetch, hrBatchFetch16, r2dbcConcatMap,"
            + " r2dbcFlatMap, r2dbcJoin, vertxPipelined, manyToOneLazyLoop, manyToOneJoinFetch");
  }
}
