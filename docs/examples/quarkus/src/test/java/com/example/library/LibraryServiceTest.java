package com.example.library;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.hasSize;

import io.github.latencylab.junit.ExpectRoundTrips;
import io.github.latencylab.junit.ExpectStatements;
import io.github.latencylab.junit.LabExtension;
import io.github.latencylab.quarkus.LabTestResource;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The catalogue's latency budgets, counted at the wire on Quarkus' own Agroal pool: the pool's
 * connection set-up is listed apart, a transaction's COMMIT is counted.
 */
// snippet-begin quarkus-budgets
@ExtendWith(LabExtension.class) // before @QuarkusTest, or the budgets are never checked
@QuarkusTest
// the run's Lab as the datasource of every @QuarkusTest class (GLOBAL: the application's own too)
@WithTestResource(value = LabTestResource.class, scope = TestResourceScope.GLOBAL)
class LibraryServiceTest {

  @Inject
  LibraryService library;

  @Test
  @ExpectRoundTrips(exactly = 2) // the query (BEGIN rides along), then @Transactional's COMMIT
  @ExpectStatements(exactly = 3) // BEGIN, the select with its join, COMMIT
  void theCatalogueIsOneQuery() {
    List<AuthorWithTitles> catalogue = library.catalogue();
    assertThat(catalogue).hasSize(10);
    assertThat(catalogue.get(0).titles()).hasSize(3);
  }

  @Test
  @ExpectRoundTrips(exactly = 2) // the same over HTTP: the request's thread is counted too
  void theCatalogueOverHttpIsOneQuery() {
    given().when().get("/catalogue").then().statusCode(200).body("$", hasSize(10));
  }

  @Test
  @ExpectRoundTrips(exactly = 3) // select, update, and @Transactional's COMMIT: a round trip too
  @ExpectStatements(exactly = 4) // BEGIN rides along with the select
  void renamingAnAuthorCostsItsCommit() {
    library.rename(1, "Author 1, revised");
  }
  // snippet-end quarkus-budgets

  @Test
  @ExpectRoundTrips(exactly = 3) // the authors, the books of all 10 (one batch of keys), COMMIT
  void aLazyLoopIsOneBatchFetchUpTo16Authors() {
    assertThat(library.catalogueLazily()).hasSize(10);
  }
}
