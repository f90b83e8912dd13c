package io.github.latencylab.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import eu.rekawek.toxiproxy.Proxy;
import io.github.latencylab.env.Lab;
import io.github.latencylab.env.LogCapture;
import io.github.latencylab.env.Setting;
import io.github.latencylab.env.UsersDatabase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * {@code ./latency-lab demo --backend external} on a user's database that already has tables
 * named {@code book} and {@code author}, as a role that is not a superuser, behind the user's
 * own Toxiproxy: the demo runs, and leaves the user's database as it found it.
 */
class DemoOnUsersDatabaseTest {

  @Test
  void theDemoLeavesTheUsersTablesAndRowsAsTheyWereAndNothingOfItsOwn(@TempDir Path dir)
      throws Exception {
    try (UsersDatabase users = UsersDatabase.start()) {
      String db = users.createDatabaseWithTheUsersTables();
      List<String> catalog = users.catalog(db);
      List<String> rows = users.usersRows(db);

      Map<Setting, String> settings = new LinkedHashMap<>();
      settings.put(Setting.JDBC_URL, users.jdbcUrl(db));
      settings.put(Setting.JDBC_USER, UsersDatabase.OWNER);
      settings.put(Setting.JDBC_PASSWORD, UsersDatabase.PASSWORD);
      settings.put(Setting.TOXIPROXY_URL, users.toxiproxyUrl());
      // what the demo leaves, not how close it comes to 1 ms: no calibration to wait for
      settings.put(Setting.CALIBRATE, "false");
      Path json = dir.resolve("demo.json");
      Path svg = dir.resolve("demo.svg");
      DemoCommandTest.Result result;
      List<String> logLines;
      try (LogCapture logs = LogCapture.start()) {
        settings.forEach((s, v) -> System.setProperty(s.property(), v));
        try {
          result = DemoCommandTest.run("--backend", "external", "--rtt", "1ms", "--parents", "5",
              "--children", "2", "--strategy", "lazyLoop,joinFetch", "--runs", "1",
              "--json", json.toString(), "--svg", svg.toString());
        } finally {
          settings.keySet().forEach(s -> System.clearProperty(s.property()));
        }
        logLines = logs.lines();
      }

      assertThat(result.exitCode()).as(result.err()).isZero();
      assertThat(result.out())
          .containsPattern("\nlazyLoop +6 +7 +0 +[\\d.,]+ m?s ")
          .containsPattern("\njoinFetch +1 +2 +0 +[\\d.,]+ m?s ");
      assertThat(users.catalog(db)).as("every schema and object of the user's database")
          .isEqualTo(catalog);
      assertThat(users.usersRows(db)).as("the user's rows").isEqualTo(rows);
      assertThat(users.toxiproxy().getProxies()).extracting(Proxy::getName)
          .as("the demo's proxies in the user's Toxiproxy").noneMatch(n -> n.startsWith("latency-lab"));
      assertThat(String.join("\n", result.out(), result.err(), Files.readString(json),
          Files.readString(svg), String.join("\n", logLines)))
          .as("stdout, stderr, the JSON and SVG files, every log line")
          .doesNotContain(UsersDatabase.PASSWORD);

      // the demo's tables on the user's own connection, not a Lab's: refused, nothing dropped
      // (a Library takes a Lab only; the workloads' guard refuses any other connection)
      PGSimpleDataSource own = new PGSimpleDataSource();
      own.setURL(users.jdbcUrl(db));
      own.setUser(UsersDatabase.OWNER);
      own.setPassword(UsersDatabase.PASSWORD);
      try (Connection c = own.getConnection()) {
        assertThatThrownBy(() -> Lab.requireLabSchema(c))
            .hasMessageContaining("Refusing to create or drop tables");
      }
      assertThat(users.catalog(db)).isEqualTo(catalog);
    }
  }
}
