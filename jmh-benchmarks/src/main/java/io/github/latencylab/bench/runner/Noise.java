package io.github.latencylab.bench.runner;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.latencylab.gate.Baseline;
import io.github.latencylab.report.Cell;
import io.github.latencylab.report.Format;
import io.github.latencylab.report.LatencyModel;
import io.github.latencylab.report.Median;
import io.github.latencylab.report.Results;
import io.github.latencylab.report.Series;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.ToDoubleFunction;

/**
 * The noise of an A/A run ({@code bench --repeat N}): the same cells on unchanged code, N full
 * passes over the plan. Per measured cell, the spread of its time per operation; per row, the
 * spread of the model's T0 fitted on each repeat's measured cells; per cell, whether a count
 * moved (round trips and statements must not: they are counted, not timed; window flights
 * per operation may, and are listed apart: an iteration's cold-window flights are spread over
 * as many operations as fit in its time, so their average per operation follows the clock).
 *
 * <p>The statistics, defined once: the median and quantiles interpolate linearly between the
 * sorted values (numpy's default, R's type 7); the coefficient of variation is the sample
 * standard deviation (n - 1) over the mean's magnitude; a pair ratio is the larger of two
 * repeats' times over the smaller, for every pair; a threshold is the upper outer fence of
 * those ratios, Q3 + 3 IQR, as rustls' CI bench runner sets its per-benchmark significance
 * threshold. A cell predicted in a repeat has no time of its own there (the model's) and is
 * left out of that repeat's time spread; its counts are compared all the same.
 */
public final class Noise {

  /** How far a count may move: the baseline's, which only absorbs averaging over iterations. */
  static final double COUNT_EPSILON = Baseline.Tolerances.DEFAULTS.countEpsilon();

  /** N values' median, extremes, mean and sample standard deviation. */
  record Spread(int n, double median, double min, double max, double mean, double sd) {
    static Spread of(List<Double> values) {
      double[] xs = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
      double mean = Arrays.stream(xs).sum() / xs.length;
      double ss = Arrays.stream(xs).map(x -> (x - mean) * (x - mean)).sum();
      return new Spread(xs.length, Median.quantile(xs, 0.5), xs[0], xs[xs.length - 1], mean,
          xs.length > 1 ? Math.sqrt(ss / (xs.length - 1)) : Double.NaN);
    }

    /** The coefficient of variation: sd / |mean| (T0 may be near zero: then read sd). */
    double cv() {
      return sd / Math.abs(mean);
    }

    double maxOverMin() {
      return max / min;
    }
  }

  /** A cell's time per operation in the repeats that measured it (NaN where predicted). */
  record CellNoise(Cell first, List<Double> timesMs, Spread time, double threshold) {
    String key() {
      return first.key();
    }
  }

  /** A row's T0, fitted on each repeat's measured cells of it (NaN where none). */
  record RowNoise(Series series, List<Double> t0Ms, Spread t0) {}

  /** A count that moved across repeats: its values, NaN where a repeat lacks the cell. */
  record MovedCount(String key, String what, List<Double> values) {
    @Override
    public String toString() {
      return key + ": " + what + " moved across repeats: " + String.join(", ",
          values.stream().map(Format::count).toList());
    }
  }

  /** A suite's measured cells: the median and largest CV, and the pooled pair ratios' fence. */
  record SuiteNoise(String suite, int cells, double medianCv, double maxCv, double threshold) {}

  final int repeats;
  final List<CellNoise> cells = new ArrayList<>();
  final List<RowNoise> rows = new ArrayList<>();
  final List<MovedCount> moved = new ArrayList<>();
  /** Window flights per operation that moved: reported, never a failure (see above). */
  final List<MovedCount> flightsMoved = new ArrayList<>();
  final List<SuiteNoise> suites = new ArrayList<>();
  /** Per repeat, the median over cells of its time over the cell's median: drift shows here. */
  final List<Double> drift = new ArrayList<>();
  /** Every measured cell's pair ratios, pooled: what one threshold for all cells would be. */
  final double threshold;

  private Noise(int repeats, double threshold) {
    this.repeats = repeats;
    this.threshold = threshold;
  }

