package io.github.latencylab.bench.runner;

import java.time.Duration;
import org.openjdk.jmh.runner.BenchmarkListEntry;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/** JMH's forks and iterations for a cell: a profile's, or what its suite declares. */
record Iterations(int forks, int warmups, Duration warmupTime, int measurements,
    Duration measurementTime) {

  /** What the suite's annotations say, JMH's defaults where they say nothing. */
  static Iterations declared(BenchmarkListEntry e) {
    return new Iterations(e.getForks().orElse(5), e.getWarmupIterations().orElse(5),
        duration(e.getWarmupTime().orElse(TimeValue.seconds(10))),
        e.getMeasurementIterations().orElse(5),
        duration(e.getMeasurementTime().orElse(TimeValue.seconds(10))));
  }

  private static Duration duration(TimeValue t) {
    return Duration.ofNanos(t.getTimeUnit().toNanos(t.getTime()));
  }

  /** A cell's time when each operation takes {@code opMs}: at least one op per iteration. */
  double estimatedCellMs(double opMs) {
    double warming = Math.max(opMs, warmupTime.toMillis());
    double measuring = Math.max(opMs, measurementTime.toMillis());
    return forks * (warmups * warming + measurements * measuring);
  }

  /** The same forks and warm-up with {@code n} measurement iterations. */
  Iterations withMeasurements(int n) {
    return new Iterations(forks, warmups, warmupTime, n, measurementTime);
  }

  /**
   * With a second warm-up iteration where one operation, estimated at {@code opMs}, may fill
   * the first alone (over a tenth of it: a fork's first operation runs several times longer,
   * its connection's window still growing, e.g. 2.3 s where the next take 0.67 s), so that the
   * first measured iteration does not pay for the warm-up (one RTT more at 320 ms).
   */
  Iterations warmedFor(double opMs) {
    return warmups < 2 && opMs > warmupTime.toMillis() / 10.0
        ? new Iterations(forks, 2, warmupTime, measurements, measurementTime) : this;
  }

  void applyTo(ChainedOptionsBuilder options) {
    options.forks(forks)
        .warmupIterations(warmups)
        .warmupTime(TimeValue.milliseconds(warmupTime.toMillis()))
        .measurementIterations(measurements)
        .measurementTime(TimeValue.milliseconds(measurementTime.toMillis()));
  }
}
