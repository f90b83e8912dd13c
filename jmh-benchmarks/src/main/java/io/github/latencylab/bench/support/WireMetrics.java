package io.github.latencylab.bench.support;

import io.github.latencylab.wire.WireStats;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.IterationParams;

/**
 * Secondary results of every latency-lab benchmark, per iteration: round trips and statements
 * per operation (counted at the socket), rows per second, and the RTT the Lab measured.
 * A benchmark calls {@link #done(long)} once per operation with the rows it wrote or read.
 *
 * <p>JMH adds up EVENTS counters over the measurement iterations, so each iteration reports
 * its share (value / iterations): the sum JMH prints is the mean over the iterations.
 */
@State(Scope.Thread)
@AuxCounters(AuxCounters.Type.EVENTS)
public class WireMetrics {

  public double roundTripsPerOp;
  public double statementsPerOp;
  public double rowsPerSecond;
  public double addedRttMs;
  public double baselineRttMs;

  private BenchLab lab;
  private WireStats start;
  private long startNanos;
  private long ops;
  private long rows;

  private int iterations;

  @Setup(Level.Iteration)
  public void begin(BenchLab benchLab, IterationParams params) {
    lab = benchLab;
    iterations = params.getCount();
    ops = 0;
    rows = 0;
    start = lab.wire().snapshot();
    startNanos = System.nanoTime();
  }

  /** One operation done, with the rows it moved. */
  public void done(long rowsMoved) {
    ops++;
    rows += rowsMoved;
  }

  @TearDown(Level.Iteration)
  public void end() {
    double seconds = (System.nanoTime() - startNanos) / 1e9;
    WireStats cost = lab.wire().snapshot().minus(start);
    roundTripsPerOp = share(ops == 0 ? 0 : (double) cost.roundTrips() / ops);
    statementsPerOp = share(ops == 0 ? 0 : (double) cost.statements() / ops);
    rowsPerSecond = share(seconds == 0 ? 0 : rows / seconds);
    addedRttMs = share(lab.rtt().addedMs());
    baselineRttMs = share(lab.rtt().baselineMs());
  }

  private double share(double value) {
    return value / iterations;
  }
}
