package com.example.library;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.latencylab.junit.LabExtension;
import io.github.latencylab.junit.RoundTrips;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.opentest4j.AssertionFailedError;

/**
 * What LibraryServiceTest's budget says when the fix is reverted: the catalogue with a Panache
 * query per author instead of the join fetch, under the same budget of 2 round trips. It fails
 * naming the repeated statement and the line of the service that sent it, not the code Quarkus
 * generates around it (ArC's subclass, Panache's statics, Hibernate's enhancement).
 */
@ExtendWith(LabExtension.class)
@QuarkusTest
class RevertedFixTest {

  @Inject
  LibraryService library;

  @Test
  void theNPlusOneIsCaughtAtItsLine() {
    assertThatThrownBy(() -> RoundTrips.assertAtMost(2, library::catalogueBeforeTheFix))
        .isInstanceOf(AssertionFailedError.class)
        .hasMessageStartingWith("expected at most 2 round trips, but there were 12 (13 SQL"
            + " statements); the SQL, read at the wire:\n"
            + "     1  BEGIN\n"
            + "     2  select a1_0.id,a1_0.name from Author a1_0 order by a1_0.id\n"
            + "     3  select b1_0.id,b1_0.author_id,b1_0.title from Book b1_0 where"
            + " b1_0.author_id=$1 order by b1_0.id\n"
            + "        ... the same 9 more times (4-12)\n"
            + "    13  COMMIT\n")
        .hasMessageContaining("repeated: `select ... from Book b1_0 where b1_0.author_id=?"
            + " order by b1_0.id` ran 10 times from"
            + " `LibraryService.catalogueBeforeTheFix(LibraryService.java:27)`: an N+1");
  }
}
