package com.example.library;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.zaxxer.hikari.HikariDataSource;
import io.github.latencylab.junit.LabExtension;
import io.github.latencylab.junit.RoundTrips;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * What AuthorServiceTest says when the fix is reverted: AuthorServiceBeforeTheFix, the same
 * service before it, under the same budgets. The messages name the repeated statement and the
 * line of the service that sent it.
 */
@ExtendWith(LabExtension.class)
class RevertedFixTest {

  static HikariDataSource pool;
  static AuthorServiceBeforeTheFix beforeTheFix;

  @BeforeAll
  static void seed() throws Exception {
    pool = LibraryDatabase.seededPool();
    beforeTheFix = new AuthorServiceBeforeTheFix(pool);
  }

  @AfterAll
  static void close() {
    pool.close();
  }

  @Test
  void theRoundTripBudgetNamesTheNPlusOneAndItsCallSite() {
    Throwable failure = catchThrowable(() -> RoundTrips.assertAtMost(1, beforeTheFix::listAuthors));
    assertThat(withoutOverhead(failure.getMessage())).isEqualTo(
        "expected at most 1 round trip, but there were 11 (11 SQL statements); the SQL, read at"
            + " the wire:\n"
            + "     1  select id, name from author order by id\n"
            + "     2  select title from book where author_id = $1 order by id\n"
            + "        ... the same 9 more times (3-11)\n"
            + "repeated: `select title from book where author_id = ? order by id` ran 10 times"
            + " from `AuthorServiceBeforeTheFix.listAuthors(AuthorServiceBeforeTheFix.java:30)`:"
            + " an N+1; fetch them in one query (join fetch, entity graph, batch fetch) or load"
            + " by ids\n");
  }

  @Test
  void theWireCostBudgetShowsTheArithmetic() {
    Throwable failure = catchThrowable(
        () -> RoundTrips.assertCostAtMost("20ms", 150, beforeTheFix::listAuthors));
    assertThat(failure.getMessage())
        .startsWith("expected a wire cost of at most 150 ms at 20ms, but it is ")
        .contains(" = 11 round trips x 20ms + ")
        .contains(" waiting on the server (measured at 0ms); the code's own time ")
        .contains(" not priced\n  11 round trips, 11 SQL statements, ")
        .contains("\n  priced at 0.5ms: ")
        .contains("ran 10 times from"
            + " `AuthorServiceBeforeTheFix.listAuthors(AuthorServiceBeforeTheFix.java:30)`");
  }

  /**
   * The message without its last line about the pool's validation of a connection idle for
   * more than 500 ms (HikariCP's), which is not counted, and is there or not by timing.
   */
  private static String withoutOverhead(String message) {
    return message.replaceFirst("not counted \\(overhead[^\n]*\n$", "");
  }
}
