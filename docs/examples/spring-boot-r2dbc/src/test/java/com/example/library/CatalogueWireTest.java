package com.example.library;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.latencylab.junit.ExpectRoundTrips;
import io.github.latencylab.junit.LabExtension;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.test.web.reactive.server.WebTestClient;
import reactor.test.StepVerifier;

/**
 * Going reactive does not fix an N+1: R2DBC sends the books' query of each author after the
 * previous one's answer came back (concatMap), a round trip each, as JDBC's lazy loop does; the
 * join is one. Counted at the Lab's relay, which latency-lab-spring hands spring.r2dbc.url.
 */
@SpringBootTest
@AutoConfigureWebTestClient
@ExtendWith(LabExtension.class)
class CatalogueWireTest {

  @Autowired
  WebTestClient web;

  @Autowired
  BookRepository books;

  @Test
  @ExpectRoundTrips(exactly = 11) // the authors, then the books of each of the 10
  void theCatalogueIsAQueryPerAuthor() {
    assertThat(catalogue("/catalogue")).hasSize(10).allSatisfy(e ->
        assertThat(e.titles()).hasSize(2));
  }

  @Test
  @ExpectRoundTrips(exactly = 1)
  void theJoinedCatalogueIsOneQuery() {
    assertThat(catalogue("/catalogue/joined")).hasSize(10).allSatisfy(e ->
        assertThat(e.titles()).hasSize(2));
  }

  @Test
  @ExpectRoundTrips(exactly = 1) // a repository's Flux, subscribed by StepVerifier: one query
  void oneAuthorsBooksAreOneQuery() {
    StepVerifier.create(books.findByAuthorIdOrderById(1L).map(Book::title))
        .expectNextCount(2)
        .verifyComplete();
  }

  private List<CatalogueController.Entry> catalogue(String uri) {
    return web.get().uri(uri).exchange().expectStatus().isOk()
        .expectBodyList(CatalogueController.Entry.class).returnResult().getResponseBody();
  }
}
