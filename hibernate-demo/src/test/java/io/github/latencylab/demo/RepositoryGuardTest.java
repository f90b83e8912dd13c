package io.github.latencylab.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.latencylab.demo.Listing.AuthorWithBooks;
import io.github.latencylab.env.BackendKind;
import io.github.latencylab.env.Lab;
import io.github.latencylab.env.LabConfig;
import io.github.latencylab.junit.ExpectRoundTrips;
import io.github.latencylab.junit.ExpectStatements;
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
 * Guarding data access code against the N+1 with the JUnit extension, as a user would: the
 * snippet in docs/n-plus-one.md is copied from here.
 */
class RepositoryGuardTest {

  static Library library;

  @AfterAll
  static void close() {
    library.close();
  }

  // snippet-begin junit-extension
  // or @ExtendWith(LabExtension.class) on the class, with -Dlatencylab.backend=embedded
  @RegisterExtension
  static final LabExtension LAB =
      LabExtension.withConfig(LabConfig.fromEnvironment().withBackend(BackendKind.EMBEDDED));

  @BeforeAll
  static void seed(Lab lab) { // the Lab: started once per test run, shared, closed at the end
    library = Library.create(lab).seed(100, 10);
  }

  @Test
  @ExpectRoundTrips(max = 2) // the query (BEGIN rides along), and the COMMIT
  @ExpectStatements(exactly = 3) // BEGIN, the query, COMMIT
  void authorsWithTheirBooksInOneQuery(Connection connection) { // a counted connection
    List<AuthorWithBooks> authors = inTransaction(connection, NPlusOneQueries::joinFetch);
    assertThat(authors).hasSize(100);
  }

  @Test
  void theNPlusOneIsCaught(Connection connection) {
    assertThatThrownBy(() -> RoundTrips.assertAtMost(2,
        () -> inTransaction(connection, NPlusOneQueries::lazyLoop)))
        .hasMessageStartingWith("expected at most 2 round trips, but there were 102"
            + " (103 SQL statements); the SQL, read at the wire:")
        .hasMessageContaining("   3  select b1_0.author_id,b1_0.id,b1_0.published,"
            + "b1_0.title from book b1_0 where b1_0.author_id=$1\n"
            + "        ... the same 99 more times (4-102)\n");
  }
  // snippet-end junit-extension

  @Test
  void theAssertionReturnsWhatTheCodeReturned(Connection connection) {
    List<AuthorWithBooks> authors = RoundTrips.assertAtMost(2,
        () -> inTransaction(connection, NPlusOneQueries::dtoProjection));
    assertThat(authors).hasSize(100);
    RoundTrips.assertStatementsAtMost(5, // BEGIN, the authors, 2 batches of books, COMMIT
        () -> inTransaction(connection, NPlusOneQueries::batchFetch64));
  }

  /** A read-only transaction, as a service layer would open one. */
  private static <T> T inTransaction(Connection connection,
      BiFunction<Session, Integer, T> query) {
    try (Session session = library.openSession(NPlusOneStrategy.LAZY_LOOP, connection)) {
      session.beginTransaction();
      T result = query.apply(session, 100);
      session.getTransaction().commit();
      return result;
    }
  }
}