  /** The noise of {@code repeats}, each a whole pass over the same plan, in the order run. */
  public static Noise of(List<Results> repeats) {
    if (repeats.size() < 2) {
      throw new IllegalArgumentException("Noise needs two repeats at least, got "
          + repeats.size());
    }
    int n = repeats.size();
    Map<String, Cell[]> byKey = new TreeMap<>();
    for (int r = 0; r < n; r++) {
      for (Cell c : repeats.get(r).cells()) {
        byKey.computeIfAbsent(c.key(), k -> new Cell[n])[r] = c;
      }
    }
    List<Double> pooled = new ArrayList<>();
    Map<String, List<Double>> pooledBySuite = new TreeMap<>();
    Map<String, List<Double>> cvBySuite = new TreeMap<>();
    List<CellNoise> cells = new ArrayList<>();
    List<MovedCount> moved = new ArrayList<>();
    List<MovedCount> flightsMoved = new ArrayList<>();
    for (Map.Entry<String, Cell[]> e : byKey.entrySet()) {
      Cell[] at = e.getValue();
      moved(e.getKey(), "round trips/op", at, Cell::roundTripsPerOp).ifPresent(moved::add);
      moved(e.getKey(), "statements/op", at, Cell::statementsPerOp).ifPresent(moved::add);
      moved(e.getKey(), "window flights/op", at, Cell::windowRoundTripsPerOp)
          .ifPresent(flightsMoved::add);
      List<Double> times = new ArrayList<>();
      List<Double> measured = new ArrayList<>();
      Cell first = null;
      for (Cell c : at) {
        boolean ok = c != null && !c.predicted() && Double.isFinite(c.timeMs());
        times.add(ok ? c.timeMs() : Double.NaN);
        if (ok) {
          measured.add(c.timeMs());
          first = first == null ? c : first;
        }
      }
      if (measured.size() < 2) {
        continue;
      }
      List<Double> ratios = pairRatios(measured);
      pooled.addAll(ratios);
      pooledBySuite.computeIfAbsent(first.suite(), k -> new ArrayList<>()).addAll(ratios);
      Spread time = Spread.of(measured);
      cvBySuite.computeIfAbsent(first.suite(), k -> new ArrayList<>()).add(time.cv());
      cells.add(new CellNoise(first, times, time, fence(ratios)));
    }
    Noise noise = new Noise(n, pooled.isEmpty() ? Double.NaN : fence(pooled));
    cells.sort((a, b) -> Cell.ORDER.compare(a.first(), b.first()));
    noise.cells.addAll(cells);
    noise.moved.addAll(moved);
    noise.flightsMoved.addAll(flightsMoved);
    cvBySuite.forEach((suite, cvs) -> noise.suites.add(new SuiteNoise(suite, cvs.size(),
        Spread.of(cvs).median(), Spread.of(cvs).max(), fence(pooledBySuite.get(suite)))));
    for (int r = 0; r < n; r++) {
      List<Double> ratios = new ArrayList<>();
      for (CellNoise c : cells) {
        if (Double.isFinite(c.timesMs().get(r))) {
          ratios.add(c.timesMs().get(r) / c.time().median());
        }
      }
      noise.drift.add(ratios.isEmpty() ? Double.NaN : Spread.of(ratios).median());
    }
    noise.rows.addAll(rows(repeats));
    return noise;
  }

  /** Each row's T0 from each repeat's fit on that repeat's measured cells of the row. */
  private static List<RowNoise> rows(List<Results> repeats) {
    Map<Series, Double[]> t0 = new TreeMap<>();
    for (int r = 0; r < repeats.size(); r++) {
      Map<Series, List<Cell>> measured = new TreeMap<>();
      for (Cell c : repeats.get(r).cells()) {
        if (!c.predicted() && LatencyModel.canUse(c)) {
          measured.computeIfAbsent(c.series(), k -> new ArrayList<>()).add(c);
        }
      }
      for (Map.Entry<Series, List<Cell>> e : measured.entrySet()) {
        t0.computeIfAbsent(e.getKey(), k -> filled(repeats.size()))[r] =
            LatencyModel.fit(e.getValue()).t0Ms();
      }
    }
    List<RowNoise> rows = new ArrayList<>();
    t0.forEach((series, values) -> {
      List<Double> known = Arrays.stream(values).filter(Double::isFinite).toList();
      if (known.size() >= 2) {
        rows.add(new RowNoise(series, List.of(values), Spread.of(known)));
      }
    });
    return rows;
  }

  private static Double[] filled(int n) {
    Double[] a = new Double[n];
    Arrays.fill(a, Double.NaN);
    return a;
  }

  /** A count that differs by more than {@link #COUNT_EPSILON}, or is missing, in a repeat. */
  private static Optional<MovedCount> moved(String key, String what, Cell[] at,
      ToDoubleFunction<Cell> count) {
    List<Double> values = new ArrayList<>();
    for (Cell c : at) {
      values.add(c == null ? Double.NaN : count.applyAsDouble(c));
    }
    double first = values.get(0);
    boolean moved = values.stream().anyMatch(v -> Double.isNaN(v) != Double.isNaN(first)
        || Math.abs(v - first) > COUNT_EPSILON);
    return moved ? Optional.of(new MovedCount(key, what, values))
        : Optional.empty();
  }

