package io.github.latencylab.bench.read;

import io.github.latencylab.bench.support.BenchLab;
import io.github.latencylab.bench.support.HibernateSetup;
import io.github.latencylab.bench.support.RttSuite;
import io.github.latencylab.bench.support.WireMetrics;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LongSummaryStatistics;
import java.util.stream.Stream;
import org.hibernate.ScrollMode;
import org.hibernate.ScrollableResults;
import org.hibernate.Session;
import org.hibernate.SessionFactory;
import org.hibernate.Transaction;
import org.hibernate.boot.model.naming.Identifier;
import org.hibernate.boot.model.naming.PhysicalNamingStrategyStandardImpl;
import org.hibernate.cfg.AvailableSettings;
import org.hibernate.engine.jdbc.env.spi.JdbcEnvironment;
import org.hibernate.query.Query;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Question: what does reading N rows cost at an added RTT, by how pgjdbc is told to fetch them
 * (directly, or through Hibernate)?
 *
 * <p>Expected: by default pgjdbc asks for every row at once: one round trip, but the whole
 * result in one reply, held in memory before the first row is returned, and on a long path a
 * reply of n bytes from a cold window takes about log2(n / 14.5 kB) RTTs more (the link). A
 * fetch size f in a transaction reads through a cursor: a round trip per f rows, each reply
 * small. In autocommit pgjdbc ignores the fetch size (a cursor needs a transaction): the same
 * one huge reply as the default, the cliff a setting seems to guard against. The
 * {@code defaultRowFetchSize} connection property is the fetch size for every statement.
 * Hibernate's {@code hibernate.jdbc.fetch_size=1000} is setFetchSize(1000) on every statement
 * it prepares: an entity query read with getResultStream() or scroll(FORWARD_ONLY) in a
 * transaction is the same cursor as fetchSize1000, the same round trips (BEGIN rides with the
 * first fetch, COMMIT is one of its own).
 * Field anchor: pgjdbc's tracker has 200,000 rows read in 50 s on a LAN and 20 minutes at
 * 50-100 ms (a small fetch size: a round trip per few rows). {@code window}: cold restarts
 * every connection's window before each operation (a pooled connection idle for a few RTOs, or
 * a new one), warm leaves the window as the loop grew it.
 */
@State(Scope.Benchmark)
public class ReadBenchmark extends RttSuite {

  /** Rows read per operation. */
  @Param({"1000", "10000", "100000", "1000000"})
  public int rows;

  /** narrow: 4 columns, ~45 bytes a row on the wire; wide: 12 columns, ~330 bytes. */
  @Param({"narrow", "wide"})
  public String width;

  /** cold: every window restarted before each operation; warm: as the loop left it. */
  @Param({"cold", "warm"})
  public String window;

  private BenchLab lab;
  private String table;
  private String select;
  private Connection connection;
  private Connection fetchSizeByDefault;

  @Setup(Level.Trial)
  public void setUp(BenchLab benchLab) throws SQLException {
    lab = benchLab;
    table = ReadRows.create(lab.directDataSource(), width, rows);
    select = "SELECT * FROM " + table;
    connection = lab.dataSource().getConnection();
    fetchSizeByDefault = lab.dataSource().withProperty("defaultRowFetchSize", "1000")
        .getConnection();
  }

  @Setup(Level.Invocation)
  public void restartWindows() {
    if (window.equals("cold")) {
      lab.lab().restartWindows();
    }
  }

  /**
   * The Hibernate methods' sessions, with {@code hibernate.jdbc.fetch_size=1000}, on the suite's
   * own connection: their cells differ from fetchSize1000's by Hibernate alone (a pool would
   * also check a connection idle for 500 ms with a round trip). Booted only in their forks.
   */
  @State(Scope.Benchmark)
  public static class HibernateSessions {

    private SessionFactory factory;
    private Connection connection;
    private Class<? extends ReadRow> entity;

    @Setup(Level.Trial)
    public void boot(ReadBenchmark suite) {
      connection = suite.connection;
      entity = suite.width.equals("narrow") ? NarrowRow.class : WideRow.class;
      String table = suite.table;
      factory = HibernateSetup.configuration(suite.lab.dataSource(), entity)
          .setProperty(AvailableSettings.STATEMENT_FETCH_SIZE, "1000")
          // the one entity mapped, on the table of this fork's size
          .setPhysicalNamingStrategy(new PhysicalNamingStrategyStandardImpl() {
            @Override
            public Identifier toPhysicalTableName(Identifier logical, JdbcEnvironment jdbc) {
              return Identifier.toIdentifier(table);
            }
          })
          .buildSessionFactory();
    }

    /** A session on the suite's connection, as a pool would lend it; it does not close it. */
    Session open() {
      return factory.withOptions().connection(connection).openSession();
    }

