package com.example.library;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.github.latencylab.env.Lab;
import io.github.latencylab.junit.LabExtension;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The application's own pool, pointed at the Lab the way a Spring Boot test would be
 * ({@code spring.datasource.url=${latencylab.lab.url}}): from the system properties the
 * extension sets before a test class starts.
 */
final class LibraryDatabase {

  static final int AUTHORS = 10;
  static final int BOOKS_EACH = 3;

  private LibraryDatabase() {
  }

  /** A pool on the Lab, with the library's tables and AUTHORS x BOOKS_EACH books in them. */
  static HikariDataSource seededPool() throws SQLException {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(System.getProperty(LabExtension.URL_PROPERTY));
    config.setUsername(System.getProperty(LabExtension.USER_PROPERTY));
    config.setPassword(System.getProperty(LabExtension.PASSWORD_PROPERTY));
    config.setMaximumPoolSize(2);
    HikariDataSource pool = new HikariDataSource(config);
    try (Connection c = pool.getConnection(); Statement st = c.createStatement()) {
      Lab.requireLabSchema(c); // drop nothing outside the Lab's own schema
      st.execute("drop table if exists book");
      st.execute("drop table if exists author");
      st.execute("create table author (id bigint primary key, name text not null)");
      st.execute("create table book (id bigint primary key,"
          + " author_id bigint not null references author, title text not null)");
      try (PreparedStatement author = c.prepareStatement("insert into author values (?, ?)");
          PreparedStatement book = c.prepareStatement("insert into book values (?, ?, ?)")) {
        for (int a = 1; a <= AUTHORS; a++) {
          author.setLong(1, a);
          author.setString(2, "Author " + a);
          author.addBatch();
          for (int b = 1; b <= BOOKS_EACH; b++) {
            book.setLong(1, (long) a * 100 + b);
            book.setLong(2, a);
            book.setString(3, "Book " + b + " of author " + a);
            book.addBatch();
          }
        }
        author.executeBatch();
        book.executeBatch();
      }
    }
    return pool;
  }
}
