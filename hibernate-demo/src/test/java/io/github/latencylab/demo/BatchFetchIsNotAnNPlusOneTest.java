package io.github.latencylab.demo;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.latencylab.env.BackendKind;
import io.github.latencylab.env.Lab;
import io.github.latencylab.env.LabConfig;
import io.github.latencylab.junit.LabExtension;
import io.github.latencylab.junit.RoundTrips;
import java.sql.Connection;
import java.util.List;
import java.util.function.BiFunction;
import org.hibernate.Session;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Real Hibernate: the lazy loop's 100 child selects are an N+1, traced to the line that touched
 * the collections; a batch fetch's 7 selects of 16 keys each (the same statement, repeated) are
 * not, a known false positive of tools that count statements.
 */
class BatchFetchIsNotAnNPlusOneTest {

  @RegisterExtension
  static final LabExtension LAB =
      LabExtension.withConfig(LabConfig.fromEnvironment().withBackend(BackendKind.EMBEDDED));

  static Library library;

  @BeforeAll
  static void seed(Lab lab) {
    library = Library.create(lab).seed(100, 10);
  }

  @AfterAll
  static void close() {
    library.close();
  }

  @Test
  void theLazyLoopIsAnNPlusOneFromTheLineThatTouchedTheBooks(Connection connection) {
    assertThatThrownBy(() -> RoundTrips.assertAtMost(2,
        () -> inTransaction(connection, NPlusOneQueries::lazyLoop)))
        .hasMessageContaining("repeated: `select ... from book b1_0 where b1_0.author_id=?`"
            + " ran 100 times from `" + TOUCH + "`: an N+1; fetch them in one query (join"
            + " fetch, entity graph, batch fetch) or load by ids\n");
  }

  @Test
  void aBatchFetchRepeatsItsStatementButIsNotAnNPlusOne(Connection connection) {
    assertThatThrownBy(() -> RoundTrips.assertAtMost(2,
        () -> inTransaction(connection, NPlusOneQueries::batchFetch16)))
        .hasMessageStartingWith("expected at most 2 round trips, but there were 9")
        .hasMessageContaining("repeated: `select ... from book bb1_0 where bb1_0.author_id = any"
            + " (?)` ran 7 times from `" + TOUCH + "`: a batch fetch (a list of keys per"
            + " statement), not an N+1\n")
        .hasMessageNotContaining("N+1;");
  }

  /** Where each collection is first read: the first application frame below Hibernate's. */
  static final String TOUCH = "Listing$AuthorWithBooks.of(Listing.java:31)";

  private static <T> List<T> inTransaction(Connection connection,
      BiFunction<Session, Integer, List<T>> query) {
    try (Session session = library.openSession(NPlusOneStrategy.LAZY_LOOP, connection)) {
      session.beginTransaction();
      List<T> result = query.apply(session, 100);
      session.getTransaction().commit();
      return result;
    }
  }
}
