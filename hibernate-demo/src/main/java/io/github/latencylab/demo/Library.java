package io.github.latencylab.demo;

import static io.github.latencylab.demo.ReactiveConnections.await;

import io.github.latencylab.demo.NPlusOneStrategy.Query;
import io.github.latencylab.env.Lab;
import io.github.latencylab.env.PostgresTarget;
import io.github.latencylab.wire.WireCounter;
import io.github.latencylab.wire.WireStats;
import io.r2dbc.postgresql.api.PostgresTransactionDefinition;
import io.r2dbc.postgresql.api.PostgresqlConnection;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgConnection;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.function.Supplier;
import javax.sql.DataSource;
import org.hibernate.Session;
import org.hibernate.SessionFactory;
import org.hibernate.Transaction;
import org.hibernate.boot.MetadataSources;
import org.hibernate.boot.registry.StandardServiceRegistry;
import org.hibernate.boot.registry.StandardServiceRegistryBuilder;
import org.hibernate.cfg.AvailableSettings;
import org.hibernate.reactive.mutiny.Mutiny;
import org.hibernate.reactive.provider.ReactiveServiceRegistryBuilder;
import org.postgresql.PGConnection;
import reactor.core.publisher.Mono;

/**
 * The demo's database on a {@link Lab}: the schema, a fast seeder, and Hibernate bootstrapped
 * programmatically on the Lab's counted {@link Lab#dataSource()} (no persistence.xml).
 *
 * <pre>{@code
 * try (Library library = Library.create(lab)) {
 *   library.seed(100, 10);                        // COPY, straight to PostgreSQL
 *   try (Connection c = lab.dataSource().getConnection()) {
 *     StrategyRun run = library.run(NPlusOneStrategy.LAZY_LOOP, c, 100);
 *     run.statements(); // 101
 *   }
 * }
 * }</pre>
 *
 * <p>Two SessionFactories ({@link Tuning}): the mapping as annotated, and the same mapping with
 * {@code hibernate.default_batch_fetch_size}, a global setting. Those asked for are built at
 * once, so build the Library before adding latency: Hibernate reads the JDBC metadata at boot.
 * Sessions run on a connection the caller opens and keeps (as a pool would), so that
 * connecting is never part of a measurement and the connection's own counter
 * ({@code lab.wire(connection)}) sees exactly what a strategy does.
 */
public final class Library implements AutoCloseable {

  /** {@code hibernate.default_batch_fetch_size} of {@link Tuning#DEFAULT_BATCH_FETCH}. */
  public static final int DEFAULT_BATCH_FETCH_SIZE = 32;

  /** The SessionFactories, or the connection, a strategy can need. */
  public enum Tuning {
    /** The mapping's annotations only: lazy associations load one at a time. */
    MAPPED,
    /** Also {@code hibernate.default_batch_fetch_size=}{@value #DEFAULT_BATCH_FETCH_SIZE}. */
    DEFAULT_BATCH_FETCH,
    /**
     * Hibernate Reactive on the Vert.x PostgreSQL client, the mapping's annotations only, a
     * pool of one connection through the Lab's relay ({@link Lab#relayedTarget()}).
     */
    REACTIVE,
    /** One R2DBC connection (r2dbc-postgresql) through the Lab's relay. */
    R2DBC,
    /**
     * One Vert.x PostgreSQL connection through the Lab's relay: its default pipelining limit
     * (256), prepared statements cached.
     */
    VERTX
  }

  // in the Lab's schema (checked first): these DROPs can only find the demo's own tables
  private static final String[] SCHEMA = {
      "DROP TABLE IF EXISTS book",
      "DROP TABLE IF EXISTS author",
      "DROP SEQUENCE IF EXISTS book_seq",
      "DROP SEQUENCE IF EXISTS author_seq",
      // allocationSize 50: Hibernate's pooled optimizer takes 50 ids per nextval
      "CREATE SEQUENCE author_seq START WITH 1 INCREMENT BY 50",
      "CREATE SEQUENCE book_seq START WITH 1 INCREMENT BY 50",
      "CREATE TABLE author (id bigint PRIMARY KEY, name varchar(255) NOT NULL)",
      "CREATE TABLE book (id bigint PRIMARY KEY, title varchar(255) NOT NULL,"
          + " published integer NOT NULL, author_id bigint NOT NULL REFERENCES author (id))",
      "CREATE INDEX book_author_id_idx ON book (author_id)",
  };

