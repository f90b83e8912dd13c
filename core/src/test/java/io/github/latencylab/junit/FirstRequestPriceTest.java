package io.github.latencylab.junit;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.latencylab.env.BackendKind;
import io.github.latencylab.env.LabConfig;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A first request in a fresh JVM, as a web test's first MockMvc call is: four queries whose rows
 * are rendered as JSON, the first time this JVM runs any of it (Jackson's classes loaded,
 * nothing compiled yet). Its price at 20 ms must hold from one JVM to the next, whatever the
 * warm-up cost: docs/results/price-spread.sh runs it ten times, each in a JVM of its own.
 */
class FirstRequestPriceTest {

  @RegisterExtension
  static final LabExtension LAB =
      LabExtension.withConfig(LabConfig.fromEnvironment().withBackend(BackendKind.EMBEDDED));

  record Book(int id, String title, int year) {
  }

  @Test
  @ExpectRoundTrips(exactly = 4)
  @ExpectWireCost(rtt = "20ms", maxMillis = 60_000) // what the script reads is the price
  void rendersFourQueriesAsJson(DataSource dataSource) throws Exception {
    List<Book> books = new ArrayList<>();
    try (Connection c = dataSource.getConnection(); // set-up: overhead, not counted
        PreparedStatement ps = c.prepareStatement("SELECT n, 'Book ' || n, 1900 + n"
            + " FROM generate_series(?::int, ?::int) AS n")) {
      for (int page = 0; page < 4; page++) {
        ps.setInt(1, page * 25 + 1);
        ps.setInt(2, page * 25 + 25);
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            books.add(new Book(rs.getInt(1), rs.getString(2), rs.getInt(3)));
          }
        }
      }
    }
    String json = new ObjectMapper().writeValueAsString(books);
    assertThat(json).startsWith("[{\"id\":1,\"title\":\"Book 1\",\"year\":1901}");
  }
}
