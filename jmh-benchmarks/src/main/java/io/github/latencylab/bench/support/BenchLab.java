package io.github.latencylab.bench.support;

import io.github.latencylab.env.Lab;
import io.github.latencylab.latency.Rtt;
import io.github.latencylab.latency.RttMeasurement;
import io.github.latencylab.wire.CountingSocketFactory;
import io.github.latencylab.wire.WireCounter;
import io.github.latencylab.wire.WireDataSource;
import javax.sql.DataSource;
import org.postgresql.ds.PGSimpleDataSource;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The Lab a benchmark fork works against, with the added RTT as a JMH parameter.
 *
 * <p>Run by {@code ./latency-lab bench}, forks share the runner's Lab: the runner starts one
 * PostgreSQL + Toxiproxy, sets and calibrates each RTT once, and hands the forks its URLs
 * ({@link SharedLab}). Run with plain {@code java -jar benchmarks.jar}, each fork starts its
 * own Lab (settings from the environment) and sets the RTT itself.
 */
@State(Scope.Benchmark)
public class BenchLab {

  @Param({"0.5ms", "20ms"})
  public String rtt;

  private Lab ownLab;
  private WireDataSource proxied;
  private DataSource direct;
  private WireCounter wire;
  private double addedRttMs;
  private double baselineRttMs;

  @Setup(Level.Trial)
  public void start() {
    SharedLab shared = SharedLab.fromSystemProperties();
    if (shared != null) {
      String counter = "bench-" + ProcessHandle.current().pid();
      wire = new WireCounter();
      CountingSocketFactory.register(counter, wire);
      proxied = new WireDataSource(shared.proxiedUrl(), shared.user(), shared.password(),
          counter, wire);
      direct = plain(shared.directUrl(), shared.user(), shared.password());
      if (!shared.rtt().equals(Rtt.parse(rtt))) {
        throw new IllegalStateException("The runner set the RTT to " + shared.rtt()
            + " but this fork's rtt parameter is " + rtt);
      }
      addedRttMs = shared.addedRttMs();
      baselineRttMs = shared.baselineRttMs();
    } else {
      ownLab = Lab.start();
      Rtt target = Rtt.parse(rtt);
      RttMeasurement m = ownLab.measure(target, io.github.latencylab.latency.LatencyControl
          .samplesFor(target));
      proxied = ownLab.dataSource();
      direct = plain(ownLab.directTarget().jdbcUrl(), ownLab.directTarget().user(),
          ownLab.directTarget().password());
      wire = ownLab.wire();
      addedRttMs = m.addedMeanMs();
      baselineRttMs = m.baseline().meanMs();
    }
  }

  // setup and checks must not count on the benchmark's wire
  private static DataSource plain(String url, String user, String password) {
    PGSimpleDataSource ds = new PGSimpleDataSource();
    ds.setURL(url);
    ds.setUser(user);
    ds.setPassword(password);
    return ds;
  }

  /** Connections through the proxy (they pay the RTT), counted on {@link #wire()}. */
  public WireDataSource dataSource() {
    return proxied;
  }

  /** Connections straight to PostgreSQL, for setup and checks; not on {@link #wire()}. */
  public DataSource directDataSource() {
    return direct;
  }

  public WireCounter wire() {
    return wire;
  }

  /** What the RTT setting really adds, as measured by the Lab's probe. */
  public double addedRttMs() {
    return addedRttMs;
  }

  public double baselineRttMs() {
    return baselineRttMs;
  }

  @TearDown(Level.Trial)
  public void stop() {
    if (ownLab != null) {
      ownLab.close();
    }
  }
}