  /** The larger over the smaller of every pair of {@code times}. */
  static List<Double> pairRatios(List<Double> times) {
    List<Double> ratios = new ArrayList<>();
    for (int i = 0; i < times.size(); i++) {
      for (int j = i + 1; j < times.size(); j++) {
        double a = times.get(i);
        double b = times.get(j);
        ratios.add(Math.max(a, b) / Math.min(a, b));
      }
    }
    return ratios;
  }

  /** Q3 + 3 IQR: Tukey's upper outer fence, beyond which a value is far out. */
  static double fence(List<Double> values) {
    double[] xs = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    double q1 = Median.quantile(xs, 0.25);
    double q3 = Median.quantile(xs, 0.75);
    return q3 + 3 * (q3 - q1);
  }

  /** The p-quantile of the cells' time CVs, or of the rows' T0 CVs. */
  double timeCv(double p) {
    return Median.quantile(cells.stream().mapToDouble(c -> c.time().cv()).sorted().toArray(), p);
  }

  double t0Cv(double p) {
    return Median.quantile(rows.stream().mapToDouble(r -> r.t0().cv()).sorted().toArray(), p);
  }

  /**
   * noise.json: every number above, with the repeats' results.json files it came from; the page
   * generator (docs/results/noise-page.py) reads it.
   */
  void writeJson(Path file, List<Path> runs, Results first) throws IOException {
    ObjectMapper json = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    ObjectNode root = json.createObjectNode();
    root.put("kind", "noise");
    root.put("createdAt", java.time.Instant.now().toString());
    root.put("profile", first.profile());
    root.put("repeats", repeats);
    root.put("environment", first.environment().description());
    ArrayNode files = root.putArray("runs");
    runs.forEach(p -> files.add(p.toString()));
    ObjectNode method = root.putObject("method");
    method.put("cv", "sample standard deviation (n - 1) over |mean|");
    method.put("quantiles", "linear interpolation between the sorted values (type 7)");
    method.put("pairRatio", "the larger over the smaller time of every pair of repeats");
    method.put("threshold", "Q3 + 3 IQR of the pair ratios");
    method.put("countEpsilon", COUNT_EPSILON);
    ObjectNode summary = root.putObject("summary");
    summary.put("cells", cells.size());
    summary.put("rows", rows.size());
    summary.set("timeCvMedian", number(timeCv(0.5)));
    summary.set("timeCvP90", number(timeCv(0.9)));
    summary.set("t0CvMedian", number(t0Cv(0.5)));
    summary.set("t0CvP90", number(t0Cv(0.9)));
    summary.set("threshold", number(threshold));
    summary.put("countsMoved", moved.size());
    summary.put("windowFlightsMoved", flightsMoved.size());
    numbers(summary.putArray("drift"), drift);
    ArrayNode s = root.putArray("suites");
    for (SuiteNoise x : suites) {
      ObjectNode o = s.addObject().put("suite", x.suite()).put("cells", x.cells());
      o.set("medianCv", number(x.medianCv()));
      o.set("maxCv", number(x.maxCv()));
      o.set("threshold", number(x.threshold()));
    }
    ArrayNode c = root.putArray("cells");
    for (CellNoise x : cells) {
      ObjectNode o = c.addObject().put("key", x.key()).put("suite", x.first().suite())
          .put("rtt", x.first().rtt().toString())
          .put("roundTripsPerOp", x.first().roundTripsPerOp());
      numbers(o.putArray("timesMs"), x.timesMs());
      spread(o, x.time()).set("threshold", number(x.threshold()));
    }
    ArrayNode r = root.putArray("rows");
    for (RowNoise x : rows) {
      ObjectNode o = r.addObject().put("series", x.series().key())
          .put("suite", x.series().suite());
      numbers(o.putArray("t0Ms"), x.t0Ms());
      spread(o, x.t0());
    }
    ArrayNode m = root.putArray("countsMoved");
    for (MovedCount x : moved) {
      ObjectNode o = m.addObject().put("key", x.key()).put("count", x.what());
      numbers(o.putArray("values"), x.values());
    }
    ArrayNode f = root.putArray("windowFlightsMoved");
    for (MovedCount x : flightsMoved) {
      ObjectNode o = f.addObject().put("key", x.key()).put("count", x.what());
      numbers(o.putArray("values"), x.values());
    }
    json.writeValue(file.toFile(), root);
  }

