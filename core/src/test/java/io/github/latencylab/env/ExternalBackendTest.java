package io.github.latencylab.env;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.ObjectMapper;
import eu.rekawek.toxiproxy.Proxy;
import eu.rekawek.toxiproxy.ToxiproxyClient;
import io.github.latencylab.latency.Rtt;
import io.github.latencylab.latency.RttMeasurement;
import io.github.latencylab.wire.WireStats;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The external backend on a database as a user has it ({@link UsersDatabase}: a role that is
 * not a superuser and owns its database, SCRAM passwords, the user's own Toxiproxy): latency
 * works and is counted, everything latency-lab creates lives in its own schema and goes away,
 * nothing of the user's is touched, the URL's parameters are kept, the password shows nowhere.
 */
class ExternalBackendTest {

  private static final String SCHEMA = "latency_lab";
  private static UsersDatabase users;

  @BeforeAll
  static void startTheUsersDatabase() throws Exception {
    users = UsersDatabase.start();
  }

  @AfterAll
  static void stopIt() throws Exception {
    users.close();
  }

  private static List<String> latencyLabProxies(ToxiproxyClient api) throws Exception {
    return api.getProxies().stream().map(Proxy::getName)
        .filter(name -> name.startsWith("latency-lab")).toList();
  }

  @Test
  void anOrdinaryOwnerBehindItsOwnToxiproxyGetsLatencyAndCountsAndKeepsItsTables()
      throws Exception {
    String db = users.createDatabaseWithTheUsersTables();
    List<String> catalog = users.catalog(db);
    List<String> rows = users.usersRows(db);
    ToxiproxyClient api = users.toxiproxy();
    api.createProxy("latency-lab", "127.0.0.1:0", "127.0.0.1:1"); // a stale one, replaced
    // uncalibrated: the latency's accuracy is LatencyFidelityTest's, here that it applies
    LabConfig config = users.external(db, UsersDatabase.OWNER, true)
        .with(Setting.CALIBRATE, "false");
    List<String> outputs = new ArrayList<>();

    try (LogCapture logs = LogCapture.start()) {
      try (Lab lab = Lab.start(config)) {
        assertThat(lab.hasProxy()).isTrue();
        assertThat(users.query(db, "SELECT nspname, pg_get_userbyid(nspowner),"
            + " obj_description(oid, 'pg_namespace') FROM pg_namespace WHERE nspname = '"
            + SCHEMA + "'"))
            .as("the Lab's schema, owned by the user's role, marked as latency-lab's")
            .singleElement().asString()
            .startsWith(SCHEMA + " | " + UsersDatabase.OWNER + " | created by latency-lab");
        for (String proxy : new String[] {"latency-lab", "latency-lab-baseline"}) {
          assertThat(api.getProxy(proxy).getUpstream()).isEqualTo("127.0.0.1:"
              + lab.directTarget().port());
        }
        assertThat(api.getProxy("latency-lab").getListen())
            .isEqualTo(lab.target().host() + ":" + lab.target().port());

        // a workload's set-up: its DROP and CREATE stay in the Lab's schema, at no extra trip
        try (Connection c = lab.dataSource().getConnection(); Statement st = c.createStatement()) {
          WireStats setUp = lab.wire(c).measure(() -> {
            st.execute("DROP TABLE IF EXISTS book");
            st.execute("CREATE TABLE book (id bigint PRIMARY KEY, title text)");
          });
          assertThat(setUp.roundTrips()).isEqualTo(2);
          try (ResultSet rs = st.executeQuery("SELECT current_schema(), count(*) FROM book")) {
            rs.next();
            assertThat(rs.getString(1)).isEqualTo(SCHEMA);
            assertThat(rs.getLong(2)).isZero();
          }
        }
        assertThat(users.usersRows(db)).as("the user's rows, while the Lab runs").isEqualTo(rows);

        Rtt rtt = Rtt.parse("20ms");
        RttMeasurement m = lab.measure(rtt, 20); // ±5 ms of 20: a score of pairs shows it
        assertThat(m.addedMeanMs()).as("added mean (plan %s)", m.plan())
            .isCloseTo(20, within(5.0));
        try (Connection c = java.sql.DriverManager.getConnection(lab.jdbcUrl(),
            lab.target().user(), lab.target().password())) {
          WireStats select = lab.wire().measure(() -> {
            try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT 1")) {
              rs.next();
            }
          });
          assertThat(select.roundTrips()).isEqualTo(1);
        }
        outputs.add(lab.describe());
        outputs.add(lab.jdbcUrl());
        outputs.add(lab.target().toString());
        outputs.add(lab.directTarget().toString());
        outputs.add(new ObjectMapper().findAndRegisterModules()
            .writeValueAsString(lab.environment()));
      }
      outputs.add(config.toString());
      outputs.addAll(logs.lines());
    }

    assertThat(latencyLabProxies(api)).as("the Lab's proxies, after close").isEmpty();
    assertThat(users.toxiproxyAlive()).as("the user's Toxiproxy: still running").isTrue();
    assertThat(users.catalog(db)).as("every schema and object of the user's database")
        .isEqualTo(catalog);
    assertThat(users.usersRows(db)).isEqualTo(rows);
    assertThat(String.join("\n", outputs)).as("describe, URLs, targets, environment, config,"
        + " every log line").doesNotContain(UsersDatabase.PASSWORD).contains("external ");
  }

  @Test
  void withoutAToxiproxyTheLatencyIsTheRealNetworksAndNoneCanBeAdded() throws Exception {
    String db = users.createDatabase();
    try (Lab lab = Lab.start(users.external(db, UsersDatabase.OWNER, false))) {
      assertThat(lab.hasProxy()).isFalse();
      assertThat(lab.describe()).isEqualTo("external " + users.jdbcUrl(db)
          + " (no Toxiproxy: real network latency), schema " + SCHEMA);
      RttMeasurement real = lab.measure(Rtt.ZERO, 20);
      assertThat(real.baseline().samples()).isEqualTo(20);
      assertThat(real.addedMeanMs()).isZero();
      assertThatThrownBy(() -> lab.rtt(Rtt.parse("20ms")))
          .hasMessageStartingWith("Cannot add 20ms: this Lab has no Toxiproxy (external ")
          .hasMessageEndingWith("Set latencylab.toxiproxy.url to add latency; without it the"
              + " latency is the real network's");
    }
  }

  @Test
  void keepsEveryParameterOfTheUsersUrlOnEveryConnectionOfTheLab() throws Exception {
    String db = users.createDatabase();
    String url = users.jdbcUrl(db) + "?ApplicationName=users-app"
        + "&options=-c%20statement_timeout%3D1234";
    // uncalibrated: the probe's connections are the point, not 3 s of calibrating first
    try (Lab lab = Lab.start(users.external(url, UsersDatabase.OWNER, UsersDatabase.PASSWORD,
        true).with(Setting.CALIBRATE, "false"))) {
      for (DataSource ds : new DataSource[] {lab.dataSource(), lab.directDataSource()}) {
        try (Connection c = ds.getConnection(); Statement st = c.createStatement();
            ResultSet rs = st.executeQuery("SELECT current_setting('application_name'),"
                + " current_setting('statement_timeout')")) {
          rs.next();
          assertThat(rs.getString(1) + " " + rs.getString(2)).isEqualTo("users-app 1234ms");
        }
      }
      lab.measure(Rtt.parse("1ms"), 4); // opens the probe's connections, through both proxies
      assertThat(users.query(db, "SELECT application_name, count(*) FROM pg_stat_activity"
          + " WHERE usename = '" + UsersDatabase.OWNER + "' GROUP BY 1"))
          .as("the Lab's own connections (its probe's, ...) carry the URL's parameters too")
          .singleElement().asString().startsWith("users-app | ");
    }
  }

  @Test
  void sslmodeRequireAgainstAServerWithoutSslFailsAsPsqlWould() throws Exception {
    String db = users.createDatabase();
    ToxiproxyClient api = users.toxiproxy();
    LabConfig config = users.external(users.jdbcUrl(db) + "?sslmode=require",
        UsersDatabase.OWNER, UsersDatabase.PASSWORD, true);

    assertThatThrownBy(() -> Lab.start(config).close())
        .hasMessageContaining("The server does not support SSL")
        .hasMessageNotContaining(UsersDatabase.PASSWORD);
    assertThat(latencyLabProxies(api)).as("proxies of a Lab that did not start").isEmpty();
  }

  @Test
  void aPasswordInTheUrlIsUsedAndShownNowhere() throws Exception {
    String db = users.createDatabase();
    LabConfig config = users.external(users.jdbcUrl(db) + "?password=" + UsersDatabase.PASSWORD
        + "&ApplicationName=users-app", UsersDatabase.OWNER, "", true);
    List<String> outputs = new ArrayList<>();
    try (LogCapture logs = LogCapture.start()) {
      try (Lab lab = Lab.start(config);
          Connection c = lab.dataSource().getConnection();
          Statement st = c.createStatement();
          ResultSet rs = st.executeQuery("SELECT current_user")) {
        rs.next();
        assertThat(rs.getString(1)).isEqualTo(UsersDatabase.OWNER);
        outputs.add(lab.describe());
        outputs.add(lab.jdbcUrl());
        outputs.add(lab.target().toString());
        outputs.add(lab.directDataSource().url());
      }
      outputs.add(config.toString());
      outputs.addAll(logs.lines());
    }
    assertThat(String.join("\n", outputs)).doesNotContain(UsersDatabase.PASSWORD)
        .contains("users-app");
  }

  @Test
  void aRoleWithoutCreateOnTheDatabaseIsToldWhichGrantItNeeds() throws Exception {
    String db = users.createDatabaseWithTheUsersTables();
    List<String> catalog = users.catalog(db);
    ToxiproxyClient api = users.toxiproxy();
    LabConfig reader = users.external(db, UsersDatabase.READER, true);

    assertThatThrownBy(() -> Lab.start(reader).close())
        .hasMessageContaining("GRANT CREATE ON DATABASE " + db + " TO " + UsersDatabase.READER);
    assertThat(latencyLabProxies(api)).isEmpty();
    assertThat(users.catalog(db)).isEqualTo(catalog);

    users.superuser(db, "GRANT CREATE ON DATABASE " + db + " TO " + UsersDatabase.READER);
    try (Lab lab = Lab.start(reader)) {
      assertThat(lab.schema()).isEqualTo(SCHEMA);
      assertThat(users.query(db, "SELECT pg_get_userbyid(nspowner) FROM pg_namespace"
          + " WHERE nspname = '" + SCHEMA + "'")).containsExactly(UsersDatabase.READER);
    }
    assertThat(users.catalog(db)).isEqualTo(catalog);
  }

  @Test
  void aSchemaOfThatNameThatLatencyLabDidNotCreateIsNeverTouched() throws Exception {
    String db = users.createDatabase();
    users.superuser(db, "CREATE SCHEMA " + SCHEMA + " AUTHORIZATION " + UsersDatabase.OWNER
        + "; CREATE TABLE " + SCHEMA + ".insert_target (note text);"
        + " INSERT INTO " + SCHEMA + ".insert_target VALUES ('the user''s')");
    List<String> catalog = users.catalog(db);

    assertThatThrownBy(() -> Lab.start(users.external(db, UsersDatabase.OWNER, true)).close())
        .hasMessageContaining("latency-lab did not create it")
        .hasMessageContaining("latencylab.schema");
    assertThat(users.catalog(db)).isEqualTo(catalog);
    assertThat(users.query(db, "SELECT * FROM " + SCHEMA + ".insert_target"))
        .containsExactly("the user's");
    assertThat(latencyLabProxies(users.toxiproxy())).isEmpty();
  }

  @Test
  void aSchemaInUseByAnotherRunIsRefusedAndALeftoverOfADeadRunIsReplaced() throws Exception {
    String db = users.createDatabaseWithTheUsersTables();
    List<String> catalog = users.catalog(db);
    LabConfig config = users.external(db, UsersDatabase.OWNER, false);

    Lab first = Lab.start(config);
    try (Connection c = first.dataSource().getConnection(); Statement st = c.createStatement()) {
      st.execute("CREATE TABLE insert_target (id int)");
    }
    assertThatThrownBy(() -> Lab.start(config).close())
        .hasMessageContaining("in use by another latency-lab run");

    // the first run's connections die (as when its JVM is killed): its schema stays behind
    users.superuser("postgres", "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE"
        + " usename = '" + UsersDatabase.OWNER + "' AND datname = '" + db + "'");
    first.close();
    assertThat(users.query(db, "SELECT count(*) FROM " + SCHEMA + ".insert_target"))
        .containsExactly("0");

    try (Lab next = Lab.start(config)) {
      assertThat(next.describe()).endsWith(", schema " + SCHEMA);
      assertThat(users.query(db, "SELECT count(*) FROM pg_tables WHERE schemaname = '" + SCHEMA
          + "'")).as("the next run dropped the leftover").containsExactly("0");
    }
    assertThat(users.catalog(db)).isEqualTo(catalog);
  }

  @Test
  void anObjectOfTheUsersThatDependsOnTheSchemaKeepsItInPlace() throws Exception {
    String db = users.createDatabase();
    List<String> catalog = users.catalog(db);
    LabConfig config = users.external(db, UsersDatabase.OWNER, false);
    List<String> lines;
    try (LogCapture logs = LogCapture.start()) {
      try (Lab lab = Lab.start(config);
          Connection c = lab.dataSource().getConnection();
          Statement st = c.createStatement()) {
        st.execute("CREATE TABLE book (id int PRIMARY KEY)");
        try (Connection own = users.connect(db, UsersDatabase.OWNER);
            Statement user = own.createStatement()) {
          user.execute("CREATE VIEW public.my_books AS SELECT id FROM " + SCHEMA + ".book");
        }
      }
      lines = logs.lines();
    }
    assertThat(users.query(db, "SELECT count(*) FROM public.my_books")).containsExactly("0");
    assertThat(lines).anySatisfy(line -> assertThat(line).startsWith("WARN")
        .contains("view my_books").contains("DROP SCHEMA " + SCHEMA + " CASCADE"));

    users.superuser(db, "DROP VIEW public.my_books");
    Lab.start(config).close(); // the next run drops the leftover
    assertThat(users.catalog(db)).isEqualTo(catalog);
  }

  @Test
  void closingDropsTheSchemaWhileAWorkloadStillHoldsATransactionOnIt() throws Exception {
    String db = users.createDatabase();
    List<String> catalog = users.catalog(db);
    Lab lab = Lab.start(users.external(db, UsersDatabase.OWNER, true));
    Connection left = lab.dataSource().getConnection(); // never closed, as after a crash
    try (Statement st = left.createStatement()) {
      st.execute("CREATE TABLE book (id int); BEGIN; LOCK TABLE book");
    }
    long start = System.nanoTime();
    lab.close();
    // a close stuck on the lock waits for good; a busy machine costs it a second at most
    assertThat((System.nanoTime() - start) / 1e9).as("seconds to close").isLessThan(10);
    assertThat(users.catalog(db)).isEqualTo(catalog);
  }

  @Test
  void aWorkloadCanTellALabsConnectionFromAnyOther() throws Exception {
    String db = users.createDatabase();
    try (Lab lab = Lab.start(users.external(db, UsersDatabase.OWNER, true))) {
      for (DataSource ds : new DataSource[] {lab.dataSource(), lab.directDataSource()}) {
        try (Connection c = ds.getConnection()) {
          Lab.requireLabSchema(c);
        }
      }
      try (Connection own = users.connect(db, UsersDatabase.OWNER)) {
        assertThatThrownBy(() -> Lab.requireLabSchema(own))
            .hasMessage("Refusing to create or drop tables on a connection whose search_path is"
                + " '\"$user\", public', not a schema latency-lab created: latency-lab works only"
                + " in its own schema. Use a Lab's data sources (their currentSchema is the Lab's"
                + " schema)");
        own.createStatement().execute("SET search_path = " + SCHEMA + ", public");
        assertThatThrownBy(() -> Lab.requireLabSchema(own)).as("not alone on the path")
            .hasMessageContaining("search_path is '" + SCHEMA + ", public'");
      }
    }
  }

  @Test
  void theUsersDatabaseIsAsAManagedServiceHasIt() throws Exception {
    String db = users.createDatabase();
    assertThat(users.query(db, "SELECT rolsuper, rolcreatedb, left(rolpassword, 14) FROM"
        + " pg_authid WHERE rolname = '" + UsersDatabase.OWNER + "'"))
        .containsExactly("f | f | SCRAM-SHA-256$");
    assertThatThrownBy(() -> java.sql.DriverManager.getConnection(users.jdbcUrl(db),
        UsersDatabase.OWNER, "wrong").close()).hasMessageContaining("password authentication");
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress("127.0.0.1",
          Integer.parseInt(users.toxiproxyUrl().replaceAll(".*:", ""))), 500);
    }
  }
}
