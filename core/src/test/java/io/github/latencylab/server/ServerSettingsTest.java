package io.github.latencylab.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.latencylab.env.BackendKind;
import io.github.latencylab.env.Lab;
import io.github.latencylab.env.LabConfig;
import io.github.latencylab.env.Setting;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.postgresql.ds.PGSimpleDataSource;

/** Server settings by name on the embedded Lab: applied, read back, restored, refused. */
@SuppressWarnings("try") // each SettingChange is a scope: closing it restores the setting
class ServerSettingsTest {

  private static Lab lab;

  @BeforeAll
  static void start() {
    lab = Lab.start(LabConfig.fromEnvironment().withBackend(BackendKind.EMBEDDED));
  }

  @AfterAll
  static void stop() {
    lab.close();
  }

  @Test
  void theLabsServerHasStockDurabilityByDefault() {
    assertThat(lab.server().settings()).containsEntry("fsync", "on")
        .containsEntry("synchronous_commit", "on").containsEntry("full_page_writes", "on");
    assertThat(lab.settings().snapshot(List.of("fsync", "synchronous_commit")))
        .extracting(PgSetting::source).as("nothing on the command line overrides them")
        .containsOnly("default");
  }

  @ParameterizedTest
  @MethodSource("io.github.latencylab.env.TestBackends#available")
  void everyBackendStartsDurableAndRestartsKeepingItsPorts(BackendKind backend) throws Exception {
    // the class's Lab is an embedded one started as any other: no second start to wait for
    if (backend == BackendKind.EMBEDDED) {
      startsDurableAndRestartsKeepingItsPorts(lab);
      return;
    }
    try (Lab other = Lab.start(LabConfig.fromEnvironment().withBackend(backend))) {
      startsDurableAndRestartsKeepingItsPorts(other);
    }
  }

  private static void startsDurableAndRestartsKeepingItsPorts(Lab other) throws SQLException {
    assertThat(other.server().settings()).containsEntry("fsync", "on")
        .containsEntry("synchronous_commit", "on").containsEntry("full_page_writes", "on");
    int direct = other.directTarget().port();
    try (SettingChange c = other.settings().set("max_connections", "50")) {
      assertThat(other.directTarget().port()).isEqualTo(direct);
      try (Connection conn = other.dataSource().getConnection();
          Statement st = conn.createStatement();
          ResultSet rs = st.executeQuery("SHOW max_connections")) {
        rs.next();
        assertThat(rs.getString(1)).as("through the proxy, after the restart").isEqualTo("50");
      }
    }
    assertThat(other.settings().get("max_connections").setting()).isEqualTo("100");
  }

