package io.github.latencylab.env;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.latencylab.env.backend.ExternalBackend;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.postgresql.Driver;

/** The user's URL, kept whole: every parameter on every connection, the password on none. */
class PostgresTargetTest {

  private static LabConfig external(String url, String user, String password) {
    return LabConfig.from(Map.of(), Map.of("LATENCYLAB_BACKEND", "external",
        "LATENCYLAB_JDBC_URL", url, "LATENCYLAB_JDBC_USER", user,
        "LATENCYLAB_JDBC_PASSWORD", password));
  }

  @Test
  void everyParameterOfTheUsersUrlIsKeptAndTheUrlReadsBackTheSame() {
    PostgresTarget target = ExternalBackend.target(external("jdbc:postgresql://db.example.com"
        + ":6432/app?sslmode=verify-full&sslrootcert=/etc/ssl/rds.pem&targetServerType=primary"
        + "&options=-c%20statement_timeout%3D5s&ApplicationName=caf%C3%A9%20%26%20co%2B1",
        "bob", "s3cret"));

    assertThat(target.host()).isEqualTo("db.example.com");
    assertThat(target.port()).isEqualTo(6432);
    assertThat(target.database()).isEqualTo("app");
    assertThat(target.parameters()).containsExactlyInAnyOrderEntriesOf(Map.of(
        "sslmode", "verify-full", "sslrootcert", "/etc/ssl/rds.pem",
        "targetServerType", "primary", "options", "-c statement_timeout=5s",
        "ApplicationName", "café & co+1"));
    Properties read = Driver.parseURL(target.jdbcUrl(), null);
    target.parameters().forEach((name, value) ->
        assertThat(read.getProperty(name)).as(name).isEqualTo(value));
    assertThat(target.jdbcUrl()).contains("sslrootcert=/etc/ssl/rds.pem");
  }

  @Test
  void aUserOrPasswordInTheUrlBecomesTheTargetsAndIsNeverShown() {
    PostgresTarget target = ExternalBackend.target(external("jdbc:postgresql://h/app?user=bob"
        + "&password=s3cret&sslpassword=keypass&sslmode=require", "", ""));

    assertThat(target.user()).isEqualTo("bob");
    assertThat(target.password()).isEqualTo("s3cret");
    assertThat(target.jdbcUrl()).doesNotContain("s3cret").doesNotContain("bob")
        .contains("sslpassword=keypass"); // pgjdbc needs it to read the key
    assertThat(target.redactedUrl() + target + target.withParameter("currentSchema", "x"))
        .doesNotContain("s3cret").doesNotContain("keypass").contains("sslpassword=***");
    // the settings win over the URL
    assertThat(ExternalBackend.target(external("jdbc:postgresql://h/app?user=bob&password=a",
        "alice", "b"))).extracting(PostgresTarget::user, PostgresTarget::password)
        .containsExactly("alice", "b");
    assertThat(external("jdbc:postgresql://h/app?password=s3cret", "", "").toString())
        .doesNotContain("s3cret");
  }

  @Test
  void urlsTheLabCannotKeepWholeAreRefusedWithTheReason() {
    assertThatThrownBy(() -> ExternalBackend.target(external(
        "jdbc:postgresql://a:5432,b:5432/app?targetServerType=primary", "u", "p")))
        .hasMessage("Invalid latencylab.jdbc.url 'jdbc:postgresql://a:5432,b:5432/app?"
            + "targetServerType=primary' (from LATENCYLAB_JDBC_URL): it names 2 hosts; the Lab"
            + " measures one server (and its proxy forwards to one): give the host to measure");
    assertThatThrownBy(() -> ExternalBackend.target(external(
        "jdbc:postgresql://a/app?socketFactory=x.Y&password=s3cret", "u", "")))
        .hasMessage("Invalid latencylab.jdbc.url 'jdbc:postgresql://a/app?socketFactory=x.Y&"
            + "password=***' (from LATENCYLAB_JDBC_URL): it sets socketFactory; the Lab counts"
            + " round trips with a socket factory of its own: remove socketFactory from the URL");
  }

  @Test
  void aLibpqToolGetsTheSameConnectionTheSchemaAndThePasswordInItsEnvironment() {
    PostgresTarget target = new PostgresTarget("127.0.0.1", 5433, "app", "bob", "s3cret",
        Map.of("sslmode", "verify-ca", "options", "-c statement_timeout=5s",
            "ApplicationName", "bench", "loggerLevel", "OFF"))
        .withParameter("currentSchema", "latency_lab");

    assertThat(target.libpqEnvironment()).containsExactlyInAnyOrderEntriesOf(Map.of(
        "PGHOST", "127.0.0.1", "PGPORT", "5433", "PGDATABASE", "app", "PGUSER", "bob",
        "PGPASSWORD", "s3cret", "PGSSLMODE", "verify-ca", "PGAPPNAME", "bench",
        "PGOPTIONS", "-c statement_timeout=5s -c search_path=latency_lab"));
  }

  @Test
  void theSchemaSettingIsAPlainNameThatNeedsNoQuoting() {
    assertThat(LabConfig.from(Map.of(), Map.of()).get(Setting.SCHEMA)).isEqualTo("latency_lab");
    for (String bad : new String[] {"Latency", "pg_lab", "lab; DROP TABLE x", "", "a-b"}) {
      assertThatThrownBy(() -> LabConfig.from(Map.of("latencylab.schema", bad), Map.of()))
          .hasMessage("Invalid latencylab.schema '" + bad + "' (from -Dlatencylab.schema):"
              + " expected a lower-case name of letters, digits and _, at most 63 characters,"
              + " not starting with pg_ (e.g. latency_lab)");
    }
  }

  @Test
  void clientsOtherThanPgjdbcTakeTheSchemaAndRefuseWhatTheyCannotTranslate() {
    PostgresTarget target = new PostgresTarget("localhost", 5432, "lab", "bench", "secret",
        Map.of("currentSchema", "latencylab_1", "ApplicationName", "bench"));
    assertThat(target.startupParameters("vertx16")).containsOnly(
        Map.entry("search_path", "latencylab_1"), Map.entry("application_name", "bench"));
    assertThatThrownBy(() -> target.withParameter("sslpassword", "hunter2")
        .startupParameters("r2dbcFlux"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("r2dbcFlux cannot connect with the target's pgjdbc parameter sslpassword"
            + " (value not shown: it may be a secret): clients other than pgjdbc take only"
            + " currentSchema and ApplicationName; run them on a Lab whose URL has no other"
            + " parameter (e.g. --backend embedded)")
        .message().doesNotContain("hunter2");
  }
}
