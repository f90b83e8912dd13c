package com.example.library;

import java.util.ArrayList;
import java.util.List;

/** The tests' catalogue: AUTHORS authors with BOOKS_EACH books each, written once per context. */
final class LibraryData {

  static final int AUTHORS = 10;
  static final int BOOKS_EACH = 3;

  private LibraryData() {
  }

  /** Run before each test (not counted: the budgets count the test method alone). */
  static void seed(AuthorRepository authors) {
    if (authors.count() > 0) {
      return;
    }
    List<Author> all = new ArrayList<>();
    for (int a = 1; a <= AUTHORS; a++) {
      Author author = new Author("Author " + a);
      for (int b = 1; b <= BOOKS_EACH; b++) {
        author.write("Book " + b + " of author " + a);
      }
      all.add(author);
    }
    authors.saveAll(all); // the books too (cascade)
  }
}
