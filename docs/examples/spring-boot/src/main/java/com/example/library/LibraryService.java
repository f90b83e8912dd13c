package com.example.library;

import java.util.List;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Isolation;
import org.springframework.transaction.annotation.Transactional;

@Service
public class LibraryService {

  private final AuthorRepository authors;

  public LibraryService(AuthorRepository authors) {
    this.authors = authors;
  }

  /** The catalogue: every author with their titles, in one query (the entity graph). */
  @Transactional(readOnly = true)
  public List<AuthorWithTitles> catalogue() {
    return authors.findAllWithBooksByOrderByIdAsc().stream()
        .map(author -> new AuthorWithTitles(author.getName(),
            author.getBooks().stream().map(Book::getTitle).toList()))
        .toList();
  }

  /**
   * How many authors, counted in a SERIALIZABLE transaction: Spring reads the connection's
   * isolation, sets it, and resets it after, a round trip each (transaction set-up, listed apart).
   */
  @Transactional(readOnly = true, isolation = Isolation.SERIALIZABLE)
  public long authorCount() {
    return authors.count();
  }

  /** Renames an author: the select, the update Hibernate flushes, and the commit. */
  @Transactional
  public void rename(long authorId, String name) {
    authors.findById(authorId).orElseThrow().setName(name);
  }
}
