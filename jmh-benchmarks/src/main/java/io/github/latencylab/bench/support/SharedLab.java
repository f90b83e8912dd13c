package io.github.latencylab.bench.support;

import io.github.latencylab.env.Lab;
import io.github.latencylab.latency.Rtt;
import io.github.latencylab.latency.RttMeasurement;
import java.util.ArrayList;
import java.util.List;

/**
 * What the bench runner tells its forks about the Lab it runs: where to connect and what the
 * current RTT setting measured. Passed as system properties, so JMH's forks inherit them.
 */
public record SharedLab(String proxiedUrl, String directUrl, String user, String password,
    Rtt rtt, double addedRttMs, double baselineRttMs) {

  private static final String PREFIX = "latencylab.bench.";

  static SharedLab fromSystemProperties() {
    String url = System.getProperty(PREFIX + "proxiedUrl");
    if (url == null) {
      return null;
    }
    return new SharedLab(url, System.getProperty(PREFIX + "directUrl"),
        System.getProperty(PREFIX + "user"), System.getProperty(PREFIX + "password", ""),
        Rtt.parse(System.getProperty(PREFIX + "rtt")),
        Double.parseDouble(System.getProperty(PREFIX + "addedRttMs")),
        Double.parseDouble(System.getProperty(PREFIX + "baselineRttMs")));
  }

  public static SharedLab of(Lab lab, RttMeasurement measured) {
    return new SharedLab(lab.target().jdbcUrl(), lab.directTarget().jdbcUrl(),
        lab.target().user(), lab.target().password(), measured.configured(),
        measured.addedMeanMs(), measured.baseline().meanMs());
  }

  /** JVM arguments for the forks. */
  public List<String> jvmArgs() {
    List<String> args = new ArrayList<>();
    args.add("-D" + PREFIX + "proxiedUrl=" + proxiedUrl);
    args.add("-D" + PREFIX + "directUrl=" + directUrl);
    args.add("-D" + PREFIX + "user=" + user);
    args.add("-D" + PREFIX + "password=" + password);
    args.add("-D" + PREFIX + "rtt=" + rtt);
    args.add("-D" + PREFIX + "addedRttMs=" + addedRttMs);
    args.add("-D" + PREFIX + "baselineRttMs=" + baselineRttMs);
    return args;
  }
}
