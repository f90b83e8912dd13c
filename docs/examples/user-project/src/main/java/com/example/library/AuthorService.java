package com.example.library;

import com.example.library.repository.AuthorRepository;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import javax.sql.DataSource;

/** Lists the authors with their books: one query, whatever the number of authors. */
public final class AuthorService {

  private final DataSource dataSource;
  private final AuthorRepository authors = new AuthorRepository();

  public AuthorService(DataSource dataSource) {
    this.dataSource = dataSource;
  }

  public List<Author> listAuthors() throws SQLException {
    try (Connection c = dataSource.getConnection()) {
      return authors.findAllWithTitles(c); // the fix: authors joined to their books
    }
  }
}
