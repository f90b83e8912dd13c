package io.github.latencylab.history;

import io.github.latencylab.gate.Baseline;
import io.github.latencylab.gate.TimeGate;
import io.github.latencylab.report.Cell;
import io.github.latencylab.report.Format;
import io.github.latencylab.report.Median;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The steps in a {@link History}: per cell, where its time per operation changed level
 * ({@link ChangePoints}: Otava's E-divisive means with a t-test, max p-value
 * {@value ChangePoints#MAX_P_VALUE}, min magnitude {@value ChangePoints#MIN_MAGNITUDE}), and
 * where a count moved (round trips or statements per operation between two consecutive runs
 * by more than the baseline's count epsilon: counts are deterministic, one move is a step).
 * Each step names the first commit of its new level.
 *
 * <p>Only runs of one environment are compared, the latest run's ({@link
 * History#sameEnvironmentKey}: machine, database, settings, profile); the others are listed
 * apart and not compared. Only measured cells are analysed (a predicted time is the model's).
 * A {@link History.Mark} at a commit cuts each cell's times there: a step at its run is
 * reported as intended (the levels either side tested as a change point is), and the
 * analysis and the current level ("since") start again from it.
 *
 * <p>A busier or quieter machine moves every cell of a run alike, a change a few: as the gate
 * does ({@link TimeGate}), a run of ten cells or more is read over its drift, the median over
 * its cells of each one's time over that cell's median across the runs, before its times are
 * searched for steps (a step's levels are in those drift-corrected milliseconds).
 *
 * @param compared the runs compared, in history order
 * @param excluded the runs of other environments, not compared
 * @param trends each measured cell's times and steps, in {@link Cell#ORDER}
 * @param unmatchedMarks marks whose commit is not among the compared runs
 * @param drift each compared run's drift (1 where it had fewer than ten measured cells)
 */
public record HistoryAnalysis(List<History.Run> compared, List<History.Run> excluded,
    List<Trend> trends, List<History.Mark> unmatchedMarks, List<Double> drift) {

  /** The one line the report gives runs it does not compare. */
  public static final String NOT_COMPARED = "results from different machines are never"
      + " compared as if alike";

  private static final double COUNT_EPSILON = Baseline.Tolerances.DEFAULTS.countEpsilon();

  /** What moved. */
  public enum Kind {
    TIME("time/op"), ROUND_TRIPS("round trips/op"), STATEMENTS("statements/op");

    private final String label;

    Kind(String label) {
      this.label = label;
    }

    public String label() {
      return label;
    }
  }

  /**
   * A step: {@code cell}'s {@code kind} moved from {@code before} to {@code after} at the run
   * {@code run} (an index into the compared runs).
   *
   * @param pValue the t-test's p-value of a time step, NaN for a count
   * @param intended the mark that says it was meant, or null
   */
  public record Step(String cell, Kind kind, int run, History.Run first, double before,
      double after, double pValue, History.Mark intended) {

    /** The relative change: +0.54 for +54%. */
    public double change() {
      return before == 0 ? 0 : after / before - 1;
    }

    /**
     * "InsertBenchmark.executeBatch rows=100 @ 0.5ms: time/op 4.10 ms -> 6.30 ms (+54%) from
     * commit 1a2b3c4 (run 7 of 12; p = 0.0002)", and "intended: ..." when marked.
     */
    public String line(int runs) {
      String values = kind == Kind.TIME
          ? Format.duration(before) + " -> " + Format.duration(after) + " (" + percent(change())
              + ")"
          : Format.count(before) + " -> " + Format.count(after);
      return cell + ": " + kind.label() + " " + values + " from commit " + first.shortCommit()
          + " (run " + (run + 1) + " of " + runs + (kind == Kind.TIME ? "; " + p(pValue) : "")
          + ")" + (intended == null ? "" : " intended: " + intended.reason());
    }
  }

  /**
   * One cell over the compared runs.
   *
   * @param runs the indexes of the compared runs that measured it
   * @param cells its cell in each of those runs
   * @param steps its steps, by run
   * @param since the run its current level starts at (its last step or mark, else its first)
   */
  public record Trend(String key, List<Integer> runs, List<Cell> cells, List<Step> steps,
      int since) {

    /** Its mean time per operation since {@link #since}. */
    public double currentMs() {
      double sum = 0;
      int n = 0;
      for (int i = 0; i < runs.size(); i++) {
        if (runs.get(i) >= since) {
          sum += cells.get(i).timeMs();
          n++;
        }
      }
      return sum / n;
    }
  }

  /** Every step, cell by cell in order, each cell's by run. */
  public List<Step> steps() {
    return trends.stream().flatMap(t -> t.steps().stream()).toList();
  }

  /**
   * "3 runs from another environment not compared (2 on ci-2: Linux ..., PostgreSQL 16.4,
   * verify profile; 1 on ...): results from different machines are never compared as if
   * alike", or null when every run was compared.
   */
  public String excludedLine() {
    if (excluded.isEmpty()) {
      return null;
    }
    Map<String, Integer> byEnvironment = new LinkedHashMap<>();
    excluded.forEach(r -> byEnvironment.merge(History.describeEnvironment(r), 1, Integer::sum));
    List<String> groups = new ArrayList<>();
    byEnvironment.forEach((env, n) -> groups.add(n + " from " + env));
    return excluded.size() + (excluded.size() == 1 ? " run" : " runs")
        + " from another machine or environment not compared (" + String.join(" | ", groups)
        + "; compared: " + compared.size() + " from " + History.describeEnvironment(
            compared.get(compared.size() - 1)) + "): " + NOT_COMPARED;
  }

  /** The analysis of {@code history}: its steps among the runs of its latest environment. */
  public static HistoryAnalysis of(History history) {
    if (history.runs().isEmpty()) {
      throw new IllegalArgumentException("No run in the history: append one with"
          + " ./latency-lab history append --results DIR/results.json --history FILE");
    }
    List<History.Run> runs = history.runs();
    String reference = History.sameEnvironmentKey(runs.get(runs.size() - 1));
    List<History.Run> compared = new ArrayList<>();
    List<History.Run> excluded = new ArrayList<>();
    for (History.Run r : runs) {
      (History.sameEnvironmentKey(r).equals(reference) ? compared : excluded).add(r);
    }
    // each mark cuts at the first compared run of its commit
    Map<Integer, History.Mark> cuts = new TreeMap<>();
    List<History.Mark> unmatched = new ArrayList<>();
    for (History.Mark m : history.marks()) {
      int at = -1;
      for (int i = 0; i < compared.size() && at < 0; i++) {
        at = m.marks(compared.get(i)) ? i : -1;
      }
      if (at < 0) {
        unmatched.add(m);
      } else {
        cuts.put(at, m);
      }
    }
    Map<String, List<Integer>> runsOf = new TreeMap<>();
    Map<String, List<Cell>> cellsOf = new LinkedHashMap<>();
    Map<String, Cell> any = new LinkedHashMap<>();
    for (int i = 0; i < compared.size(); i++) {
      for (Cell c : compared.get(i).results().cells()) {
        if (!c.predicted() && Double.isFinite(c.timeMs())) {
          runsOf.computeIfAbsent(c.key(), k -> new ArrayList<>()).add(i);
          cellsOf.computeIfAbsent(c.key(), k -> new ArrayList<>()).add(c);
          any.putIfAbsent(c.key(), c);
        }
      }
    }
    double[] drift = drift(compared.size(), runsOf, cellsOf);
    List<Trend> trends = new ArrayList<>();
    any.values().stream().sorted(Cell.ORDER).forEach(c -> trends.add(trend(c.key(),
        runsOf.get(c.key()), cellsOf.get(c.key()), compared, cuts, drift)));
    return new HistoryAnalysis(compared, excluded, trends, unmatched,
        java.util.Arrays.stream(drift).boxed().toList());
  }

  /** Each run's drift: the median over its cells of time / the cell's median, with ten or more. */
  private static double[] drift(int runs, Map<String, List<Integer>> runsOf,
      Map<String, List<Cell>> cellsOf) {
    List<List<Double>> ratios = new ArrayList<>();
    for (int i = 0; i < runs; i++) {
      ratios.add(new ArrayList<>());
    }
    cellsOf.forEach((key, cells) -> {
      double median = Median.of(cells.stream().map(Cell::timeMs).toList());
      for (int i = 0; i < cells.size(); i++) {
        ratios.get(runsOf.get(key).get(i)).add(cells.get(i).timeMs() / median);
      }
    });
    return ratios.stream().mapToDouble(r -> r.size() < TimeGate.DRIFT_CELLS ? 1
        : Median.of(r)).toArray();
  }

  private static Trend trend(String key, List<Integer> runs, List<Cell> cells,
      List<History.Run> compared, Map<Integer, History.Mark> cuts, double[] drift) {
    List<Step> steps = new ArrayList<>();
    // counts: deterministic, a move between consecutive runs is a step
    for (int i = 1; i < cells.size(); i++) {
      Cell a = cells.get(i - 1);
      Cell b = cells.get(i);
      int run = runs.get(i);
      countStep(steps, key, Kind.ROUND_TRIPS, a.roundTripsPerOp(), b.roundTripsPerOp(), run,
          compared, markedAt(cuts, runs.get(i - 1), run));
      countStep(steps, key, Kind.STATEMENTS, a.statementsPerOp(), b.statementsPerOp(), run,
          compared, markedAt(cuts, runs.get(i - 1), run));
    }
    // times: change points within each stretch between marks
    List<List<Integer>> stretches = new ArrayList<>();
    List<History.Mark> startedBy = new ArrayList<>();
    for (int i = 0; i < runs.size(); i++) {
      History.Mark mark = i == 0 ? null : markedAt(cuts, runs.get(i - 1), runs.get(i));
      if (i == 0 || mark != null) {
        stretches.add(new ArrayList<>());
        startedBy.add(mark);
      }
      stretches.get(stretches.size() - 1).add(i);
    }
    double[] lastLevel = null;
    for (int s = 0; s < stretches.size(); s++) {
      List<Integer> stretch = stretches.get(s);
      double[] times = stretch.stream()
          .mapToDouble(i -> cells.get(i).timeMs() / drift[runs.get(i)]).toArray();
      List<ChangePoints.Point> points = ChangePoints.of(times);
      int firstLevelEnd = points.isEmpty() ? times.length : points.get(0).index();
      if (lastLevel != null) {
        // the mark's step: the level before it against the level after it
        double[] both = new double[lastLevel.length + firstLevelEnd];
        System.arraycopy(lastLevel, 0, both, 0, lastLevel.length);
        System.arraycopy(times, 0, both, lastLevel.length, firstLevelEnd);
        ChangePoints.Point p = ChangePoints.tTest(both, 0, lastLevel.length, both.length);
        if (p.pValue() <= ChangePoints.MAX_P_VALUE) {
          int run = runs.get(stretch.get(0));
          steps.add(new Step(key, Kind.TIME, run, compared.get(run), p.meanBefore(),
              p.meanAfter(), p.pValue(), startedBy.get(s)));
        }
      }
      for (ChangePoints.Point p : points) {
        int run = runs.get(stretch.get(p.index()));
        steps.add(new Step(key, Kind.TIME, run, compared.get(run), p.meanBefore(),
            p.meanAfter(), p.pValue(), null));
      }
      int lastStart = points.isEmpty() ? 0 : points.get(points.size() - 1).index();
      lastLevel = java.util.Arrays.copyOfRange(times, lastStart, times.length);
    }
    steps.sort(Comparator.comparingInt(Step::run).thenComparing(Step::kind));
    int since = runs.get(0);
    for (Step st : steps) {
      since = Math.max(since, st.run());
    }
    for (int s = 1; s < stretches.size(); s++) {
      since = Math.max(since, runs.get(stretches.get(s).get(0)));
    }
    return new Trend(key, List.copyOf(runs), List.copyOf(cells), List.copyOf(steps), since);
  }

  /** The mark cutting between compared runs {@code before} (exclusive) and {@code run}. */
  private static History.Mark markedAt(Map<Integer, History.Mark> cuts, int before, int run) {
    History.Mark found = null;
    for (Map.Entry<Integer, History.Mark> cut : cuts.entrySet()) {
      if (cut.getKey() > before && cut.getKey() <= run) {
        found = cut.getValue();
      }
    }
    return found;
  }

  private static void countStep(List<Step> steps, String key, Kind kind, double before,
      double after, int run, List<History.Run> compared, History.Mark mark) {
    if (Double.isFinite(before) && Double.isFinite(after)
        && Math.abs(after - before) > COUNT_EPSILON) {
      steps.add(new Step(key, kind, run, compared.get(run), before, after, Double.NaN, mark));
    }
  }

  /** "+54%", "-12%". */
  static String percent(double change) {
    long pct = Math.round(change * 100);
    return (pct > 0 ? "+" : "") + pct + "%";
  }

  /** "p = 0.0002", two significant digits; "p < 0.000001" below that. */
  static String p(double p) {
    if (p < 1e-6) {
      return "p < 0.000001";
    }
    return "p = " + new BigDecimal(p).round(new MathContext(2)).stripTrailingZeros()
        .toPlainString();
  }
}
