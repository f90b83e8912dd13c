package io.github.latencylab.report;

import io.github.latencylab.report.Baseline.Cell;
import io.github.latencylab.report.Baseline.Tolerances;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
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
 *   <li><b>Time against the baseline</b>: a cell measured in both must not take more than
 *   {@code timeRatio x baseline + timeFloorMs}. Being faster than
 *   {@code (baseline - timeFloorMs) / timeRatio} is reported, not failed.</li>
 *   <li><b>Time against the model</b> (no baseline needed): a measured cell must not take more
 *   than {@code modelRatio x T_model + timeFloorMs}, where
 *   {@code T_model = T(L0) + roundTrips x (L - L0)} from the same series' lowest-RTT measured
 *   cell, L being the measured added RTT.</li>
 *   <li><b>Missing and new cells</b>: a cell of the run not in the baseline is new
 *   (informational); a baseline cell not in the run fails only when the baseline measured it
 *   and the run ran its suite at its RTT (otherwise the run covered less, informational).</li>
 * </ul>
 * One {@link Finding} per finding, failures first, each a line such as {@code FAIL
 * InsertBenchmark.executeBatch rows=1000 @ 20ms: round trips/op 4 -> 1000 (must match exactly:
 * round trips are deterministic)}.
 */
public final class BaselineComparison {

  /** FAIL fails the check; INFO is worth knowing. */
  public enum Level { FAIL, INFO }

  /** One line of the comparison: {@code LEVEL subject: message}. */
  public record Finding(Level level, String subject, String message) {
    @Override
    public String toString() {
      return level + " " + subject + ": " + message;
    }
  }

  private final Tolerances tolerances;
  private final List<Finding> findings;
  private final int compared;

  private BaselineComparison(Tolerances tolerances, List<Finding> findings, int compared) {
    this.tolerances = tolerances;
    List<Finding> sorted = new ArrayList<>(findings);
    sorted.sort(Comparator.comparing(Finding::level)); // stable: failures first, order kept
    this.findings = List.copyOf(sorted);
    this.compared = compared;
  }

  /** Checks {@code current} against {@code baseline} and against the model. */
  public static BaselineComparison compare(Baseline baseline, Results current) {
    Tolerances t = baseline.tolerances();
    List<Finding> out = new ArrayList<>();
    Map<String, Cell> before = baseline.byKey();
    Map<String, Measurement> after = new LinkedHashMap<>();
    current.measurements().stream()
        .sorted(Comparator.comparing(Cell::of, Baseline.ORDER))
        .forEach(m -> after.put(Baseline.key(m), m));
    int compared = 0;
    for (Map.Entry<String, Measurement> e : after.entrySet()) {
      Measurement m = e.getValue();
      Cell b = before.get(e.getKey());
      if (b == null) {
        out.add(info(e.getKey(), "new cell (not in the baseline)"));
        continue;
      }
      if (b.predicted() || m.predicted()) {
        String model = m.predicted() ? Baseline.model(m.note()) : null;
        if (b.predicted() && m.predicted() && b.model().equals(model)) {
          compared++;
          counts(out, e.getKey(), b, m, t, "predicted by the same model from deterministic"
              + " counts");
        } else {
          out.add(info(e.getKey(), "not compared: " + (b.predicted() ? "predicted" : "measured")
              + " in the baseline, " + (m.predicted() ? "predicted" : "measured") + " now"
              + (b.predicted() && m.predicted() ? " by another model ('" + b.model() + "' -> '"
              + model + "')" : "")));
        }
        continue;
      }
      compared++;
      counts(out, e.getKey(), b, m, t, null);
      time(out, e.getKey(), b, m, t);
    }
    out.addAll(modelCheck(current, t));
    missing(out, before, after, current);
    return new BaselineComparison(t, out, compared);
  }

  /**
   * The model check alone (it needs no baseline): every measured cell against
   * {@code T(L0) + roundTrips x (L - L0)} from its series' lowest-RTT measured cell.
   */
  public static List<Finding> modelCheck(Results current, Tolerances t) {
    Map<String, Measurement> lowest = new TreeMap<>();
    for (Measurement m : current.measurements()) {
      if (!m.predicted()) {
        lowest.merge(m.series(), m, (a, b) -> b.addedRttMs() < a.addedRttMs() ? b : a);
      }
    }
    List<Finding> out = new ArrayList<>();
    current.measurements().stream()
        .filter(m -> !m.predicted())
        .sorted(Comparator.comparing(Cell::of, Baseline.ORDER))
        .forEach(m -> {
          Measurement l0 = lowest.get(m.series());
          if (l0 == m || l0.addedRttMs() >= m.addedRttMs()
              || !Double.isFinite(m.roundTripsPerOp()) || !Double.isFinite(m.timeMs())
              || !Double.isFinite(l0.timeMs())) {
            return;
          }
          double model = l0.timeMs() + m.roundTripsPerOp() * (m.addedRttMs() - l0.addedRttMs());
          double limit = t.modelRatio() * model + t.timeFloorMs();
          if (m.timeMs() > limit) {
            out.add(new Finding(Level.FAIL, Baseline.key(m), String.format(Locale.ROOT,
                "time/op model %s -> measured %s (more than %sx the model + %s = %s: T(L) ="
                    + " T(%s) %s + %s round trips x (%.2f - %.2f) ms; time the round trips do"
                    + " not explain)",
                time(model), time(m.timeMs()), num(t.modelRatio()), floor(t),
                time(limit), l0.rtt(), time(l0.timeMs()), count(m.roundTripsPerOp()),
                m.addedRttMs(), l0.addedRttMs())));
          }
        });
    return out;
  }

