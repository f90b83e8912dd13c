package com.example.library;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import io.github.latencylab.junit.ExpectRoundTrips;
import io.github.latencylab.junit.ExpectStatements;
import io.github.latencylab.junit.ExpectWireCost;
import io.github.latencylab.junit.LabExtension;
import io.github.latencylab.junit.RoundTrips;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The service's latency budget, on the application's own HikariCP pool: counted at the wire,
 * the pool's connection set-up and validation left out.
 */
// snippet-begin budgets
@ExtendWith(LabExtension.class)
@ExpectRoundTrips(max = 1) // every test here: one round trip (autocommit: no BEGIN/COMMIT)
class AuthorServiceTest {

  static HikariDataSource pool;
  static AuthorService service;

  @BeforeAll
  static void seed() throws Exception {
    pool = LibraryDatabase.seededPool();
    service = new AuthorService(pool);
  }

  @AfterAll
  static void close() {
    pool.close();
  }

  @Test
  void listsTheAuthorsWithTheirBooks() throws Exception {
    List<Author> authors = service.listAuthors();
    assertThat(authors).hasSize(LibraryDatabase.AUTHORS);
    assertThat(authors.get(0).titles()).hasSize(LibraryDatabase.BOOKS_EACH);
  }

  @Test
  @ExpectStatements(exactly = 1)
  @ExpectWireCost(rtt = "20ms", maxMillis = 150) // across regions: fine with 1 round trip
  void staysWithinItsBudgetAcrossRegions() throws Exception {
    assertThat(service.listAuthors()).hasSize(LibraryDatabase.AUTHORS);
  }
  // snippet-end budgets

  @Test
  @ExpectRoundTrips(max = 4) // its own budget: four listings, one round trip each
  void fromFourThreadsAtOnce() throws Exception {
    long listed = RoundTrips.assertExactly(4, () -> List.of(1, 2, 3, 4).parallelStream()
        .mapToLong(i -> {
          try {
            return service.listAuthors().size();
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
        }).sum());
    assertThat(listed).isEqualTo(4L * LibraryDatabase.AUTHORS);
  }
}
