package io.github.latencylab.gate;

import io.github.latencylab.gate.Baseline.Tolerances;
import io.github.latencylab.report.Cell;
import io.github.latencylab.report.Format;
import io.github.latencylab.report.Median;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The time gate sized by each cell's noise: a measured cell fails on time when its time off the
 * wire ({@link TimeNoise}) lies further above its baseline than its own noise allows at the
 * baseline's false-alarm rate across the whole gate.
 *
 * <p>The test: with s the cell's noise (the sd of ln(off the wire + floor) over the baseline's
 * n repeats, never taken below its suite's median cell nor below {@link #MIN_LOG_SD}: four
 * repeats can look quieter than a cell is), a run fails when ln(off the wire now + floor) -
 * ln(baseline + floor) > z x s x sqrt(1 + 1/n), where sqrt(1 + 1/n) is for the baseline's own
 * uncertainty and z is the normal quantile of {@code falseAlarmRate / K}, K the cells of the
 * baseline with noise (Bonferroni: at most that rate of runs of unchanged code fail anywhere,
 * were the noise log-normal; a run of part of the suites is judged as strictly). Where a cell
 * that fails is measured again and fails only when both measurements do (the bench runner), z
 * stays the same: the second measurement runs in the same Lab minutes later and is not
 * independent of the first (the gate's campaign saw a cell beyond 2.2 sd twice in a row on an
 * idle machine, docs/results/gate-campaign.md), so it only removes spikes. The
 * round trips' part of the time is counted, not judged: a round trip more fails on its count.
 *
 * <p>A busier machine slows every cell alike, a regression a few: when a run has at least
 * {@link #DRIFT_CELLS} cells to judge, each is judged relative to the run's drift, the median
 * over them of ln(now + floor) - ln(baseline + floor), and the drift itself fails the run only
 * beyond the baseline's {@code timeRatio} (a change that slows every cell alike cannot be told
 * from a slower machine by time; its counts, the model check and that ratio still see it). A
 * cell fails only above its own baseline: on a faster machine a cell of little time off the
 * wire, near the floor, speeds up less than the median and would otherwise look slow.
 */
public final class TimeGate {

  /** The least noise assumed: 5% (four repeats of a shared machine's time prove no less). */
  static final double MIN_LOG_SD = 0.05;

  /** The subject of the finding on the run's drift. */
  public static final String RUN = "the run";

  /** The fewest cells a run's drift is taken over (fewer: a regression would be its drift). */
  public static final int DRIFT_CELLS = 10;

  private final Map<String, TimeNoise> noise;
  private final Map<String, Double> suiteMedian = new HashMap<>();
  private final double floorMs;
  private final double falseAlarmRate;
  private final double z;

  private final boolean measuredAgain;

  TimeGate(Map<String, TimeNoise> noise, Tolerances t, boolean measuredAgain) {
    this.noise = Map.copyOf(noise);
    this.floorMs = t.timeFloorMs();
    this.falseAlarmRate = t.falseAlarmRate();
    this.measuredAgain = measuredAgain;
    this.z = noise.isEmpty() ? Double.NaN : NormalTail.quantile(falseAlarmRate / noise.size());
    Map<String, List<Double>> bySuite = new HashMap<>();
    noise.values().forEach(n -> bySuite.computeIfAbsent(n.suite(), k -> new ArrayList<>())
        .add(n.logSd()));
    bySuite.forEach((suite, sds) -> suiteMedian.put(suite, Median.of(sds)));
  }

  /** Whether the baseline measured this cell's noise. */
  boolean judges(String key) {
    return noise.containsKey(key);
  }

  /** The cells the false-alarm rate is shared by. */
  int cells() {
    return noise.size();
  }

  /** The noise used for a cell: its own, its suite's median cell's, or the least. */
  double logSd(String key) {
    TimeNoise n = noise.get(key);
    return Math.max(MIN_LOG_SD, Math.max(n.logSd(), suiteMedian.get(n.suite())));
  }

  /** ln(off the wire now + floor) - ln(the baseline's + floor): how far {@code c} moved. */
  double step(Cell c) {
    TimeNoise n = noise.get(c.key());
    return Math.log(TimeNoise.offWireMs(c) + floorMs) - Math.log(n.offWireMs() + floorMs);
  }

