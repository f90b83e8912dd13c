package io.github.latencylab.bench.insert;

import io.github.latencylab.batch.CopyLoader;
import io.github.latencylab.batch.MultiRowInsert;
import io.github.latencylab.batch.UnnestInsert;
import io.github.latencylab.bench.support.BenchLab;
import io.github.latencylab.bench.support.RttSuite;
import io.github.latencylab.bench.support.WireMetrics;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Question: how should an application insert N rows when every round trip costs L?
 *
 * <p>Expected: row by row pays a round trip per row (N x L, plus a commit each in autocommit);
 * executeBatch pays one per 255 statements (pgjdbc's flush rule) and one for the commit;
 * reWriteBatchedInserts a handful; the helpers no more than the protocol needs: multi-row
 * VALUES and unnest one per statement (a load of one statement, up to 1,000 and 10,000 rows,
 * is one round trip: alone in autocommit it is atomic by itself), COPY two whatever N, CSV or
 * binary. At 0.5 ms the server's work shows; at 320 ms only round trips matter (field figure:
 * batch ~120x faster than row by row). Each operation inserts {@code rows} rows into an empty
 * table, all or nothing (the JDBC strategies in a transaction unless they say otherwise, the
 * helpers as they promise), and the table is emptied between operations (outside the
 * measured time).
 */
// Measured as RttSuite declares (average ms; the full profile's iterations; its @Param rtt),
// with this suite's own @Params below.
@State(Scope.Benchmark)
public class InsertBenchmark extends RttSuite {

  /** Rows inserted per operation. */
  @Param({"100", "1000", "10000", "100000", "1000000"})
  public int rows;

  private InsertRows data;
  private List<Object[]> values;
  private MultiRowInsert multiRow;
  private UnnestInsert unnest;
  private CopyLoader copyCsv;
  private CopyLoader copyBinary;
  private BenchLab lab;
  private Connection connection;
  private Connection rewriting;

  static final String INSERT = "INSERT INTO " + InsertRows.TABLE
      + " (id, name, amount, created_at) VALUES (?, ?, ?, ?)";

  @Setup(Level.Trial)
  public void setUp(BenchLab benchLab) throws SQLException {
    lab = benchLab;
    data = InsertRows.generate(rows);
    values = data.rows().stream()
        .map(r -> new Object[] {r.id(), r.name(), r.amount(), r.createdAt()})
        .toList();
    multiRow = MultiRowInsert.into(InsertRows.TABLE)
        .column("id", MultiRowInsert.PgType.INT8).column("name", MultiRowInsert.PgType.TEXT)
        .column("amount", MultiRowInsert.PgType.NUMERIC)
        .column("created_at", MultiRowInsert.PgType.TIMESTAMPTZ);
    unnest = UnnestInsert.into(InsertRows.TABLE)
        .column("id", UnnestInsert.PgType.INT8).column("name", UnnestInsert.PgType.TEXT)
        .column("amount", UnnestInsert.PgType.NUMERIC)
        .column("created_at", UnnestInsert.PgType.TIMESTAMPTZ);
    copyCsv = CopyLoader.into(InsertRows.TABLE)
        .column("id", CopyLoader.PgType.INT8).column("name", CopyLoader.PgType.TEXT)
        .column("amount", CopyLoader.PgType.NUMERIC)
        .column("created_at", CopyLoader.PgType.TIMESTAMPTZ)
        .format(CopyLoader.Format.CSV);
    copyBinary = copyCsv.format(CopyLoader.Format.BINARY);
    InsertRows.createTable(lab.directDataSource());
    connection = lab.dataSource().getConnection();
    rewriting = lab.dataSource().withProperty("reWriteBatchedInserts", "true").getConnection();
  }

  @Setup(Level.Invocation)
  public void emptyTable() throws SQLException {
    InsertRows.truncate(lab.directDataSource());
  }

  /** One INSERT and one commit per row: 2 round trips a row. */
  @Benchmark
  public void executeEach(WireMetrics metrics) throws SQLException {
    connection.setAutoCommit(true);
    try (PreparedStatement ps = connection.prepareStatement(INSERT)) {
      for (InsertRows.Row row : data.rows()) {
        bind(ps, row);
        ps.executeUpdate();
      }
    }
    metrics.done(rows);
  }

  /** One INSERT per row in one transaction: a round trip a row, one commit. */
  @Benchmark
  public void executeEachInTransaction(WireMetrics metrics) throws SQLException {
    connection.setAutoCommit(false);
    try (PreparedStatement ps = connection.prepareStatement(INSERT)) {
      for (InsertRows.Row row : data.rows()) {
        bind(ps, row);
        ps.executeUpdate();
      }
    }
    connection.commit();
    metrics.done(rows);
  }

  /** addBatch per row, executeBatch once: pgjdbc syncs every 255 statements. */
  @Benchmark
  public void executeBatch(WireMetrics metrics) throws SQLException {
    batch(connection);
    metrics.done(rows);
  }

  /** The same batch with reWriteBatchedInserts=true: multi-row INSERTs of up to 512 rows. */
  @Benchmark
  public void executeBatchRewritten(WireMetrics metrics) throws SQLException {
    batch(rewriting);
    metrics.done(rows);
  }

  /** MultiRowInsert: INSERT ... VALUES (...), (...), 1,000 rows a statement by default. */
  @Benchmark
  public void multiRowValues(WireMetrics metrics) throws SQLException {
    metrics.done(multiRow.load(connection, values));
  }

  /** UnnestInsert: INSERT ... SELECT * FROM unnest(?::int8[], ...), one array per column. */
  @Benchmark
  public void unnestArrays(WireMetrics metrics) throws SQLException {
    metrics.done(unnest.load(connection, values));
  }

  /** CopyLoader in CSV: COPY ... FROM STDIN, rows streamed in 64 kB writes. */
  @Benchmark
  public void copyCsv(WireMetrics metrics) throws SQLException {
    metrics.done(copyCsv.load(connection, values));
  }

  /** CopyLoader in PostgreSQL's binary format. */
  @Benchmark
  public void copyBinary(WireMetrics metrics) throws SQLException {
    metrics.done(copyBinary.load(connection, values));
  }

  private void batch(Connection c) throws SQLException {
    c.setAutoCommit(false);
    try (PreparedStatement ps = c.prepareStatement(INSERT)) {
      for (InsertRows.Row row : data.rows()) {
        bind(ps, row);
        ps.addBatch();
      }
      ps.executeBatch();
    }
    c.commit();
  }

  private static void bind(PreparedStatement ps, InsertRows.Row row) throws SQLException {
    ps.setLong(1, row.id());
    ps.setString(2, row.name());
    ps.setBigDecimal(3, row.amount());
    ps.setObject(4, row.createdAt());
  }

  @TearDown(Level.Trial)
  public void tearDown() throws SQLException {
    long count = InsertRows.count(lab.directDataSource());
    connection.close();
    rewriting.close();
    if (count != rows) {
      throw new IllegalStateException("The last operation left " + count + " rows, not " + rows);
    }
  }

  // How to run: ./latency-lab bench --include Insert  (--profile full for the whole sweep)
  //   or: java -jar jmh-benchmarks/target/benchmarks.jar InsertBenchmark -p rows=1000 -p rtt=20ms
}