  private final Lab lab;
  private final DataSource direct;
  private final Map<Tuning, SessionFactory> factories = new EnumMap<>(Tuning.class);
  private PostgresqlConnection r2dbc;
  private Vertx vertx;
  private PgConnection vertxConnection;
  private boolean closed;
  private int authors;
  private int booksPerAuthor;

  private Library(Lab lab, DataSource direct) {
    this.lab = lab;
    this.direct = direct;
  }

  /**
   * Creates the demo's tables in the Lab's schema (dropping them there if they exist) and
   * builds the SessionFactories on the Lab's {@link Lab#dataSource()}; setup and seeding go
   * through its direct data source. The database is empty until {@link #seed}.
   */
  public static Library create(Lab lab) {
    return create(lab, Tuning.values());
  }

  /**
   * As {@link #create(Lab)}, with only the SessionFactories of {@code tunings}: Hibernate's
   * boot is most of the time this takes (a benchmark's fork runs one strategy).
   */
  public static Library create(Lab lab, Tuning... tunings) {
    Objects.requireNonNull(lab, "lab");
    DataSource direct = lab.directDataSource();
    try (Connection c = direct.getConnection();
        Statement st = c.createStatement()) {
      Lab.requireLabSchema(c);
      for (String ddl : SCHEMA) {
        st.execute(ddl);
      }
    } catch (SQLException e) {
      throw new IllegalStateException("Could not create the demo schema: " + e.getMessage(), e);
    }
    Library library = new Library(lab, direct);
    try {
      for (Tuning tuning : tunings) {
        switch (tuning) {
          case MAPPED, DEFAULT_BATCH_FETCH ->
              library.factories.put(tuning, buildSessionFactory(lab.dataSource(), tuning));
          case REACTIVE -> library.factories.put(tuning,
              buildReactiveSessionFactory(lab.relayedTarget()));
          case R2DBC -> library.r2dbc = ReactiveConnections.r2dbc(lab.relayedTarget(), "R2DBC");
          case VERTX -> {
            library.vertx = Vertx.vertx();
            library.vertxConnection = await(PgConnection.connect(library.vertx,
                ReactiveConnections.vertx(lab.relayedTarget(), "Vert.x")));
          }
        }
      }
    } catch (RuntimeException e) {
      library.close();
      throw e;
    }
    return library;
  }

  /** Hibernate ORM on {@code dataSource}: programmatic, quiet, no persistence.xml. */
  static SessionFactory buildSessionFactory(DataSource dataSource, Tuning tuning) {
    StandardServiceRegistryBuilder settings = new StandardServiceRegistryBuilder()
        .applySetting(AvailableSettings.JAKARTA_NON_JTA_DATASOURCE, dataSource);
    if (tuning == Tuning.DEFAULT_BATCH_FETCH) {
      settings.applySetting(AvailableSettings.DEFAULT_BATCH_FETCH_SIZE, DEFAULT_BATCH_FETCH_SIZE);
    }
    return buildSessionFactory(settings);
  }

  /**
   * Hibernate Reactive on {@code target}: the same mapping, a Vert.x pool of one connection
   * (kept open, as a pool's). Its tables are named with the target's schema: Hibernate
   * Reactive 3.2 on Vert.x 4.5 does not send a URL's {@code search_path} (tried).
   */
  static SessionFactory buildReactiveSessionFactory(PostgresTarget target) {
    StandardServiceRegistryBuilder settings = new ReactiveServiceRegistryBuilder()
        .applySetting(AvailableSettings.JAKARTA_JDBC_URL, "jdbc:postgresql://" + target.host()
            + ":" + target.port() + "/" + target.database())
        .applySetting(AvailableSettings.JAKARTA_JDBC_USER, target.user())
        .applySetting(AvailableSettings.JAKARTA_JDBC_PASSWORD, target.password())
        .applySetting(AvailableSettings.POOL_SIZE, 1);
    if (target.schema() != null) {
      settings.applySetting(AvailableSettings.DEFAULT_SCHEMA, target.schema());
    }
    return buildSessionFactory(settings);
  }