  @Test
  void aSettingTheServerCannotStartWithIsPutBackAndTheServerRunsAgain() throws Exception {
    String before = show("shared_buffers");
    String source = lab.settings().get("shared_buffers").source();
    // ALTER SYSTEM takes it (within the setting's range); the start cannot map 1 TB of memory
    assertThatThrownBy(() -> lab.settings().set("shared_buffers", "1TB"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("PostgreSQL did not start with shared_buffers=1TB on the"
            + " embedded PostgreSQL: pg_ctl restart of the embedded PostgreSQL failed: ")
        .hasMessageContaining("shared memory")
        .hasMessageEndingWith("; it runs again with shared_buffers=" + before + ", as before")
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
    assertThat(show("shared_buffers")).isEqualTo(before);
    assertThat(lab.settings().get("shared_buffers").source()).isEqualTo(source);
    assertThat(lab.settings().autoConf()).as("postgresql.auto.conf put back")
        .doesNotContainKey("shared_buffers");
    assertThat(lab.settings().live()).isEmpty();
    try (Connection c = lab.dataSource().getConnection(); Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT 1")) {
      assertThat(rs.next()).as("through the proxy, after the server came back").isTrue();
    }
  }

  @Test
  void aReloadSettingIsAppliedToNewSessionsAndRestored() throws Exception {
    assertThat(show("work_mem")).isEqualTo("4MB");
    try (SettingChange change = lab.settings().set("work_mem", "64MB")) {
      assertThat(show("work_mem")).isEqualTo("64MB");
      assertThat(lab.settings().get("work_mem").source()).isEqualTo("configuration file");
      assertThat(lab.settings().live()).containsExactly(change);
    }
    assertThat(show("work_mem")).isEqualTo("4MB");
    assertThat(lab.settings().get("work_mem").source()).isEqualTo("default");
    assertThat(lab.settings().live()).isEmpty();
  }

  @Test
  void aRestartSettingRestartsOnTheSamePortAndTheProxyStillWorks() throws Exception {
    try (SettingChange change = lab.settings().set("shared_buffers", "32MB")) {
      assertThat(show("shared_buffers")).isEqualTo("32MB");
      assertThat(lab.server().settings()).containsEntry("shared_buffers", "32MB");
      try (Connection c = lab.dataSource().getConnection(); Statement st = c.createStatement();
          ResultSet rs = st.executeQuery("SELECT 1")) {
        assertThat(rs.next()).as("through the proxy after the restart").isTrue();
      }
    }
    assertThat(show("shared_buffers")).isEqualTo("128MB");
  }

  @Test
  void unknownNamesInvalidValuesAndBareMemoryNumbersAreRefusedWithTheReason() {
    assertThatThrownBy(() -> lab.settings().set("shared_buffer", "64MB"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Cannot set shared_buffer=64MB: unrecognized configuration parameter"
            + " \"shared_buffer\" (did you mean shared_buffers?)");
    assertThatThrownBy(() -> lab.settings().set("work_mem", "10XB"))
        .hasMessage("Cannot set work_mem=10XB on the embedded PostgreSQL: invalid value for"
            + " parameter \"work_mem\": \"10XB\" (Valid units for this parameter are \"B\","
            + " \"kB\", \"MB\", \"GB\", and \"TB\".)");
    assertThatThrownBy(() -> lab.settings().set("shared_buffers", "900"))
        .hasMessage("Refusing shared_buffers=900: without a unit PostgreSQL reads it in 8 kB"
            + " pages (900 x 8 kB = 7200 kB), which may not be what you mean. Write the unit,"
            + " e.g. shared_buffers=900MB (units: B, kB, MB, GB, TB)");
    assertThatThrownBy(() -> lab.settings().set("work_mem", "65536"))
        .hasMessageStartingWith("Refusing work_mem=65536: without a unit PostgreSQL reads it"
            + " in kB (65536 kB = 64 MB)");
    assertThatThrownBy(() -> lab.settings().set("checkpoint_timeout", "300"))
        .hasMessageStartingWith("Refusing checkpoint_timeout=300: without a unit PostgreSQL"
            + " reads it in seconds (5 min)");
    assertThatThrownBy(() -> lab.settings().set("block_size", "16kB"))
        .hasMessageContaining("pg_settings.context = internal");
    assertThat(lab.settings().live()).as("nothing left changed").isEmpty();
    assertThat(lab.settings().get("wal_buffers").source()).isEqualTo("default");
  }

  @Test
  void specialValuesNeedNoUnit() {
    try (SettingChange change = lab.settings().set("log_min_duration_statement", "-1")) {
      assertThat(change.applied()).containsEntry("log_min_duration_statement", "-1");
    }
  }

  @Test
  void withoutARestartAPostmasterSettingIsRefusedNamingWhy() {
    ServerSettings fork = ServerSettings.over(direct("postgres"),
        "a JMH fork cannot restart the server: run it through ./latency-lab bench");
    assertThatThrownBy(() -> fork.set("wal_buffers", "16MB"))
        .hasMessage("Cannot set wal_buffers=16MB on the server: it takes effect only at server"
            + " start (pg_settings.context = postmaster) and a JMH fork cannot restart the"
            + " server: run it through ./latency-lab bench");
    try (SettingChange c = fork.set(Map.of("synchronous_commit", "off"))) {
      assertThat(fork.get("synchronous_commit").setting()).isEqualTo("off");
    }
    assertThat(fork.get("synchronous_commit").setting()).isEqualTo("on");
  }

  @Test
  void whatAnotherProcessLeftChangedIsPutBack() throws Exception {
    Map<String, String> mark = lab.settings().autoConf();
    try (Connection c = lab.directDataSource().getConnection(); Statement st = c.createStatement()) {
      st.execute("ALTER SYSTEM SET synchronous_commit = 'off'"); // a fork that died
      st.execute("ALTER SYSTEM SET work_mem = '8MB'");
      st.execute("SELECT pg_reload_conf()");
    }
    assertThat(lab.settings().restoreAutoConf(mark))
        .containsExactlyInAnyOrder("synchronous_commit", "work_mem");
    assertThat(lab.settings().autoConf()).isEqualTo(mark);
    assertThat(show("synchronous_commit")).isEqualTo("on");
    assertThat(lab.settings().restoreAutoConf(mark)).as("nothing left to do").isEmpty();
  }

  @Test
  void aUserWithoutThePrivilegeIsRefusedWithTheParameterGroupHint() throws Exception {
    try (Connection c = lab.directDataSource().getConnection(); Statement st = c.createStatement()) {
      st.execute("DROP ROLE IF EXISTS app");
      st.execute("CREATE ROLE app LOGIN");
    }
    ServerSettings asApp = ServerSettings.over(direct("app"), "not here");
    assertThatThrownBy(() -> asApp.set("work_mem", "64MB"))
        .hasMessage("Cannot set work_mem=64MB on the server: user app may not ALTER SYSTEM (it"
            + " needs superuser, or GRANT ALTER SYSTEM ON PARAMETER work_mem on PostgreSQL"
            + " 15+). On a managed service (RDS, Aurora, Cloud SQL...) change it in the"
            + " instance's parameter group instead");
  }

  @Test
  void humanUnitsAreWhatShowPrints() throws Exception {
    List<String> names;
    try (Connection c = lab.directDataSource().getConnection(); Statement st = c.createStatement();
        // tcp_* have their own show hooks, which print the bare number of seconds
        ResultSet rs = st.executeQuery("SELECT name FROM pg_settings WHERE vartype = 'integer'"
            + " AND unit IS NOT NULL AND name NOT LIKE 'tcp\\_%' ORDER BY name")) {
      names = new java.util.ArrayList<>();
      while (rs.next()) {
        names.add(rs.getString(1));
      }
    }
    assertThat(names).contains("shared_buffers", "work_mem", "wal_buffers", "checkpoint_timeout");
    for (PgSetting s : lab.settings().snapshot(names)) {
      assertThat(s.value().replace(" ", "")).as(s.name() + " (" + s.setting() + " " + s.unit()
          + ")").isEqualTo(show(s.name()));
    }
    PgSetting sharedBuffers = lab.settings().get("shared_buffers");
    assertThat(sharedBuffers.setting()).isEqualTo("16384");
    assertThat(sharedBuffers.unit()).isEqualTo("8kB");
    assertThat(sharedBuffers.value()).isEqualTo("128 MB");
    assertThat(sharedBuffers.bytes()).hasValue(128L << 20);
    assertThat(lab.settings().get("work_mem").value()).isEqualTo("4 MB");
    assertThat(lab.settings().snapshot()).extracting(PgSetting::name)
        .containsExactlyElementsOf(ServerSettings.KNOBS);
  }

  @Test
  void restartEmptiesTheBufferCache() throws Exception {
    try (Connection c = lab.directDataSource().getConnection(); Statement st = c.createStatement()) {
      st.execute("CREATE TABLE IF NOT EXISTS cache_probe AS SELECT g AS id, repeat('x', 200) AS"
          + " pad FROM generate_series(1, 20000) g");
      st.executeQuery("SELECT count(*) FROM cache_probe").close();
    }
    assertThat(sharedRead()).as("warm").isZero();
    lab.restartServer();
    assertThat(sharedRead()).as("cold after a restart").isGreaterThan(500);
    assertThat(sharedRead()).as("warm again").isZero();
  }

  private static long sharedRead() throws SQLException {
    try (Connection c = lab.directDataSource().getConnection(); Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON)"
            + " SELECT count(*) FROM cache_probe")) {
      rs.next();
      String json = rs.getString(1);
      var m = java.util.regex.Pattern.compile("\"Shared Read Blocks\": (\\d+)").matcher(json);
      assertThat(m.find()).as(json).isTrue();
      return Long.parseLong(m.group(1));
    }
  }

  @Test
  void fastDurabilityTurnsCommitWaitsOff() {
    LabConfig fast = LabConfig.fromEnvironment().withBackend(BackendKind.EMBEDDED)
        .with(Setting.DURABILITY, "fast");
    try (Lab quick = Lab.start(fast)) {
      assertThat(quick.server().settings()).containsEntry("fsync", "off")
          .containsEntry("synchronous_commit", "off").containsEntry("full_page_writes", "off");
      assertThat(quick.settings().live()).as("the Lab's starting point, not a change").isEmpty();
      try (SettingChange on = quick.settings().set("synchronous_commit", "on")) {
        assertThat(quick.settings().get("synchronous_commit").setting()).isEqualTo("on");
      }
      assertThat(quick.settings().get("synchronous_commit").setting())
          .as("restored to the fast starting point").isEqualTo("off");
    }
    assertThatThrownBy(() -> LabConfig.fromEnvironment().with(Setting.DURABILITY, "safe"))
        .hasMessage("Invalid latencylab.server.durability 'safe' (from"
            + " LabConfig.with(DURABILITY)): expected one of stock, fast");
  }

  private static String show(String name) throws SQLException {
    try (Connection c = lab.directDataSource().getConnection(); Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT current_setting('" + name + "')")) {
      rs.next();
      return rs.getString(1);
    }
  }

  private static PGSimpleDataSource direct(String user) {
    PGSimpleDataSource ds = new PGSimpleDataSource();
    ds.setURL(lab.directTarget().jdbcUrl());
    ds.setUser(user);
    ds.setPassword(lab.directTarget().password());
    return ds;
  }
}
