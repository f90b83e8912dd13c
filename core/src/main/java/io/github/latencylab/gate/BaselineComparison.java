package io.github.latencylab.gate;

import io.github.latencylab.gate.Baseline.Tolerances;
import io.github.latencylab.latency.Rtt;
import io.github.latencylab.report.Cell;
import io.github.latencylab.report.Format;
import io.github.latencylab.report.LatencyModel;
import io.github.latencylab.report.ReportWriter;
import io.github.latencylab.report.Results;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * A run's cells checked against the committed {@link Baseline} and against the model.
 *
 * <p>The rules, with the baseline's {@link Tolerances}:
 * <ul>
 *   <li><b>Round trips and statements per operation</b> of a cell measured in both must match
 *   exactly (within {@code countEpsilon}, 0.01 by default, which only absorbs averaging over
 *   iterations): they are counted at the socket and deterministic. A cell predicted in both
 *   is compared the same way only when both were predicted by the same model; otherwise a
 *   predicted cell is not compared (informational).</li>
 *   <li><b>Time against the baseline</b>: a cell whose noise the baseline measured (an A/A
 *   run's repeats) is judged by {@link TimeGate}: its time off the wire within its own noise
 *   at the baseline's false-alarm rate across all cells. Any other cell measured in both must
 *   not take more than {@code timeRatio x baseline + timeFloorMs}. Being faster than the limit
 *   allows is reported, not failed.</li>
 *   <li><b>Time against the model</b> (no baseline needed): a measured cell must not take more
 *   than {@code modelRatio x T_model + timeFloorMs}, where T_model is the {@link LatencyModel}
 *   of its series fitted on the measured cells at lower RTTs, at the cell's measured added
 *   RTT.</li>
 *   <li><b>Missing and new cells</b>: a cell of the run not in the baseline is new
 *   (informational); a baseline cell not in the run fails only when the baseline measured it
 *   and the run ran its suite at its RTT (otherwise the run covered less, informational).</li>
 * </ul>
 * One {@link Finding} per finding, failures first, each a line such as {@code FAIL
 * InsertBenchmark.executeBatch rows=1000 @ 20ms: round trips/op 4 -> 1,000 (must match
 * exactly: round trips are deterministic)}.
 */
public final class BaselineComparison implements ReportWriter.Check {

  /** FAIL fails the check; INFO is worth knowing. */
  public enum Level { FAIL, INFO }

  /**
   * One line of the comparison: {@code LEVEL subject: message}.
   *
   * @param onTime a finding on time alone (against the baseline or the model): noise can
   *     make one, so a runner may measure the cell again before believing it
   */
  public record Finding(Level level, String subject, String message, boolean onTime)
      implements ReportWriter.Check.Line {
    @Override
    public String toString() {
      return level + " " + subject + ": " + message;
    }
  }

  private final Tolerances tolerances;
  private final List<Finding> findings;
  private final int compared;
  private final boolean times;
  private final boolean work;
  private final TimeGate gate;
  private final double drift;
  private final String timeApart; // why time was reported, not judged; null: judged

  private BaselineComparison(Tolerances tolerances, List<Finding> findings, int compared,
      boolean times, boolean work, TimeGate gate, double drift) {
    this(tolerances, findings, compared, times, work, gate, drift, null);
  }

  private BaselineComparison(Tolerances tolerances, List<Finding> findings, int compared,
      boolean times, boolean work, TimeGate gate, double drift, String timeApart) {
    this.timeApart = timeApart;
    this.tolerances = tolerances;
    this.times = times;
    this.work = work;
    this.gate = gate;
    this.drift = drift;
    List<Finding> sorted = new ArrayList<>(findings);
    sorted.sort(Comparator.comparing(Finding::level)); // stable: failures first, order kept
    this.findings = List.copyOf(sorted);
    this.compared = compared;
  }

  /** Checks {@code current} against {@code baseline} and against the model, once. */
  public static BaselineComparison compare(Baseline baseline, Results current) {
    return compare(baseline, current, false);
  }

  /**
   * Checks {@code current} against {@code baseline} and against the model.
   *
   * @param measuredAgain whether the caller measures a cell that fails on time alone once more
   *     and believes it only when it fails again (the bench runner does), as the summary says
   */
  public static BaselineComparison compare(Baseline baseline, Results current,
      boolean measuredAgain) {
    return compare(baseline, current, measuredAgain, Map.of(), Map.of());
  }

  /**
   * Checks {@code current} against {@code baseline}, its counted work and, for the cells
   * {@code plans} has (a users' test's statements by shape), their plans too ({@link
   * WorkGate}); {@code ranAfter} says what ran before each users' test.
   */
  public static BaselineComparison compare(Baseline baseline, Results current,
      boolean measuredAgain, Map<String, Map<String, StatementPlan>> plans,
      Map<String, String> ranAfter) {
    Tolerances t = baseline.tolerances();
    List<Finding> out = new ArrayList<>();
    TimeGate gate = baseline.timeGate(measuredAgain);
    String differs = gate.cells() > 0 ? baseline.machineDifference(current) : null;
    if (differs != null) {
      gate = new TimeGate(Map.of(), t, measuredAgain);
      out.add(info("time", "the baseline's noise was measured on " + baseline.measuredOn()
          + ", this run on " + Baseline.measuredOn(current.environment()) + ": " + differs
          + " differs, so times are judged by the ratio rule only (results from machines of"
          + " different kinds are never compared as if alike)"));
    }
    String otherMachine = baseline.machineDifference(current);
    Map<String, Cell> before = baseline.byKey();
    Map<String, Cell> after = new LinkedHashMap<>();
    current.cells().stream().sorted(Cell.ORDER).forEach(c -> after.put(c.key(), c));
    int compared = 0;
    List<Cell[]> judged = new ArrayList<>(); // by the time gate, once the run's drift is known
    Map<String, List<String>> uncounted = new LinkedHashMap<>(); // counter -> cells
    for (Cell c : after.values()) {
      Cell b = before.get(c.key());
      if (b == null) {
        out.add(info(c.key(), "new cell (not in the baseline)"));
        continue;
      }
      if (b.predicted() || c.predicted()) {
        String model = c.predicted() ? Baseline.model(c.prediction()) : null;
        if (b.predicted() && c.predicted() && b.prediction().equals(model)) {
          compared++;
          counts(out, b, c, t, "predicted by the same model from deterministic counts");
        } else {
          out.add(info(c.key(), "not compared: " + (b.predicted() ? "predicted" : "measured")
              + " in the baseline, " + (c.predicted() ? "predicted" : "measured") + " now"
              + (b.predicted() && c.predicted() ? " by another model ('" + b.prediction()
              + "' -> '" + model + "')" : "")));
        }
        continue;
      }
      compared++;
      counts(out, b, c, t, null);
      String baselineRanAfter = baseline.after().get(c.key());
      WorkGate.judge(out, b, c, t.work(), baseline.plans().getOrDefault(c.key(), Map.of()),
          plans.getOrDefault(c.key(), Map.of()), baselineRanAfter == null ? null
              : ranAfter.getOrDefault(c.key(), "after other tests"), baselineRanAfter,
          otherMachine);
      WorkGate.uncounted(b, c).forEach(counter ->
          uncounted.computeIfAbsent(counter, k -> new ArrayList<>()).add(c.key()));
      if (gate.judges(c.key()) && Double.isFinite(c.timeMs())) {
        judged.add(new Cell[] {b, c});
      } else {
        time(out, b, c, t);
      }
    }
    double drift = gate.drift(judged.stream().map(p -> p[1]).toList());
    Finding whole = gate.judgeDrift(drift, judged.size(), t);
    if (whole != null) {
      out.add(whole);
    }
    for (Cell[] p : judged) {
      Finding f = gate.judge(p[0], p[1], drift);
      if (f != null) {
        out.add(f);
      }
    }
    out.addAll(modelCheck(current, t));
    uncounted.forEach((counter, cells) -> out.add(new Finding(Level.FAIL, counter, "not counted"
        + " in this run for " + cells.size() + " cell" + (cells.size() == 1 ? "" : "s") + " the"
        + " baseline counts it for (" + cells.get(0) + (cells.size() == 1 ? "" : ", ...")
        + "): the gate cannot judge work a run did not count; the run's log says why (the"
        + " server's work needs pg_stat_statements), or take the baseline without it", false)));
    missing(out, before, after, current);
    // a baseline of counts only (the JUnit extension's: a test's time is no benchmark)
    boolean times = before.values().stream().anyMatch(b -> Double.isFinite(b.timeMs()));
    boolean work = !baseline.plans().isEmpty()
        || before.values().stream().anyMatch(b -> !b.server().isEmpty());
    return new BaselineComparison(t, out, compared, times, work, gate, drift);
  }

  /**
   * The model check alone (it needs no baseline): every measured cell against the
   * {@link LatencyModel} of its series fitted on the measured cells at lower RTTs.
   */
  public static List<Finding> modelCheck(Results current, Tolerances t) {
    List<Finding> out = new ArrayList<>();
    Map<String, LatencyModel> models = LatencyModel.fromBelow(current.cells());
    current.cells().stream().sorted(Cell.ORDER).forEach(c -> {
      LatencyModel model = models.get(c.key());
      if (model == null) {
        return;
      }
      double expected = model.timeMs(c.addedRttMs());
      double limit = t.modelRatio() * expected + t.timeFloorMs();
      if (c.timeMs() > limit) {
        out.add(new Finding(Level.FAIL, c.key(), "time/op model " + Format.duration(expected)
            + " -> measured " + Format.duration(c.timeMs()) + " (more than "
            + Format.number(t.modelRatio()) + "x the model + " + floor(t) + " = "
            + Format.duration(limit) + ": T(L) from " + model.measuredAt() + " = "
            + model.describe(c.addedRttMs()) + "; time the round trips do not explain)", true));
      }
    });
    return out;
  }

  private static void counts(List<Finding> out, Cell b, Cell c, Tolerances t, String why) {
    count(out, c.key(), "round trips/op", b.roundTripsPerOp(), c.roundTripsPerOp(), t,
        why != null ? why : "round trips are deterministic");
    count(out, c.key(), "statements/op", b.statementsPerOp(), c.statementsPerOp(), t,
        why != null ? why : "statements are deterministic");
  }

  private static void count(List<Finding> out, String key, String what, double before,
      double after, Tolerances t, String why) {
    if (Double.isNaN(before)) {
      if (!Double.isNaN(after)) {
        out.add(info(key, what + " not in the baseline, now " + count(after)));
      }
      return;
    }
    if (Double.isNaN(after) || Math.abs(after - before) > t.countEpsilon()) {
      String price = what.startsWith("round trips") && !Double.isNaN(after)
          ? priced(after - before) + "; " : "";
      out.add(new Finding(Level.FAIL, key, what + " " + count(before) + " -> " + count(after)
          + " (" + price + "must match exactly: " + why + ")", false));
    }
  }

  /** "20 ms" for a whole number of milliseconds under a second, else as Format writes it. */
  private static String duration(double ms) {
    return ms < 1000 && ms >= 1 && ms == Math.rint(ms) ? (long) ms + " ms" : Format.duration(ms);
  }

  /** The RTTs a change of round trips is priced at: a LAN to across an ocean. */
  static final List<Rtt> PRICED_AT = List.of(Rtt.parse("1ms"), Rtt.parse("5ms"),
      Rtt.parse("20ms"), Rtt.parse("80ms"), Rtt.parse("320ms"));

  /**
   * "+1: +1 ms/op at 1ms, ..., +320 ms/op at 320ms; +20 s per 1,000 ops at 20ms": what a change
   * of round trips per operation adds to each operation (each round trip waits an RTT), and to
   * a thousand of them at 20 ms.
   */
  static String priced(double roundTrips) {
    String sign = roundTrips >= 0 ? "+" : "-";
    double n = Math.abs(roundTrips);
    StringBuilder s = new StringBuilder(sign + count(n) + ":");
    for (Rtt r : PRICED_AT) {
      s.append(r == PRICED_AT.get(0) ? " " : ", ").append(sign)
          .append(duration(n * r.millis())).append("/op at ").append(r);
    }
    return s.append("; ").append(sign).append(duration(n * 20 * 1000))
        .append(" per 1,000 ops at 20ms").toString();
  }

  private static void time(List<Finding> out, Cell b, Cell c, Tolerances t) {
    if (!Double.isFinite(b.timeMs()) || !Double.isFinite(c.timeMs())) {
      return;
    }
    double limit = t.timeRatio() * b.timeMs() + t.timeFloorMs();
    String change = "time/op " + Format.duration(b.timeMs()) + " -> "
        + Format.duration(c.timeMs());
    if (c.timeMs() > limit) {
      out.add(new Finding(Level.FAIL, c.key(), change + " (more than "
          + Format.number(t.timeRatio()) + "x the baseline + " + floor(t) + " = "
          + Format.duration(limit) + ")", true));
    } else if (c.timeMs() * t.timeRatio() + t.timeFloorMs() < b.timeMs()) {
      out.add(info(c.key(), change + " (faster than the baseline by more than its tolerance:"
          + " if that is the change's purpose, update the baseline)"));
    }
  }

  private static void missing(List<Finding> out, Map<String, Cell> before,
      Map<String, Cell> after, Results current) {
    Set<String> suitesRun = new HashSet<>();
    Set<String> suiteRttsRun = new HashSet<>();
    for (Cell c : current.cells()) {
      suitesRun.add(c.suite());
      suiteRttsRun.add(c.suite() + " @ " + c.rtt());
    }
    Map<String, Integer> notRun = new TreeMap<>();
    for (Cell b : before.values()) {
      if (after.containsKey(b.key())) {
        continue;
      }
      String suiteRtt = b.suite() + " @ " + b.rtt();
      if (!suitesRun.contains(b.suite())) {
        notRun.merge(b.suite(), 1, Integer::sum);
      } else if (!suiteRttsRun.contains(suiteRtt)) {
        notRun.merge(suiteRtt, 1, Integer::sum);
      } else if (b.predicted()) {
        out.add(info(b.key(), "missing (predicted in the baseline, not in this run)"));
      } else {
        out.add(new Finding(Level.FAIL, b.key(), "missing (measured in the baseline; this run"
            + " ran " + b.suite() + " at " + b.rtt() + " but not this cell)", false));
      }
    }
    notRun.forEach((subject, n) -> out.add(info(subject, (subject.contains(" @ ")
        ? "not run at this RTT" : "not run") + " (" + n + " baseline cell" + (n == 1 ? "" : "s")
        + " not compared)")));
  }

  private static Finding info(String subject, String message) {
    return new Finding(Level.INFO, subject, message, false);
  }

  /** This comparison with one more informational finding, e.g. a cell measured again. */
  public BaselineComparison withInfo(String subject, String message) {
    List<Finding> more = new ArrayList<>(findings);
    more.add(info(subject, message));
    return new BaselineComparison(tolerances, more, compared, times, work, gate, drift,
        timeApart);
  }

  /**
   * This comparison with its findings on time reported apart, not failed: on a machine other
   * processes kept busy ({@code why}), time says more about them than about the code, while
   * round trips, statements and the counted work are judged as always.
   */
  public BaselineComparison withTimeApart(String why) {
    List<Finding> apart = new ArrayList<>();
    for (Finding f : findings) {
      boolean onTime = f.onTime() || f.subject().equals(TimeGate.RUN);
      apart.add(onTime && f.level() == Level.FAIL ? new Finding(Level.INFO, f.subject(),
          "time reported, not judged (" + why + "): " + f.message(), f.onTime()) : f);
    }
    return new BaselineComparison(tolerances, apart, compared, times, work, gate, drift, why);
  }

  /** True when nothing failed. */
  @Override
  public boolean passed() {
    return failures().isEmpty();
  }

  /** Every finding, failures first. */
  @Override
  public List<Finding> findings() {
    return findings;
  }

  public List<Finding> failures() {
    return findings.stream().filter(f -> f.level() == Level.FAIL).toList();
  }

  /**
   * The cells whose every failure is on time alone: worth measuring once more before the
   * build believes them (round trips and statements never are).
   */
  public Set<String> failedOnTimeOnly() {
    Set<String> onTime = new LinkedHashSet<>();
    Set<String> otherwise = new HashSet<>();
    for (Finding f : failures()) {
      (f.onTime() ? onTime : otherwise).add(f.subject());
    }
    onTime.removeAll(otherwise);
    return onTime;
  }

  /** Cells compared with their baseline cell. */
  public int compared() {
    return compared;
  }

  public Tolerances tolerances() {
    return tolerances;
  }

  /** A summary line, then one line per finding. */
  @Override
  public String report() {
    StringBuilder s = new StringBuilder(summary()).append('\n');
    findings.forEach(f -> s.append(f).append('\n'));
    return s.toString();
  }

  /** "Baseline check passed: ..." or "Baseline check FAILED: ...", with the rules applied. */
  @Override
  public String summary() {
    int failures = failures().size();
    return (failures == 0 ? "Baseline check passed: " : "Baseline check FAILED: " + failures
        + " failure" + (failures == 1 ? "" : "s") + ", ") + compared + " cell"
        + (compared == 1 ? "" : "s") + " compared (round trips and statements per operation"
        + " exact within " + Format.number(tolerances.countEpsilon()) + (work ? ", counted"
        + " work and plans within the work tolerances" : "") + (!times
        ? "; no times in the baseline)" : timeApart != null ? "; time reported, not judged: "
        + timeApart + (drift == 0 ? "" : ", the run's drift " + TimeGate.ratio(drift)) + ")"
        : gate.cells() > 0 ? "; " + gate.describe(drift)
        + ", elsewhere within " + ratios() : "; time within " + ratios());
  }

  private String ratios() {
    return Format.number(tolerances.timeRatio()) + "x the baseline and "
        + Format.number(tolerances.modelRatio()) + "x the model, + " + floor(tolerances) + ")";
  }

  /** 4, 1,000, 2.5: counts as written in findings; "unknown" when absent. */
  private static String count(double v) {
    return Double.isNaN(v) ? "unknown" : Format.number(v);
  }

  private static String floor(Tolerances t) {
    return Format.number(t.timeFloorMs()) + " ms";
  }
}
