package io.github.latencylab.bench.support;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * What every suite declares alike, inherited as in jmh-samples' {@code JMHSample_24_Inheritance}:
 * how it is measured and the RTTs it sweeps. As declared this is what the full profile runs
 * ({@code ./latency-lab bench --profile full}); the quick and verify profiles, {@code --rtt}
 * and {@code --param} narrow the sweep and shorten the iterations ({@code Profile}). A suite
 * extends it, and declares its own sizes as {@code @Param}s beside the inherited {@link #rtt}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 1, time = 2)
@Measurement(iterations = 6, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@Fork(1)
@State(Scope.Benchmark)
public abstract class RttSuite {

  /** The added round-trip time; {@link BenchLab} sets the Lab to it. */
  @Param({"0.5ms", "1ms", "2ms", "5ms", "10ms", "20ms", "40ms", "80ms", "160ms", "320ms"})
  public String rtt;

  /** The benchmark method this fork runs ("lazyLoop"): a fork runs one. */
  public static String method(BenchmarkParams params) {
    String benchmark = params.getBenchmark();
    return benchmark.substring(benchmark.lastIndexOf('.') + 1);
  }
}
