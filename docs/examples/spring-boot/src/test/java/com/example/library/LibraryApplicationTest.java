package com.example.library;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The application's own test, as it was before latency-lab: no extension, no profile. Its
 * context connects to the Lab all the same (latency-lab-spring), in the Lab's schema.
 */
@SpringBootTest
class LibraryApplicationTest {

  @Autowired
  AuthorRepository authors;
  @Autowired
  JdbcTemplate jdbc;

  @Test
  void itsRepositoriesWorkOnTheTestDatabase() {
    LibraryData.seed(authors);
    assertThat(authors.count()).isEqualTo(LibraryData.AUTHORS);
    assertThat(jdbc.queryForObject("select current_schema()", String.class))
        .isEqualTo("latency_lab");
  }
}
