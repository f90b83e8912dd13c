package io.github.latencylab.bench;

import io.github.latencylab.bench.support.BenchLab;
import io.github.latencylab.bench.support.RttSuite;
import io.github.latencylab.bench.support.WireMetrics;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Question: what does one JDBC round trip cost at a given added RTT?
 *
 * <p>Expected: about the baseline round trip through the proxy (~0.1-0.4 ms on loopback) plus
 * the RTT: the server's work for {@code SELECT 1} is microseconds. Every other suite's model,
 * T(L) = T(0) + roundTrips x L, starts from this one. Secondary results: 1 round trip and
 * 1 statement per operation.
 */
// Measured as RttSuite declares (average ms; the full profile's iterations; its @Param rtt).
@State(Scope.Benchmark)
public class RoundTripBenchmark extends RttSuite {

  private Connection connection;
  private PreparedStatement select;

  @Setup(Level.Trial)
  public void connect(BenchLab lab) throws SQLException {
    connection = lab.dataSource().getConnection();
    select = connection.prepareStatement("SELECT 1");
  }

  /** One prepared SELECT 1: one round trip. */
  @Benchmark
  public int selectOne(WireMetrics metrics) throws SQLException {
    try (ResultSet rs = select.executeQuery()) {
      rs.next();
      metrics.done(1);
      return rs.getInt(1);
    }
  }

  @TearDown(Level.Trial)
  public void disconnect() throws SQLException {
    connection.close();
  }

  // How to run: ./latency-lab bench --include RoundTrip
  //   or: java -jar jmh-benchmarks/target/benchmarks.jar RoundTripBenchmark -p rtt=5ms
}
