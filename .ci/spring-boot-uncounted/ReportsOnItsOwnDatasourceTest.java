package com.example.library;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.latencylab.junit.ExpectRoundTrips;
import io.github.latencylab.junit.LabExtension;
import java.sql.Connection;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;
import org.springframework.test.context.ActiveProfiles;

/**
 * .ci/run copies this into a copy of the Spring Boot example: a report that reads through a
 * datasource of its own, built from the Lab's host and port (its URL without latency-lab's
 * parameters), so the Lab counts none of it, kept open as a pool's or opened and closed within
 * the test. Each budget must fail in one line, never pass.
 */
@ExtendWith(LabExtension.class)
@SpringBootTest
@ActiveProfiles("lab")
class ReportsOnItsOwnDatasourceTest {

  static Connection kept; // a pool keeps its connections open

  @Test
  @ExpectRoundTrips(max = 10)
  void threeSelectsOnItsOwnDatasource() throws Exception {
    String url = System.getProperty("latencylab.lab.url")
        .replaceAll("[&?]socketFactory(Arg)?=[^&]*", "");
    kept = new DriverManagerDataSource(url, System.getProperty("latencylab.lab.user"),
        System.getProperty("latencylab.lab.password")).getConnection();
    JdbcTemplate own = new JdbcTemplate(new SingleConnectionDataSource(kept, true));
    for (int i = 0; i < 2; i++) {
      own.queryForObject("select count(*) from author", Long.class);
    }
    // the same database and schema as the application's: a count of zero would be a lie
    assertThat(own.queryForObject("select current_schema()", String.class))
        .isEqualTo("latency_lab");
  }

  // plain JDBC as it is most often written: a connection opened and closed within the test
  @Test
  @ExpectRoundTrips(max = 10)
  void threeSelectsOnAConnectionItOpensAndCloses() throws Exception {
    String url = System.getProperty("latencylab.lab.url")
        .replaceAll("[&?]socketFactory(Arg)?=[^&]*", "");
    try (Connection c = java.sql.DriverManager.getConnection(url,
        System.getProperty("latencylab.lab.user"), System.getProperty("latencylab.lab.password"));
        java.sql.Statement s = c.createStatement()) {
      for (int i = 0; i < 3; i++) {
        s.execute("select count(*) from author");
      }
    }
  }

  @AfterAll
  static void close() throws Exception {
    kept.close();
  }
}
