package com.example.library;

import com.example.library.repository.AuthorRepository;
import com.example.library.repository.BookRepository;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;

/**
 * {@link AuthorService} as it was before the fix: the authors, then one query per author for
 * their books, an N+1. Kept so that RevertedFixTest shows what the tests say when the fix is
 * reverted.
 */
public final class AuthorServiceBeforeTheFix {

  private final DataSource dataSource;
  private final AuthorRepository authors = new AuthorRepository();
  private final BookRepository books = new BookRepository();

  public AuthorServiceBeforeTheFix(DataSource dataSource) {
    this.dataSource = dataSource;
  }

  public List<Author> listAuthors() throws SQLException {
    try (Connection c = dataSource.getConnection()) {
      List<Author> out = new ArrayList<>();
      for (Author a : authors.findAll(c)) {
        out.add(new Author(a.id(), a.name(), books.titlesOf(c, a.id()))); // a query per author
      }
      return out;
    }
  }
}
