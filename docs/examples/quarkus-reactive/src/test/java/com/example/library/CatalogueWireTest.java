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
import io.quarkus.test.vertx.RunOnVertxContext;
import io.quarkus.test.vertx.UniAsserter;
import io.quarkus.vertx.VertxContextSupport;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The catalogue's latency budgets on Hibernate Reactive, counted at the wire: the Vert.x
 * client's connection goes through the Lab's counting relay, which LabTestResource gives
 * Quarkus as the reactive datasource's URL.
 */
@ExtendWith(LabExtension.class) // before @QuarkusTest, or the budgets are never checked
@QuarkusTest
@WithTestResource(value = LabTestResource.class, scope = TestResourceScope.GLOBAL)
class CatalogueWireTest {

  @Inject
  LibraryService library;

  // Vert.x prepares a statement on a connection the first time it runs it: one round trip
  // more, once. Run both before counting (on the tests' one connection: application.properties),
  // so that a budget is what the code sends each time.
  @BeforeEach
  void prepareTheStatements() throws Throwable {
    VertxContextSupport.subscribeAndAwait(() -> library.catalogue());
    VertxContextSupport.subscribeAndAwait(() -> library.catalogueBeforeTheFix());
  }

  @Test
  @RunOnVertxContext // the test's Unis run on Vert.x, as Hibernate Reactive wants
  @ExpectRoundTrips(exactly = 1) // the join fetch: no transaction, one query
  void theCatalogueIsOneQuery(UniAsserter asserter) {
    asserter.assertThat(() -> library.catalogue(), catalogue -> {
      assertThat(catalogue).hasSize(10);
      assertThat(catalogue.get(0).titles()).hasSize(3);
    });
  }

  @Test
  @ExpectRoundTrips(exactly = 1) // the same over HTTP, served on the event loop
  void theCatalogueOverHttpIsOneQuery() {
    given().when().get("/catalogue").then().statusCode(200).body("$", hasSize(10));
  }

  @Test
  @RunOnVertxContext
  @ExpectRoundTrips(exactly = 11) // the authors, then one query per author: the N+1
  @ExpectStatements(exactly = 11)
  void beforeTheFixTheCatalogueWasAnNPlusOne(UniAsserter asserter) {
    asserter.assertThat(() -> library.catalogueBeforeTheFix(),
        catalogue -> assertThat(catalogue).hasSize(10));
  }
}
