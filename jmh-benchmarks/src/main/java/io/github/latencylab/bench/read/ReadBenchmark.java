package io.github.latencylab.bench.read;

import io.github.latencylab.bench.support.BenchLab;
import io.github.latencylab.bench.support.RttSuite;
import io.github.latencylab.bench.support.WireMetrics;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Question: what does reading N rows cost at an added RTT, by how pgjdbc is told to fetch them?
 *
 * <p>Expected: by default pgjdbc asks for every row at once: one round trip, but the whole
 * result in one reply, held in memory before the first row is returned, and on a long path a
 * reply of n bytes from a cold window takes about log2(n / 14.5 kB) RTTs more (the link). A
 * fetch size f in a transaction reads through a cursor: a round trip per f rows, each reply
 * small. In autocommit pgjdbc ignores the fetch size (a cursor needs a transaction): the same
 * one huge reply as the default, the cliff a setting seems to guard against. The
 * {@code defaultRowFetchSize} connection property is the fetch size for every statement.
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
  private String select;
  private Connection connection;
  private Connection fetchSizeByDefault;

  @Setup(Level.Trial)
  public void setUp(BenchLab benchLab) throws SQLException {
    lab = benchLab;
    select = "SELECT * FROM " + ReadRows.create(lab.directDataSource(), width, rows);
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
