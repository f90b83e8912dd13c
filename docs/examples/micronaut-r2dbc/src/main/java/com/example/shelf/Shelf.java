package com.example.shelf;

import jakarta.inject.Singleton;
import java.util.List;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

@Singleton
public class Shelf {

  private final BookRepository books;

  Shelf(BookRepository books) {
    this.books = books;
  }

  /** The titles of the given books, one query per id: an N+1. */
  public Mono<List<String>> titlesOneByOne(List<Long> ids) {
    return Flux.fromIterable(ids)
        .concatMap(id -> Mono.from(books.findById(id)))
        .map(Book::title)
        .collectList();
  }
}