  private static SessionFactory buildSessionFactory(StandardServiceRegistryBuilder settings) {
    settings.applySetting(AvailableSettings.HBM2DDL_AUTO, "none")
        // writes, should a caller persist: sequence ids by 50, inserts batched by 50
        .applySetting(AvailableSettings.STATEMENT_BATCH_SIZE, 50)
        .applySetting(AvailableSettings.ORDER_INSERTS, true);
    StandardServiceRegistry registry = settings.build();
    try {
      return new MetadataSources(registry)
          .addAnnotatedClass(Author.class)
          .addAnnotatedClass(Book.class)
          .buildMetadata()
          .buildSessionFactory();
    } catch (RuntimeException e) {
      StandardServiceRegistryBuilder.destroy(registry);
      throw e;
    }
  }

  /**
   * "Hibernate Reactive 3.2.13.Final on the Vert.x PostgreSQL client 4.5.27, r2dbc-postgresql
   * 1.1.3.RELEASE": the reactive clients this build runs.
   */
  public static String reactiveClients() {
    Properties versions = new Properties();
    try (InputStream in = Library.class.getResourceAsStream("clients.properties")) {
      versions.load(Objects.requireNonNull(in, "clients.properties"));
    } catch (IOException e) {
      throw new UncheckedIOException("Could not read the clients' versions: " + e.getMessage(), e);
    }
    return "Hibernate Reactive " + versions.getProperty("hibernate-reactive")
        + " on the Vert.x PostgreSQL client " + versions.getProperty("vertx")
        + ", r2dbc-postgresql " + versions.getProperty("r2dbc-postgresql");
  }

  /**
   * Replaces the data with {@code authors} authors of {@code booksPerAuthor} books each, with
   * COPY on the Lab's direct data source (not through the proxy): two round trips per table.
   * Author ids are 1 to {@code authors}. Book ids go round-robin over the authors (book
   * {@code j * authors + a} is author {@code a}'s {@code j}-th), so the newest books, those
   * with the highest ids, each have a different author. The sequences continue above.
   */
  public Library seed(int authors, int booksPerAuthor) {
    if (authors < 0 || booksPerAuthor < 0) {
      throw new IllegalArgumentException("Cannot seed " + authors + " authors x "
          + booksPerAuthor + " books: both must be 0 or more");
    }
    StringBuilder authorRows = new StringBuilder(authors * 16);
    for (int a = 1; a <= authors; a++) {
      authorRows.append(a).append("\tAuthor ").append(a).append('\n');
    }
    StringBuilder bookRows = new StringBuilder(authors * booksPerAuthor * 40);
    for (int j = 0; j < booksPerAuthor; j++) {
      for (int a = 1; a <= authors; a++) {
        long id = (long) j * authors + a;
        bookRows.append(id).append("\tBook ").append(j + 1).append(" by Author ").append(a)
            .append('\t').append(1950 + (j * 7 + a) % 75).append('\t').append(a).append('\n');
      }
    }
    long books = (long) authors * booksPerAuthor;
    try (Connection c = direct.getConnection();
        Statement st = c.createStatement()) {
      c.setAutoCommit(false);
      st.execute("TRUNCATE book, author");
      var copy = c.unwrap(PGConnection.class).getCopyAPI();
      copy.copyIn("COPY author (id, name) FROM STDIN", new StringReader(authorRows.toString()));
      copy.copyIn("COPY book (id, title, published, author_id) FROM STDIN",
          new StringReader(bookRows.toString()));
      // is_called = true: the next nextval is max + 50, Hibernate's next pool starts above
      st.execute("SELECT setval('author_seq', " + Math.max(1, authors) + ")");
      st.execute("SELECT setval('book_seq', " + Math.max(1, books) + ")");
      c.commit();
      st.execute("ANALYZE author");
      st.execute("ANALYZE book");
    } catch (SQLException | java.io.IOException e) {
      throw new IllegalStateException("Could not seed " + authors + " authors x "
          + booksPerAuthor + " books: " + e.getMessage(), e);
    }
    this.authors = authors;
    this.booksPerAuthor = booksPerAuthor;
    return this;
  }

  /** Authors seeded by the last {@link #seed}. */
  public int authors() {
    return authors;
  }

  /** Books per author seeded by the last {@link #seed}. */
  public int booksPerAuthor() {
    return booksPerAuthor;
  }

  public Lab lab() {
    return lab;
  }

  public SessionFactory sessionFactory(Tuning tuning) {
    SessionFactory factory = factories.get(tuning);
    if (factory == null) {
      throw new IllegalStateException(closed ? "This Library is closed"
          : "This Library was created without the " + tuning + " SessionFactory");
    }
    return factory;
  }

