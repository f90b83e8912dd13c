package com.example.shelf;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.latencylab.junit.ExpectRoundTrips;
import io.github.latencylab.junit.LabExtension;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import reactor.core.publisher.Flux;

/** Budgets on Micronaut Data R2DBC, counted at the Lab's relay: the N+1 and one query. */
@ExtendWith(LabExtension.class)
@MicronautTest(transactional = false) // the application's statements, no test transaction around
class ShelfWireTest {

  @Inject
  BookRepository books;

  @Inject
  Shelf shelf;

  List<Long> ids;

  @BeforeEach
  void threeBooks() {
    Flux.from(books.deleteAll()).blockLast();
    ids = Flux.from(books.saveAll(List.of(new Book(null, "a"), new Book(null, "b"),
        new Book(null, "c")))).map(Book::id).collectList().block();
    shelf.titlesOneByOne(ids).block(); // the pool's connection prepares its statements once
  }

  @Test
  @ExpectRoundTrips(exactly = 1)
  void allTheBooksAreOneQuery() {
    assertThat(Flux.from(books.findAll()).collectList().block()).hasSize(3);
  }

  @Test
  @ExpectRoundTrips(exactly = 3) // the N+1: a query per id, named at Shelf's concatMap
  void titlesOneByOneAreAQueryEach() {
    assertThat(shelf.titlesOneByOne(ids).block()).containsExactly("a", "b", "c");
  }
}