  private static void counts(List<Finding> out, String key, Cell b, Measurement m,
      Tolerances t, String why) {
    count(out, key, "round trips/op", b.roundTripsPerOp(), m.roundTripsPerOp(), t,
        why != null ? why : "round trips are deterministic");
    count(out, key, "statements/op", b.statementsPerOp(), m.statementsPerOp(), t,
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
      out.add(new Finding(Level.FAIL, key, what + " " + count(before) + " -> " + count(after)
          + " (must match exactly: " + why + ")"));
    }
  }

  private static void time(List<Finding> out, String key, Cell b, Measurement m,
      Tolerances t) {
    if (!Double.isFinite(b.timeMs()) || !Double.isFinite(m.timeMs())) {
      return;
    }
    double limit = t.timeRatio() * b.timeMs() + t.timeFloorMs();
    if (m.timeMs() > limit) {
      out.add(new Finding(Level.FAIL, key, "time/op " + time(b.timeMs()) + " -> "
          + time(m.timeMs()) + " (more than " + num(t.timeRatio()) + "x the baseline + "
          + floor(t) + " = " + time(limit) + ")"));
    } else if (m.timeMs() * t.timeRatio() + t.timeFloorMs() < b.timeMs()) {
      out.add(info(key, "time/op " + time(b.timeMs()) + " -> " + time(m.timeMs())
          + " (faster than the baseline by more than its tolerance: if that is the change's"
          + " purpose, update the baseline)"));
    }
  }

  private static void missing(List<Finding> out, Map<String, Cell> before,
      Map<String, Measurement> after, Results current) {
    Set<String> suitesRun = new HashSet<>();
    Set<String> suiteRttsRun = new HashSet<>();
    for (Measurement m : current.measurements()) {
      suitesRun.add(m.benchmark());
      suiteRttsRun.add(m.benchmark() + " @ " + m.rtt());
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
            + " ran " + b.suite() + " at " + b.rtt() + " but not this cell)"));
      }
    }
    notRun.forEach((subject, n) -> out.add(info(subject, (subject.contains(" @ ")
        ? "not run at this RTT" : "not run") + " (" + n + " baseline cell" + (n == 1 ? "" : "s")
        + " not compared)")));
  }

  private static Finding info(String subject, String message) {
    return new Finding(Level.INFO, subject, message);
  }

  /** True when nothing failed. */
  public boolean passed() {
    return failures().isEmpty();
  }

  /** Every finding, failures first. */
  public List<Finding> findings() {
    return findings;
  }

  public List<Finding> failures() {
    return findings.stream().filter(f -> f.level() == Level.FAIL).toList();
  }

  /** Cells compared with their baseline cell. */
  public int compared() {
    return compared;
  }

  public Tolerances tolerances() {
    return tolerances;
  }

  /** A summary line, then one line per finding. */
  public String report() {
    StringBuilder s = new StringBuilder(summary()).append('\n');
    findings.forEach(f -> s.append(f).append('\n'));
    return s.toString();
  }

  /** "Baseline check passed: ..." or "Baseline check FAILED: ...", with the rules applied. */
  public String summary() {
    int failures = failures().size();
    return (failures == 0 ? "Baseline check passed: " : "Baseline check FAILED: " + failures
        + " failure" + (failures == 1 ? "" : "s") + ", ") + compared + " cell"
        + (compared == 1 ? "" : "s") + " compared (round trips and statements per operation"
        + " exact within " + num(tolerances.countEpsilon()) + "; time within "
        + num(tolerances.timeRatio()) + "x the baseline and " + num(tolerances.modelRatio())
        + "x the model, + " + floor(tolerances) + ")";
  }

  /** 4, 1000, 2.5: counts as written in findings. */
  static String count(double v) {
    if (Double.isNaN(v)) {
      return "unknown";
    }
    return num(v);
  }

  private static String num(double v) {
    if (v == Math.rint(v) && Math.abs(v) < 1e15) {
      return String.format(Locale.ROOT, "%.0f", v);
    }
    return String.format(Locale.ROOT, "%.3f", v).replaceAll("0+$", "");
  }

  private static String floor(Tolerances t) {
    return num(t.timeFloorMs()) + " ms";
  }

  private static String time(double ms) {
    return MarkdownReport.duration(ms);
  }
}
