package io.github.latencylab.bench.support;

import io.github.latencylab.env.Lab;
import io.github.latencylab.env.LabHandle;
import io.github.latencylab.latency.Rtt;
import io.github.latencylab.wire.WireCounter;
import io.github.latencylab.wire.WireDataSource;
import java.nio.file.Path;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * The Lab a benchmark fork works against, at the RTT of its suite's own {@code @Param rtt}.
 *
 * <p>Run by {@code ./latency-lab bench}, a fork attaches to the runner's Lab
 * ({@link Lab#attach}, the handle's path in {@code -Dlatencylab.lab.handle}): the runner has
 * set and measured the RTT once for every fork, and passes what it measured
 * ({@link MeasuredRtt}). Run with plain {@code java -jar benchmarks.jar}, each fork starts its
 * own Lab (settings from the environment) and sets and measures the RTT itself.
 */
@State(Scope.Benchmark)
public class BenchLab {

  private Lab lab;
  private MeasuredRtt rtt;

  @Setup(Level.Trial)
  public void start(BenchmarkParams params) {
    Rtt wanted = Rtt.parse(params.getParam("rtt"));
    String handle = System.getProperty(LabHandle.PROPERTY);
    if (handle != null) {
      rtt = MeasuredRtt.fromSystemProperties();
      if (rtt == null || !rtt.rtt().equals(wanted)) {
        throw new IllegalStateException("The runner set the RTT to "
            + (rtt == null ? "nothing it said" : rtt.rtt()) + " but this fork's rtt is "
            + wanted);
      }
      lab = Lab.attach(Path.of(handle));
    } else {
      lab = Lab.start();
      rtt = MeasuredRtt.of(lab.measure(wanted));
    }
  }

  public Lab lab() {
    return lab;
  }

  /** Connections through the proxy (they pay the RTT), counted on {@link #wire()}. */
  public WireDataSource dataSource() {
    return lab.dataSource();
  }

  /** Connections straight to PostgreSQL, for setup and checks; not on {@link #wire()}. */
  public WireDataSource directDataSource() {
    return lab.directDataSource();
  }

  public WireCounter wire() {
    return lab.wire();
  }

  /** The RTT setting and what it really adds, as the Lab's probe measured it. */
  public MeasuredRtt rtt() {
    return rtt;
  }

  @TearDown(Level.Trial)
  public void stop() {
    lab.close();
  }
}
