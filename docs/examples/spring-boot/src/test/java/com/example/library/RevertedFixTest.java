package com.example.library;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.github.latencylab.junit.LabExtension;
import io.github.latencylab.junit.RoundTrips;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.ActiveProfiles;

/**
 * What LibraryServiceTest says when the fix is reverted: LibraryServiceBeforeTheFix, the same
 * catalogue without the entity graph, under the same budget. The message names the repeated
 * statement and the line of the service that sent it, not Spring's proxies around it.
 */
@ExtendWith(LabExtension.class)
@SpringBootTest
@ActiveProfiles("lab")
class RevertedFixTest {

  @Autowired
  LibraryServiceBeforeTheFix beforeTheFix;

  @BeforeEach
  void seed(@Autowired AuthorRepository authors) {
    LibraryData.seed(authors);
  }

  @Test
  void theRoundTripBudgetNamesTheNPlusOneAndItsCallSite() {
    Throwable failure = catchThrowable(() -> RoundTrips.assertAtMost(2, beforeTheFix::catalogue));
    assertThat(withoutOverhead(failure.getMessage())).isEqualTo(
        "expected at most 2 round trips, but there were 12 (13 SQL statements); the SQL, read at"
            + " the wire:\n"
            + "     1  BEGIN READ ONLY\n"
            + "     2  select a1_0.id,a1_0.name from author a1_0 order by a1_0.id\n"
            + "     3  select b1_0.author_id,b1_0.id,b1_0.title from book b1_0 where"
            + " b1_0.author_id=$1 order by b1_0.id\n"
            + "        ... the same 9 more times (4-12)\n"
            + "    13  COMMIT\n"
            + "repeated: `select ... from book b1_0 where b1_0.author_id=? order by b1_0.id` ran"
            + " 10 times from"
            + " `LibraryServiceBeforeTheFix.catalogue(LibraryServiceBeforeTheFix.java:25)`: an"
            + " N+1; fetch them in one query (join fetch, entity graph, batch fetch) or load by"
            + " ids\n");
  }

  /**
   * The message without its last line about the pool's validation of a connection idle for
   * more than 500 ms (HikariCP's), which is not counted, and is there or not by timing.
   */
  private static String withoutOverhead(String message) {
    return message.replaceFirst("not counted \\(overhead[^\n]*\n$", "");
  }
}
