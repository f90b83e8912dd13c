package io.github.latencylab.bench.support;

import io.github.latencylab.latency.Rtt;
import io.github.latencylab.latency.RttMeasurement;
import java.util.List;

/**
 * An RTT setting with what the Lab measured it to add: what every cell at that setting
 * carries. The bench runner hands it to its forks as JVM arguments (nothing secret in them:
 * the Lab's credentials travel in its {@link io.github.latencylab.env.LabHandle} file).
 *
 * @param rtt the setting
 * @param addedMs what it really adds to a round trip, the mean of the Lab's probes
 * @param baselineMs a round trip through the proxy without toxics
 */
public record MeasuredRtt(Rtt rtt, double addedMs, double baselineMs) {

  private static final String PREFIX = "latencylab.bench.";

  public static MeasuredRtt of(RttMeasurement m) {
    return new MeasuredRtt(m.configured(), m.addedMeanMs(), m.baseline().meanMs());
  }

  /** What the runner passed to this fork, or null when no runner started it. */
  static MeasuredRtt fromSystemProperties() {
    String rtt = System.getProperty(PREFIX + "rtt");
    if (rtt == null) {
      return null;
    }
    return new MeasuredRtt(Rtt.parse(rtt),
        Double.parseDouble(System.getProperty(PREFIX + "addedRttMs")),
        Double.parseDouble(System.getProperty(PREFIX + "baselineRttMs")));
  }

  /** JVM arguments for the forks. */
  public List<String> jvmArgs() {
    return List.of("-D" + PREFIX + "rtt=" + rtt, "-D" + PREFIX + "addedRttMs=" + addedMs,
        "-D" + PREFIX + "baselineRttMs=" + baselineMs);
  }
}
