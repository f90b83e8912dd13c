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
 * Question: does the gate catch a regression of a known size? The canary is the gate's own
 * test subject: one round trip and a fixed amount of client work per operation, both of which a
 * campaign can make worse without touching any other code.
 *
 * <p>Expected: about {@link #WORK} rounds of a xorshift (~5 ms of one core) plus one round trip.
 * {@code LATENCYLAB_CANARY_SLOWDOWN=1.2} in the environment makes the work 20% more (the time
 * off the wire, T0, about 20% slower); {@code LATENCYLAB_CANARY_EXTRA_ROUND_TRIPS=1} adds a
 * round trip; {@code LATENCYLAB_CANARY_EXTRA_ROWS=9} makes its select return 9 rows more (the
 * same round trip and statement: work the gate counts). Only the verify profile runs it (the gate's cells); its numbers mean nothing
 * beyond the gate.
 */
// Measured as RttSuite declares (average ms; the full profile's iterations; its @Param rtt).
@State(Scope.Benchmark)
public class CanaryBenchmark extends RttSuite {

  /** Rounds of client work per operation: about 5 ms here, well above the gate's 2 ms floor. */
  static final long WORK = 2_000_000;

  private Connection connection;
  private PreparedStatement select;
  private long work;
  private int extraRoundTrips;
  private long state = 0x9E3779B97F4A7C15L;

  @Setup(Level.Trial)
  public void connect(BenchLab lab) throws SQLException {
    connection = lab.dataSource().getConnection();
    long extraRows = (long) setting("LATENCYLAB_CANARY_EXTRA_ROWS", 0, 0);
    select = connection.prepareStatement(extraRows == 0 ? "SELECT 1"
        : "SELECT g FROM generate_series(1, " + (1 + extraRows) + ") g");
    work = Math.round(WORK * setting("LATENCYLAB_CANARY_SLOWDOWN", 1, 1));
    extraRoundTrips = (int) setting("LATENCYLAB_CANARY_EXTRA_ROUND_TRIPS", 0, 0);
  }

  /** One SELECT 1 (plus the seeded ones) and the work: one round trip, ~5 ms of CPU. */
  @Benchmark
  public long selectOneAndWork(WireMetrics metrics) throws SQLException {
    long x = state;
    for (long i = 0; i < work; i++) {
      x ^= x << 13;
      x ^= x >>> 7;
      x ^= x << 17;
    }
    state = x;
    for (int i = 0; i <= extraRoundTrips; i++) {
      try (ResultSet rs = select.executeQuery()) {
        while (rs.next()) {
          x += rs.getInt(1);
        }
      }
    }
    metrics.done(1);
    return x;
  }

  @TearDown(Level.Trial)
  public void disconnect() throws SQLException {
    connection.close();
  }

  /** A number from the environment, at least {@code min}; a bad one fails the fork by name. */
  private static double setting(String name, double defaultValue, double min) {
    String value = System.getenv(name);
    if (value == null || value.isBlank()) {
      return defaultValue;
    }
    try {
      double v = Double.parseDouble(value.trim());
      if (v >= min && Double.isFinite(v)) {
        return v;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException("Invalid " + name + "='" + value + "': expected a"
        + " number of at least " + (long) min);
  }

  // How to run: ./latency-lab bench --profile verify --include Canary
  //   or: LATENCYLAB_CANARY_SLOWDOWN=1.5 ./latency-lab bench --profile verify --include Canary
  //       --baseline src/latency-baseline.json
}
