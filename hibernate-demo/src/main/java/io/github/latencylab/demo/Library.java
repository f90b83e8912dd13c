package io.github.latencylab.demo;

import io.github.latencylab.env.Lab;
import io.github.latencylab.wire.WireCounter;
import io.github.latencylab.wire.WireStats;
import java.io.StringReader;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import javax.sql.DataSource;
import org.hibernate.Session;
import org.hibernate.SessionFactory;
import org.hibernate.Transaction;
import org.hibernate.boot.MetadataSources;
import org.hibernate.boot.registry.StandardServiceRegistry;
import org.hibernate.boot.registry.StandardServiceRegistryBuilder;
import org.hibernate.cfg.AvailableSettings;
import org.postgresql.PGConnection;

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

  /** The SessionFactories a strategy can need. */
  public enum Tuning {
    /** The mapping's annotations only: lazy associations load one at a time. */
    MAPPED,
    /** Also {@code hibernate.default_batch_fetch_size=}{@value #DEFAULT_BATCH_FETCH_SIZE}. */
    DEFAULT_BATCH_FETCH
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
        library.factories.put(tuning, buildSessionFactory(lab.dataSource(), tuning));
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
        .applySetting(AvailableSettings.JAKARTA_NON_JTA_DATASOURCE, dataSource)
        .applySetting(AvailableSettings.HBM2DDL_AUTO, "none")
        // writes, should a caller persist: sequence ids by 50, inserts batched by 50
        .applySetting(AvailableSettings.STATEMENT_BATCH_SIZE, 50)
        .applySetting(AvailableSettings.ORDER_INSERTS, true);
    if (tuning == Tuning.DEFAULT_BATCH_FETCH) {
      settings.applySetting(AvailableSettings.DEFAULT_BATCH_FETCH_SIZE, DEFAULT_BATCH_FETCH_SIZE);
    }
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
   * Runs {@code strategy} for {@code n} in a read-only transaction on {@code connection} (from
   * the Lab's {@link Lab#dataSource()}), counted on that connection's wire counter.
   */
  public StrategyRun run(NPlusOneStrategy strategy, Connection connection, int n) {
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

  @Override
  public void close() {
    for (SessionFactory factory : factories.values()) {
      factory.close();
    }
    factories.clear();
    closed = true;
  }
}