  /**
   * A session on {@code connection} (which the session does not close) from the
   * SessionFactory {@code strategy} needs, with entities loaded read-only.
   */
  public Session openSession(NPlusOneStrategy strategy, Connection connection) {
    Session session = sessionFactory(strategy.tuning()).withOptions()
        .connection(connection)
        .openSession();
    session.setDefaultReadOnly(true);
    return session;
  }

  /**
   * Runs {@code strategy} for {@code n} in a read-only transaction, counted at the wire: a
   * Hibernate ORM strategy on {@code connection} (from the Lab's {@link Lab#dataSource()}),
   * counted on that connection's counter; a reactive one on its own connection through the
   * relay, counted on the Lab's {@link Lab#wire()} (so nothing else may use the Lab
   * meanwhile), {@code connection} unused.
   */
  public StrategyRun run(NPlusOneStrategy strategy, Connection connection, int n) {
    if (strategy.query() instanceof Query.Reactive reactive) {
      Mutiny.SessionFactory factory = sessionFactory(strategy.tuning())
          .unwrap(Mutiny.SessionFactory.class);
      return counted(strategy, n, () -> factory.withTransaction(session -> {
        session.setDefaultReadOnly(true);
        return reactive.run().apply(session, n).map(List::<Listing>copyOf);
      }).await().indefinitely());
    }
    if (strategy.query() instanceof Query.R2dbc query) {
      PostgresqlConnection c = connected(r2dbc, Tuning.R2DBC);
      return counted(strategy, n, () ->
          Mono.from(c.beginTransaction(PostgresTransactionDefinition.mutability(false)))
              .then(query.run().apply(c, n).map(List::<Listing>copyOf))
              .flatMap(result -> Mono.from(c.commitTransaction()).thenReturn(result))
              .onErrorResume(e -> Mono.from(c.rollbackTransaction()).then(Mono.error(e)))
              .block());
    }
    if (strategy.query() instanceof Query.Vertx query) {
      PgConnection c = connected(vertxConnection, Tuning.VERTX);
      return counted(strategy, n, () -> await(c.begin().compose(tx ->
          query.run().apply(c, n).map(List::<Listing>copyOf)
              .compose(result -> tx.commit().map(result),
                  e -> tx.rollback().compose(rolledBack -> Future.failedFuture(e))))));
    }
    WireCounter wire = lab.wire(connection);
    try {
      boolean wasReadOnly = connection.isReadOnly();
      connection.setReadOnly(true); // pgjdbc then begins with BEGIN READ ONLY, no extra trip
      try {
        WireStats before = wire.snapshot();
        long start = System.nanoTime();
        List<? extends Listing> result;
        try (Session session = openSession(strategy, connection)) {
          Transaction tx = session.beginTransaction();
          try {
            result = strategy.run(session, n);
            tx.commit();
          } catch (RuntimeException e) {
            if (tx.isActive()) {
              tx.rollback();
            }
            throw e;
          }
        }
        long nanos = System.nanoTime() - start;
        WireStats cost = wire.snapshot().minus(before);
        return new StrategyRun(strategy, n, result, cost, wire.sqlSince(before), nanos);
      } finally {
        connection.setReadOnly(wasReadOnly);
      }
    } catch (SQLException e) {
      throw new IllegalStateException("Could not run " + strategy.label() + ": "
          + e.getMessage(), e);
    }
  }

  private StrategyRun counted(NPlusOneStrategy strategy, int n,
      Supplier<List<? extends Listing>> run) {
    WireCounter wire = lab.wire();
    WireStats before = wire.snapshot();
    long start = System.nanoTime();
    List<? extends Listing> result = run.get();
    long nanos = System.nanoTime() - start;
    return new StrategyRun(strategy, n, result, wire.snapshot().minus(before),
        wire.sqlSince(before), nanos);
  }

  private <C> C connected(C connection, Tuning tuning) {
    if (connection == null) {
      throw new IllegalStateException(closed ? "This Library is closed"
          : "This Library was created without the " + tuning + " connection");
    }
    return connection;
  }

  @Override
  public void close() {
    for (SessionFactory factory : factories.values()) {
      factory.close();
    }
    factories.clear();
    if (r2dbc != null) {
      Mono.from(r2dbc.close()).block();
      r2dbc = null;
    }
    if (vertx != null) {
      await(vertx.close()); // its connection with it
      vertx = null;
      vertxConnection = null;
    }
    closed = true;
  }
}