  /**
   * The run's drift: the median step of {@code judged} (cells this gate judges), or 0 when they
   * are fewer than {@link #DRIFT_CELLS}.
   */
  double drift(List<Cell> judged) {
    return judged.size() < DRIFT_CELLS ? 0
        : Median.of(judged.stream().map(this::step).toList());
  }

  /** The sds of {@code c}'s noise its time off the wire is above the baseline's and the drift. */
  double sds(Cell c, double drift) {
    TimeNoise n = noise.get(c.key());
    return (step(c) - drift) / (logSd(c.key()) * Math.sqrt(1 + 1.0 / n.repeats()));
  }

  /** The highest time per operation {@code c} may take at this drift, its RTTs' part included. */
  double limitMs(Cell c, double drift) {
    TimeNoise n = noise.get(c.key());
    double factor = Math.exp(drift + z * logSd(c.key()) * Math.sqrt(1 + 1.0 / n.repeats()));
    return (n.offWireMs() + floorMs) * factor - floorMs + (c.timeMs() - TimeNoise.offWireMs(c));
  }

  /** The finding on the run's drift: a failure beyond {@code timeRatio}, else null. */
  BaselineComparison.Finding judgeDrift(double drift, int cells, Tolerances t) {
    if (Math.exp(drift) <= t.timeRatio()) {
      return null;
    }
    return new BaselineComparison.Finding(BaselineComparison.Level.FAIL, RUN, "time off"
        + " the wire " + ratio(drift) + " the baseline's at the median of " + cells + " cells"
        + " (more than " + Format.number(t.timeRatio()) + "x: every cell slower alike, a far"
        + " slower machine or a change to everything)", false);
  }

  /** The finding on {@code b}'s and {@code c}'s time at the run's drift, or null. */
  BaselineComparison.Finding judge(Cell b, Cell c, double drift) {
    TimeNoise n = noise.get(c.key());
    double sds = sds(c, drift);
    String change = "time/op " + Format.duration(b.timeMs()) + " -> "
        + Format.duration(c.timeMs()) + " (off the wire " + Format.duration(n.offWireMs())
        + " -> " + Format.duration(TimeNoise.offWireMs(c)) + ", "
        + String.format(Locale.ROOT, "%+.1f", sds) + " sd of its noise";
    String noiseLine = "noise: sd " + String.format(Locale.ROOT, "%.3f", logSd(c.key()))
        + " of ln(ms + " + Format.number(floorMs) + " ms) over " + n.repeats() + " repeats";
    // above the baseline only: on a machine faster than the baseline's (a drift below 1x), a
    // small cell near the floor cannot follow the median's speed-up, and is no slower for it
    if (sds > z && step(c) > 0) {
      return new BaselineComparison.Finding(BaselineComparison.Level.FAIL, c.key(), change
          + "; the limit is " + String.format(Locale.ROOT, "%.1f", z) + " sd = "
          + Format.duration(limitMs(c, drift)) + (drift == 0 ? "" : " at the run's drift "
          + ratio(drift)) + " for a " + percent(falseAlarmRate)
          + " false-alarm rate over " + noise.size() + " cells; " + noiseLine + ")", true);
    }
    if (sds < -z) {
      return new BaselineComparison.Finding(BaselineComparison.Level.INFO, c.key(), change
          + (drift == 0 ? "" : " beyond the run's drift " + ratio(drift)) + ": faster than its"
          + " noise explains; if that is the change's purpose, update the baseline)", false);
    }
    return null;
  }

  /** The rule, for the summary line, with the run's drift when one was taken. */
  String describe(double drift) {
    return "time off the wire within " + String.format(Locale.ROOT, "%.1f", z) + " sd of each"
        + " cell's noise (a " + percent(falseAlarmRate) + " false-alarm rate over " + noise.size()
        + " cells" + (measuredAgain ? ", each failure measured again" : "") + ")"
        + (drift == 0 ? "" : " above the run's drift " + ratio(drift));
  }

  /** "1.12x": a drift as the factor it is. */
  static String ratio(double drift) {
    return String.format(Locale.ROOT, "%.2fx", Math.exp(drift));
  }

  private static String percent(double rate) {
    return Format.number(rate * 100) + "%";
  }
}
