package io.github.latencylab.bench.nplusone;

import io.github.latencylab.bench.support.BenchLab;
import io.github.latencylab.bench.support.RttSuite;
import io.github.latencylab.bench.support.WireMetrics;
import io.github.latencylab.demo.Library;
import io.github.latencylab.demo.Listing;
import io.github.latencylab.demo.NPlusOneStrategy;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import org.hibernate.Session;
import org.hibernate.Transaction;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * Question: what does loading N parents with their lazy children cost at a given RTT, and
 * what does each fix buy?
 *
 * <p>Expected: the lazy loop makes N + 1 queries, so T grows as (N + 1) x L: 1,000 parents at
 * 20 ms is 20 s. A join fetch, an entity graph or a DTO projection make one; subselect two;
 * batch fetching 1 + ceil(N / size). At 0.5 ms the differences are small; at 320 ms they are
 * everything. Each operation is one read-only transaction on an open connection (as a pool
 * would give), through the Hibernate 7 domain of hibernate-demo with 10 children per parent;
 * round trips per operation include the COMMIT (BEGIN rides along with the first query).
 */
// Measured as RttSuite declares (average ms; the full profile's iterations; its @Param rtt),
// with this suite's own @Params below.
@State(Scope.Benchmark)
public class NPlusOneBenchmark extends RttSuite {

  static final int CHILDREN = 10;

  /** Parents listed per operation, each with {@value #CHILDREN} children. */
  @Param({"10", "100", "1000"})
  public int parents;

  private Library library;
  private Connection connection;

  @Setup(Level.Trial)
  public void setUp(BenchLab lab, BenchmarkParams params) throws SQLException {
    // only the SessionFactory the fork's strategy needs (Hibernate boots once)
    library = Library.create(lab.lab(), NPlusOneStrategy.of(method(params)).tuning())
        .seed(parents, CHILDREN);
    connection = lab.dataSource().getConnection();
    connection.setReadOnly(true); // pgjdbc then begins with BEGIN READ ONLY, no extra trip
  }

  private List<? extends Listing> run(NPlusOneStrategy strategy, WireMetrics metrics) {
    List<? extends Listing> result;
    try (Session session = library.openSession(strategy, connection)) {
      Transaction tx = session.beginTransaction();
      result = strategy.run(session, parents);
      tx.commit();
    }
    metrics.done(parents);
    return result;
  }

  /** The N+1: a query for the parents, then one per parent's lazy collection. */
  @Benchmark
  public List<? extends Listing> lazyLoop(WireMetrics metrics) {
    return run(NPlusOneStrategy.LAZY_LOOP, metrics);
  }

  /** left join fetch: one query, parent columns repeated per child. */
  @Benchmark
  public List<? extends Listing> joinFetch(WireMetrics metrics) {
    return run(NPlusOneStrategy.JOIN_FETCH, metrics);
  }

  /** A fetch graph: the same single query as the join fetch. */
  @Benchmark
  public List<? extends Listing> entityGraph(WireMetrics metrics) {
    return run(NPlusOneStrategy.ENTITY_GRAPH, metrics);
  }

  /** @BatchSize(16): 1 + ceil(N / 16) queries. */
  @Benchmark
  public List<? extends Listing> batchFetch16(WireMetrics metrics) {
    return run(NPlusOneStrategy.BATCH_FETCH_16, metrics);
  }

  /** @BatchSize(64): 1 + ceil(N / 64) queries. */
  @Benchmark
  public List<? extends Listing> batchFetch64(WireMetrics metrics) {
    return run(NPlusOneStrategy.BATCH_FETCH_64, metrics);
  }

  /** hibernate.default_batch_fetch_size=32: 1 + ceil(N / 32) queries. */
  @Benchmark
  public List<? extends Listing> batchFetchDefault(WireMetrics metrics) {
    return run(NPlusOneStrategy.BATCH_FETCH_DEFAULT, metrics);
  }

  /** @Fetch(SUBSELECT): the parents, then all their children in one query. */
  @Benchmark
  public List<? extends Listing> subselectFetch(WireMetrics metrics) {
    return run(NPlusOneStrategy.SUBSELECT_FETCH, metrics);
  }

  /** A DTO projection: one query, no entities. */
  @Benchmark
  public List<? extends Listing> dtoProjection(WireMetrics metrics) {
    return run(NPlusOneStrategy.DTO_PROJECTION, metrics);
  }

  /** N children each touching its lazy parent: N + 1 queries. */
  @Benchmark
  public List<? extends Listing> manyToOneLazyLoop(WireMetrics metrics) {
    return run(NPlusOneStrategy.MANY_TO_ONE_LAZY_LOOP, metrics);
  }

  /** join fetch of the parent: one query. */
  @Benchmark
  public List<? extends Listing> manyToOneJoinFetch(WireMetrics metrics) {
    return run(NPlusOneStrategy.MANY_TO_ONE_JOIN_FETCH, metrics);
  }

  @TearDown(Level.Trial)
  public void tearDown() throws SQLException {
    connection.close();
    library.close();
  }

  // How to run: ./latency-lab bench --include NPlusOne  (--profile full for 1,000 parents)
  //   or: java -jar jmh-benchmarks/target/benchmarks.jar NPlusOneBenchmark -p parents=100
}