    // every column of every row, as entities; each is detached once read, as a long read must
    // (or the session keeps them all)
    Query<? extends ReadRow> everyRow(Session session) {
      return session.createQuery("from " + entity.getSimpleName(), entity);
    }

    @TearDown(Level.Trial)
    public void close() {
      factory.close();
    }
  }

  /** No fetch size: one round trip, every row in one reply. */
  @Benchmark
  public long defaultFetch(WireMetrics metrics) throws SQLException {
    connection.setAutoCommit(true);
    return read(connection, 0, metrics);
  }

  /** setFetchSize(100) in a transaction: a cursor, a round trip per 100 rows. */
  @Benchmark
  public long fetchSize100(WireMetrics metrics) throws SQLException {
    return inTransaction(connection, 100, metrics);
  }

  /** setFetchSize(1000) in a transaction: a round trip per 1,000 rows. */
  @Benchmark
  public long fetchSize1000(WireMetrics metrics) throws SQLException {
    return inTransaction(connection, 1000, metrics);
  }

  /** setFetchSize(10000) in a transaction: a round trip per 10,000 rows. */
  @Benchmark
  public long fetchSize10000(WireMetrics metrics) throws SQLException {
    return inTransaction(connection, 10_000, metrics);
  }

  /** setFetchSize(1000) in autocommit: ignored, every row in one reply (the cliff). */
  @Benchmark
  public long fetchSizeIgnoredInAutocommit(WireMetrics metrics) throws SQLException {
    connection.setAutoCommit(true);
    return read(connection, 1000, metrics);
  }

  /** defaultRowFetchSize=1000 on the connection, in a transaction: as fetchSize1000. */
  @Benchmark
  public long defaultRowFetchSize(WireMetrics metrics) throws SQLException {
    fetchSizeByDefault.setAutoCommit(false);
    long sum = read(fetchSizeByDefault, -1, metrics);
    fetchSizeByDefault.commit();
    return sum;
  }

  /** fetch_size=1000, getResultStream() in a transaction: a cursor, a round trip per 1,000 rows. */
  @Benchmark
  public long hibernateStream(HibernateSessions hibernate, WireMetrics metrics) {
    LongSummaryStatistics ids;
    try (Session session = hibernate.open()) {
      Transaction tx = session.beginTransaction();
      try (Stream<? extends ReadRow> stream = hibernate.everyRow(session).getResultStream()) {
        ids = stream.mapToLong(row -> {
          session.detach(row);
          return row.id();
        }).summaryStatistics();
      }
      tx.commit();
    }
    return counted(ids.getSum(), ids.getCount(), metrics);
  }

  /** fetch_size=1000, scroll(FORWARD_ONLY) in a transaction: a round trip per 1,000 rows. */
  @Benchmark
  public long hibernateScroll(HibernateSessions hibernate, WireMetrics metrics) {
    long sum = 0;
    int read = 0;
    try (Session session = hibernate.open()) {
      Transaction tx = session.beginTransaction();
      try (ScrollableResults<? extends ReadRow> scroll = hibernate.everyRow(session)
          .scroll(ScrollMode.FORWARD_ONLY)) {
        while (scroll.next()) {
          ReadRow row = scroll.get();
          sum += row.id();
          session.detach(row);
          read++;
        }
      }
      tx.commit();
    }
    return counted(sum, read, metrics);
  }

  private long inTransaction(Connection c, int fetchSize, WireMetrics metrics)
      throws SQLException {
    c.setAutoCommit(false);
    long sum = read(c, fetchSize, metrics);
    c.commit();
    return sum;
  }

  // fetchSize -1: the connection's default; every column is read, the ids summed
  private long read(Connection c, int fetchSize, WireMetrics metrics) throws SQLException {
    long sum = 0;
    int read = 0;
    try (Statement st = c.createStatement()) {
      if (fetchSize >= 0) {
        st.setFetchSize(fetchSize);
      }
      try (ResultSet rs = st.executeQuery(select)) {
        int columns = rs.getMetaData().getColumnCount();
        while (rs.next()) {
          sum += rs.getLong(1);
          for (int i = 2; i <= columns; i++) {
            rs.getString(i);
          }
          read++;
        }
      }
    }
    return counted(sum, read, metrics);
  }

  // every row read, or the operation fails; then it is counted
  private long counted(long sum, long read, WireMetrics metrics) {
    if (read != rows) {
      throw new IllegalStateException("Read " + read + " rows, not " + rows);
    }
    metrics.done(read);
    return sum;
  }

  @TearDown(Level.Trial)
  public void tearDown() throws SQLException {
    connection.close();
    fetchSizeByDefault.close();
  }

  // How to run: ./latency-lab bench --include Read  (--profile full for the whole sweep)
  //   or: java -jar jmh-benchmarks/target/benchmarks.jar ReadBenchmark -p rows=10000 -p rtt=20ms
}
