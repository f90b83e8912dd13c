package com.example.library;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.latencylab.junit.ExpectRoundTrips;
import io.github.latencylab.junit.ExpectStatements;
import io.github.latencylab.junit.LabExtension;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.ActiveProfiles;

/**
 * The service's latency budgets, counted at the wire on Spring Boot's own HikariCP pool: the
 * pool's connection set-up and validation are listed apart, a transaction's COMMIT is counted.
 */
// snippet-begin spring-budgets
@ExtendWith(LabExtension.class) // before Spring's extension: the Lab is up when Spring reads
@SpringBootTest                 // latencylab.lab.url/user/password (application-lab.properties)
@ActiveProfiles("lab")
class LibraryServiceTest {

  @Autowired
  LibraryService library;

  @BeforeEach
  void seed(@Autowired AuthorRepository authors) {
    LibraryData.seed(authors);
  }

  @Test
  @ExpectRoundTrips(exactly = 2) // the query (BEGIN READ ONLY rides along), then the COMMIT
  @ExpectStatements(exactly = 3) // BEGIN READ ONLY, the select with its join, COMMIT
  void theCatalogueIsOneQuery() {
    List<AuthorWithTitles> catalogue = library.catalogue();
    assertThat(catalogue).hasSize(LibraryData.AUTHORS);
    assertThat(catalogue.get(0).titles()).hasSize(LibraryData.BOOKS_EACH);
  }

  @Test
  @ExpectRoundTrips(exactly = 3) // select, update, and @Transactional's COMMIT: a round trip too
  @ExpectStatements(exactly = 4) // BEGIN rides along with the select
  void renamingAnAuthorCostsItsCommit() {
    library.rename(1, "Author 1, revised");
  }
}
// snippet-end spring-budgets

