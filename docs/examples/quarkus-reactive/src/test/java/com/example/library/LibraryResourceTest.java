package com.example.library;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.is;

import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

/**
 * The application's own test, as it was before latency-lab: nothing of latency-lab here. It
 * runs on the Lab too (LabTestResource is global), uncounted, and passes as before.
 */
@QuarkusTest
class LibraryResourceTest {

  @Test
  void theCatalogueListsEveryAuthorWithTheirTitles() {
    given().when().get("/catalogue").then()
        .statusCode(200)
        .body("$", hasSize(10))
        .body("[1].name", is("Author 2"))
        .body("[1].titles", contains("Book 1 of author 2", "Book 2 of author 2",
            "Book 3 of author 2"));
  }
}
