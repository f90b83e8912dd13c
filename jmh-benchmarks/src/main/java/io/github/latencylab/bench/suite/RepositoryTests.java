package io.github.latencylab.bench.suite;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.github.latencylab.junit.ExpectRoundTrips;
import io.github.latencylab.junit.LabExtension;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A team's repository tests in miniature, the suite {@link SuiteCostBenchmark} and {@link
 * ParallelSuiteBenchmark} launch: each test checks out a pooled connection and runs a lookup,
 * an insert, a count and a commit (4 round trips), as a repository test on a pool does. The
 * pool is the JVM's, opened once as a framework's context would be. Launched by the benchmarks
 * only (not a test source set: the build never runs them).
 */
public final class RepositoryTests {

  /** Tests in each class. */
  public static final int TESTS = 300;

  private static HikariDataSource pool;

  private RepositoryTests() {
  }

  /** With the Lab and no budget: what the Lab costs a test that asks nothing of it. */
  @ExtendWith(LabExtension.class)
  public static class Unbudgeted {
    @BeforeAll
    static void emptyTable() throws SQLException {
      empty("suite_unbudgeted");
    }

    @RepeatedTest(TESTS)
    void lookupInsertCountCommit() throws SQLException {
      RepositoryTests.lookupInsertCountCommit("suite_unbudgeted");
    }
  }

  /** The same tests, each under an exact budget. */
  @ExtendWith(LabExtension.class)
  public static class Budgeted {
    @BeforeAll
    static void emptyTable() throws SQLException {
      empty("suite_budgeted");
    }

    @RepeatedTest(TESTS)
    @ExpectRoundTrips(exactly = 4)
    void lookupInsertCountCommit() throws SQLException {
      RepositoryTests.lookupInsertCountCommit("suite_budgeted");
    }
  }

  static void lookupInsertCountCommit(String table) throws SQLException {
    try (Connection c = pool().getConnection()) {
      c.setAutoCommit(false);
      try (PreparedStatement find = c.prepareStatement("SELECT name FROM " + table
          + " WHERE id = ?")) {
        find.setLong(1, 1);
        find.executeQuery().close();
      }
      try (PreparedStatement insert = c.prepareStatement("INSERT INTO " + table
          + " (name) VALUES (?)")) {
        insert.setString(1, "an item");
        insert.executeUpdate();
      }
      try (Statement st = c.createStatement();
          ResultSet rs = st.executeQuery("SELECT count(*) FROM " + table)) {
        rs.next();
      }
      c.commit();
    }
  }

  // each run starts from the same table: a count over what earlier runs left would grow
  private static void empty(String table) throws SQLException {
    try (Connection c = pool().getConnection(); Statement st = c.createStatement()) {
      st.execute("CREATE TABLE IF NOT EXISTS " + table
          + " (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, name text)");
      st.execute("TRUNCATE " + table + " RESTART IDENTITY");
    }
  }

  static synchronized HikariDataSource pool() {
    if (pool == null) {
      HikariConfig config = new HikariConfig();
      config.setJdbcUrl(System.getProperty(LabExtension.URL_PROPERTY));
      config.setUsername(System.getProperty(LabExtension.USER_PROPERTY));
      config.setPassword(System.getProperty(LabExtension.PASSWORD_PROPERTY));
      config.setMaximumPoolSize(4);
      pool = new HikariDataSource(config);
    }
    return pool;
  }

  static synchronized void closePool() {
    if (pool != null) {
      pool.close();
      pool = null;
    }
  }
}
