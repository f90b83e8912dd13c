package com.example.library.repository;

import com.example.library.Author;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The authors, with plain JDBC on a connection the service gives. */
public final class AuthorRepository {

  /** Every author, without their books. */
  public List<Author> findAll(Connection c) throws SQLException {
    List<Author> authors = new ArrayList<>();
    try (PreparedStatement ps = c.prepareStatement("select id, name from author order by id");
        ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        authors.add(new Author(rs.getLong(1), rs.getString(2), List.of()));
      }
    }
    return authors;
  }

  /** Every author with the titles of their books: one query, joined. */
  public List<Author> findAllWithTitles(Connection c) throws SQLException {
    Map<Long, String> names = new LinkedHashMap<>();
    Map<Long, List<String>> titles = new LinkedHashMap<>();
    try (PreparedStatement ps = c.prepareStatement("select a.id, a.name, b.title"
        + " from author a left join book b on b.author_id = a.id order by a.id, b.id");
        ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        long id = rs.getLong(1);
        names.put(id, rs.getString(2));
        List<String> list = titles.computeIfAbsent(id, k -> new ArrayList<>());
        String title = rs.getString(3);
        if (title != null) {
          list.add(title);
        }
      }
    }
    List<Author> authors = new ArrayList<>();
    names.forEach((id, name) -> authors.add(new Author(id, name, titles.get(id))));
    return authors;
  }
}
