package com.example.library.repository;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/** The books, with plain JDBC on a connection the service gives. */
public final class BookRepository {

  /** The titles of one author's books: one query. */
  public List<String> titlesOf(Connection c, long authorId) throws SQLException {
    List<String> titles = new ArrayList<>();
    try (PreparedStatement ps = c.prepareStatement(
        "select title from book where author_id = ? order by id")) {
      ps.setLong(1, authorId);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          titles.add(rs.getString(1));
        }
      }
    }
    return titles;
  }
}
