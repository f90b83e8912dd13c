package io.github.latencylab.gate;

import io.github.latencylab.report.Cell;
import io.github.latencylab.report.Results;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A cell's time per operation off the wire over the repeats of the A/A run that made its
 * baseline ({@code bench --repeat N --update-baseline}): what {@link TimeGate} sizes the
 * cell's threshold by.
 *
 * <p>Off the wire is the time less what its RTTs cost (round trips and window flights x the
 * added RTT measured): that part is counted, judged exactly by the counts, and never widened
 * as if it were noise. The spread is taken of ln(off the wire + the floor): a machine that is
 * busier is slower by a factor, and the floor (the baseline's {@code timeFloorMs}) keeps a
 * sub-millisecond cell's scheduling hiccups from reading as a factor.
 *
 * @param suite the cell's suite (a cell is never judged quieter than its suite's median cell)
 * @param repeats the repeats that measured the cell
 * @param offWireMs the geometric mean of its times off the wire (floor added, then taken off)
 * @param logSd the sample standard deviation (n - 1) of ln(off the wire + floor)
 */
public record TimeNoise(String suite, int repeats, double offWireMs, double logSd) {

  public TimeNoise {
    if (repeats < 2 || !(offWireMs >= 0) || !(logSd >= 0) || Double.isInfinite(logSd)) {
      throw new IllegalArgumentException("Invalid time noise: repeats " + repeats
          + " (at least 2), offWireMs " + offWireMs + " and logSd " + logSd
          + " (finite, at least 0)");
    }
  }

  /** A cell's time off the wire: its time less its RTTs x the added RTT, at least 0. */
  static double offWireMs(Cell c) {
    double rtt = Double.isFinite(c.addedRttMs()) ? c.addedRttMs() : c.rtt().millis();
    return Math.max(0, c.timeMs() - c.rttsPerOp() * rtt);
  }

  /** The noise of every cell measured in two repeats or more, by key. */
  static Map<String, TimeNoise> of(List<Results> repeats, double floorMs) {
    Map<String, List<Double>> logs = new LinkedHashMap<>();
    Map<String, String> suites = new LinkedHashMap<>();
    for (Results r : repeats) {
      for (Cell c : r.cells()) {
        if (!c.predicted() && Double.isFinite(c.timeMs())) {
          suites.put(c.key(), c.suite());
          logs.computeIfAbsent(c.key(), k -> new ArrayList<>())
              .add(Math.log(offWireMs(c) + floorMs));
        }
      }
    }
    Map<String, TimeNoise> noise = new LinkedHashMap<>();
    logs.forEach((key, xs) -> {
      if (xs.size() >= 2) {
        double mean = xs.stream().mapToDouble(Double::doubleValue).average().orElseThrow();
        double ss = xs.stream().mapToDouble(x -> (x - mean) * (x - mean)).sum();
        noise.put(key, new TimeNoise(suites.get(key), xs.size(), Math.max(0, Math.exp(mean) - floorMs),
            Math.sqrt(ss / (xs.size() - 1))));
      }
    });
    return noise;
  }
}
