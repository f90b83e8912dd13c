package io.github.latencylab.env;

import eu.rekawek.toxiproxy.ToxiproxyClient;
import io.github.latencylab.env.backend.ToxiproxyServer;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A database as a user of the external backend has it, for tests: a PostgreSQL server that is
 * not a Lab's, a role that is not a superuser and owns its database ({@link #OWNER}), another
 * that may only connect ({@link #READER}), SCRAM passwords over TCP, and the user's own
 * toxiproxy-server. Each test takes a database of its own ({@link #createDatabase}).
 *
 * <pre>{@code
 * try (UsersDatabase users = UsersDatabase.start()) {
 *   String db = users.createDatabase();
 *   try (Lab lab = Lab.start(users.external(db, UsersDatabase.OWNER, true))) { ... }
 * }
 * }</pre>
 */
public final class UsersDatabase implements AutoCloseable {

  /** Owns the databases {@link #createDatabase} makes; not a superuser, no CREATEDB. */
  public static final String OWNER = "app_owner";
  /** May connect (PUBLIC's default), nothing more: no CREATE on the database. */
  public static final String READER = "app_reader";
  /** Both roles' password: distinctive, so that tests can look for it in every output. */
  public static final String PASSWORD = "scram-Pw-7f3c9e2a";

  private static final AtomicInteger DATABASES = new AtomicInteger();

  private final EmbeddedPostgres server;
  private final ToxiproxyServer toxiproxy;

  private UsersDatabase(EmbeddedPostgres server, ToxiproxyServer toxiproxy) {
    this.server = server;
    this.toxiproxy = toxiproxy;
  }

  public static UsersDatabase start() throws IOException, InterruptedException {
    // SCRAM for every role over TCP, as on a managed service; the fixture's superuser trusted
    EmbeddedPostgres server = EmbeddedPostgres.builder()
        .setDataDirectoryCustomizer(dir -> {
          try {
            Files.writeString(dir.toPath().resolve("pg_hba.conf"), String.join("\n",
                "local all all trust",
                "host all postgres 127.0.0.1/32 trust",
                "host all postgres ::1/128 trust",
                "host all all 127.0.0.1/32 scram-sha-256",
                "host all all ::1/128 scram-sha-256", ""));
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        })
        .start();
    ToxiproxyServer toxiproxy = null;
    try {
      toxiproxy = ToxiproxyServer.start(LabConfig.fromEnvironment());
      UsersDatabase users = new UsersDatabase(server, toxiproxy);
      users.superuser("postgres", "SET password_encryption = 'scram-sha-256';"
          + " CREATE ROLE " + OWNER + " LOGIN PASSWORD '" + PASSWORD + "';"
          + " CREATE ROLE " + READER + " LOGIN PASSWORD '" + PASSWORD + "'");
      return users;
    } catch (IOException | InterruptedException | RuntimeException e) {
      if (toxiproxy != null) {
        toxiproxy.close();
      }
      server.close();
      throw e;
    }
  }

  /** A new database owned by {@link #OWNER}, e.g. {@code app_3}. */
  public String createDatabase() {
    String name = "app_" + DATABASES.incrementAndGet();
    superuser("postgres", "CREATE DATABASE " + name + " OWNER " + OWNER);
    return name;
  }

  /**
   * A new database with tables of the user's named as the demo's ({@code public.book} and
   * {@code public.author}, of other shapes), a row each: what latency-lab must never touch.
   */
  public String createDatabaseWithTheUsersTables() throws SQLException {
    String db = createDatabase();
    try (Connection c = connect(db, OWNER); Statement st = c.createStatement()) {
      st.execute("CREATE TABLE book (isbn text PRIMARY KEY, note text);"
          + " INSERT INTO book VALUES ('978-0-00-000000-2', 'the user''s own row');"
          + " CREATE TABLE author (id int PRIMARY KEY, name text); INSERT INTO author VALUES (7,"
          + " 'the user''s author')");
    }
    return db;
  }

  /** The rows of the user's {@code public.book} and {@code public.author}. */
  public List<String> usersRows(String database) {
    List<String> rows = new ArrayList<>(query(database, "SELECT * FROM public.book"));
    rows.addAll(query(database, "SELECT * FROM public.author"));
    return rows;
  }

  /** The URL a user would give, e.g. {@code jdbc:postgresql://127.0.0.1:5432/app_1}. */
  public String jdbcUrl(String database) {
    return "jdbc:postgresql://127.0.0.1:" + server.getPort() + "/" + database;
  }

  /** The external backend's settings for {@code user} on {@code database}. */
  public LabConfig external(String database, String user, boolean behindToxiproxy) {
    return external(jdbcUrl(database), user, PASSWORD, behindToxiproxy);
  }

  public LabConfig external(String url, String user, String password, boolean behindToxiproxy) {
    LabConfig config = LabConfig.fromEnvironment()
        .withBackend(BackendKind.EXTERNAL)
        .with(Setting.JDBC_URL, url)
        .with(Setting.JDBC_USER, user)
        .with(Setting.JDBC_PASSWORD, password);
    return behindToxiproxy ? config.with(Setting.TOXIPROXY_URL, toxiproxyUrl()) : config;
  }

  public String toxiproxyUrl() {
    return "http://127.0.0.1:" + toxiproxy.port();
  }

  public ToxiproxyClient toxiproxy() {
    return new ToxiproxyClient("127.0.0.1", toxiproxy.port());
  }

  public boolean toxiproxyAlive() {
    return toxiproxy.isAlive();
  }

  /** A connection as {@code user} (SCRAM) to {@code database}. */
  public Connection connect(String database, String user) throws SQLException {
    return DriverManager.getConnection(jdbcUrl(database), user, PASSWORD);
  }

  /** Runs {@code sql} as the superuser on {@code database}. */
  public void superuser(String database, String sql) {
    try (Connection c = DriverManager.getConnection(jdbcUrl(database), "postgres", "");
        Statement st = c.createStatement()) {
      st.execute(sql);
    } catch (SQLException e) {
      throw new IllegalStateException(sql + ": " + e.getMessage(), e);
    }
  }

  /** The rows of a query as the superuser, each row's columns joined by " | ". */
  public List<String> query(String database, String sql) {
    try (Connection c = DriverManager.getConnection(jdbcUrl(database), "postgres", "");
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery(sql)) {
      List<String> rows = new ArrayList<>();
      int columns = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        StringBuilder row = new StringBuilder();
        for (int i = 1; i <= columns; i++) {
          row.append(i > 1 ? " | " : "").append(rs.getString(i));
        }
        rows.add(row.toString());
      }
      return rows;
    } catch (SQLException e) {
      throw new IllegalStateException(sql + ": " + e.getMessage(), e);
    }
  }

  /**
   * Every schema and every object in one, with its kind, owner and a digest of its definition
   * (outside PostgreSQL's own schemas): a database is untouched when this did not change.
   */
  public List<String> catalog(String database) {
    List<String> objects = new ArrayList<>(query(database, "SELECT 'schema ' || nspname || ' owner "
        + "' || pg_get_userbyid(nspowner) || ' acl ' || coalesce(nspacl::text, '-') FROM"
        + " pg_namespace WHERE nspname NOT LIKE 'pg\\_%' AND nspname <> 'information_schema'"
        + " ORDER BY 1"));
    objects.addAll(query(database, "SELECT n.nspname || '.' || c.relname || ' ' || c.relkind::text"
        + " || ' owner ' || pg_get_userbyid(c.relowner) || ' columns ' || coalesce((SELECT"
        + " string_agg(a.attname || ' ' || format_type(a.atttypid, a.atttypmod), ', ' ORDER BY"
        + " a.attnum) FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT"
        + " a.attisdropped), '-') FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
        + " WHERE n.nspname NOT LIKE 'pg\\_%' AND n.nspname <> 'information_schema' ORDER BY 1"));
    return objects;
  }

  @Override
  public void close() throws IOException {
    try {
      toxiproxy.close();
    } finally {
      server.close();
    }
  }
}
