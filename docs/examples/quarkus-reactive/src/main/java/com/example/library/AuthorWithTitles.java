package com.example.library;

import java.util.List;

/** A line of the catalogue, as the REST resource returns it (JSON). */
public record AuthorWithTitles(String name, List<String> titles) {

  static AuthorWithTitles of(Author author, List<Book> books) {
    return new AuthorWithTitles(author.name, books.stream().map(b -> b.title).toList());
  }
}
