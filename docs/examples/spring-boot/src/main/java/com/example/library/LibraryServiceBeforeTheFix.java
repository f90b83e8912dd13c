package com.example.library;

import java.util.List;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * {@link LibraryService#catalogue()} as it was before the fix: the authors without their books,
 * then one query per author when its books are read, an N+1. Kept so that RevertedFixTest shows
 * what the tests say when the fix is reverted.
 */
@Service
public class LibraryServiceBeforeTheFix {

  private final AuthorRepository authors;

  public LibraryServiceBeforeTheFix(AuthorRepository authors) {
    this.authors = authors;
  }

  @Transactional(readOnly = true)
  public List<AuthorWithTitles> catalogue() {
    return authors.findAllByOrderByIdAsc().stream()
        .map(author -> new AuthorWithTitles(author.getName(),
            author.getBooks().stream().map(Book::getTitle).toList())) // a query per author
        .toList();
  }
}