  private static ObjectNode spread(ObjectNode o, Spread s) {
    o.put("n", s.n());
    o.set("median", number(s.median()));
    o.set("min", number(s.min()));
    o.set("max", number(s.max()));
    o.set("mean", number(s.mean()));
    o.set("sd", number(s.sd()));
    o.set("cv", number(s.cv()));
    o.set("maxOverMin", number(s.maxOverMin()));
    return o;
  }

  /** A number, or null where there is none (JSON has no NaN). */
  private static JsonNode number(double v) {
    return Double.isFinite(v) ? DoubleNode.valueOf(v) : NullNode.getInstance();
  }

  private static void numbers(ArrayNode to, List<Double> values) {
    values.forEach(v -> to.add(number(v)));
  }

  /** noise.md: the headline, the suites, the noisiest cells and rows, any count that moved. */
  public String markdown() {
    StringBuilder md = new StringBuilder("# Noise: " + repeats + " repeats of the same cells\n\n");
    if (!moved.isEmpty()) {
      md.append("**COUNTS MOVED** (they are counted, not timed: this is never noise):\n\n");
      moved.forEach(x -> md.append("- ").append(x).append('\n'));
      md.append('\n');
    }
    md.append(String.format(Locale.ROOT, "%d measured cells: time per operation CV median %s,"
        + " 90th percentile %s, worst %s; %d rows: T0 CV median %s, 90th percentile %s;"
        + " pair ratios' Q3 + 3 IQR %s; counts moved: %d.%n%n", cells.size(), pct(timeCv(0.5)),
        pct(timeCv(0.9)), pct(timeCv(1)), rows.size(),
        pct(t0Cv(0.5)), pct(t0Cv(0.9)),
        ratio(threshold), moved.size()));
    if (!flightsMoved.isEmpty()) {
      md.append(String.format(Locale.ROOT, "Window flights per operation moved in %d cell%s (an"
          + " iteration's cold-window flights over a timed number of operations: reported, not"
          + " a failure).%n%n", flightsMoved.size(), flightsMoved.size() == 1 ? "" : "s"));
    }
    md.append("Drift (per repeat, the median over cells of its time / the cell's median): ")
        .append(String.join(", ", drift.stream().map(Noise::ratio).toList())).append("\n\n");
    md.append("| suite | cells | median CV | worst CV | Q3 + 3 IQR |\n|---|---:|---:|---:|---:|\n");
    for (SuiteNoise x : suites) {
      md.append("| ").append(x.suite()).append(" | ").append(x.cells()).append(" | ")
          .append(pct(x.medianCv())).append(" | ").append(pct(x.maxCv())).append(" | ")
          .append(ratio(x.threshold())).append(" |\n");
    }
    md.append("\n| cell | median | min | max | CV | max/min | Q3 + 3 IQR |\n"
        + "|---|---:|---:|---:|---:|---:|---:|\n");
    for (CellNoise x : cells) {
      Spread t = x.time();
      md.append("| ").append(x.key()).append(" | ").append(Format.duration(t.median()))
          .append(" | ").append(Format.duration(t.min())).append(" | ")
          .append(Format.duration(t.max())).append(" | ").append(pct(t.cv())).append(" | ")
          .append(ratio(t.maxOverMin())).append(" | ").append(ratio(x.threshold()))
          .append(" |\n");
    }
    md.append("\n| row | T0 median | min | max | sd | CV |\n|---|---:|---:|---:|---:|---:|\n");
    for (RowNoise x : rows) {
      Spread t = x.t0();
      md.append("| ").append(x.series().key()).append(" | ").append(Format.duration(t.median()))
          .append(" | ").append(Format.duration(t.min())).append(" | ")
          .append(Format.duration(t.max())).append(" | ").append(Format.duration(t.sd()))
          .append(" | ").append(pct(t.cv())).append(" |\n");
    }
    return md.toString();
  }

  static String pct(double v) {
    return Double.isFinite(v) ? String.format(Locale.ROOT, "%.1f%%", v * 100) : "-";
  }

  static String ratio(double v) {
    return Double.isFinite(v) ? String.format(Locale.ROOT, "%.2fx", v) : "-";
  }

  /** Whether a count that must not move (round trips, statements) moved. */
  public boolean countsMoved() {
    return !moved.isEmpty();
  }

  /** noise.json and noise.md in {@code dir}. */
  public void write(Path dir, List<Path> runs, Results first) throws IOException {
    writeJson(dir.resolve("noise.json"), runs, first);
    Files.writeString(dir.resolve("noise.md"), markdown());
  }
}
