package io.github.latencylab.gate;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.latencylab.env.LabEnvironment;
import io.github.latencylab.latency.Rtt;
import io.github.latencylab.report.Cell;
import io.github.latencylab.report.Median;
import io.github.latencylab.report.Results;
import io.github.latencylab.report.Series;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The committed regression baseline ({@code src/latency-baseline.json}): per cell (suite,
 * strategy, parameters, RTT) its round trips, statements and time per operation, and the
 * tolerances {@link BaselineComparison} applies. Written as pretty JSON with a stable order
 * ({@link Cell#ORDER}; numbers rounded to 0.001) so that a change to the committed file reads
 * as a reviewable diff.
 *
 * @param format the file format's version, {@value #FORMAT}
 * @param createdAt when the baseline was taken
 * @param profile the bench profile it was taken with (quick, full), or null
 * @param measuredOn one line on the machine and versions, or null
 * @param tolerances what a comparison allows
 * @param cells the cells in {@link Cell#ORDER}, each with its round trips, statements and time
 *     per operation, and for a predicted cell the model that predicted it (its note without
 *     the numbers, e.g. {@code predicted from executeBatch at 0.5ms}); the baseline keeps no
 *     other number (NaN)
 * @param noise by cell key, each measured cell's time noise over the repeats of the A/A run
 *     that made the baseline ({@code bench --repeat N --update-baseline}), which sizes its
 *     time gate ({@link TimeGate}); empty for a baseline of one run (then the time rules are
 *     the tolerances' ratios)
 * @param plans by cell key, a users' test's statements' plans by statement shape
 * @param after by cell key, what ran before a users' test in its run ("after 12 tests
 *     (3f2a9c1b)"): its allocations fail only after the same
 */
public record Baseline(int format, String createdAt, String profile, String measuredOn,
    Tolerances tolerances, List<Cell> cells, Map<String, TimeNoise> noise,
    Map<String, Map<String, StatementPlan>> plans, Map<String, String> after) {

  /**
   * The version of the file format this class writes: 2 since tests are keyed by their class's
   * full name (format 1 keyed them by its simple name; benchmarks' keys are the same in both).
   */
  public static final int FORMAT = 2;
  /** The oldest format this class reads. */
  public static final int OLDEST_FORMAT = 1;

  private static final ObjectMapper JSON = new ObjectMapper()
      .enable(SerializationFeature.INDENT_OUTPUT);

  public Baseline {
    tolerances = tolerances == null ? Tolerances.DEFAULTS : tolerances;
    List<Cell> sorted = new ArrayList<>(cells);
    sorted.sort(Cell.ORDER);
    cells = List.copyOf(sorted);
    noise = Map.copyOf(noise == null ? Map.of() : noise);
    Map<String, Map<String, StatementPlan>> sortedPlans = new TreeMap<>();
    (plans == null ? Map.<String, Map<String, StatementPlan>>of() : plans)
        .forEach((k, v) -> sortedPlans.put(k, Collections.unmodifiableMap(new TreeMap<>(v))));
    plans = Collections.unmodifiableMap(sortedPlans);
    after = Map.copyOf(after == null ? Map.of() : after);
  }

  /** A baseline of one run: no noise measured, no plans. */
  public Baseline(int format, String createdAt, String profile, String measuredOn,
      Tolerances tolerances, List<Cell> cells) {
    this(format, createdAt, profile, measuredOn, tolerances, cells, Map.of(), Map.of(),
        Map.of());
  }

  /**
   * This baseline with what a users' test run adds, by cell key: the plans each test's
   * statements ran with (by shape), and what ran before each ("after 12 tests (3f2a9c1b)").
   */
  public Baseline withTests(Map<String, Map<String, StatementPlan>> newPlans,
      Map<String, String> newAfter) {
    return new Baseline(format, createdAt, profile, measuredOn, tolerances, cells, noise,
        newPlans, newAfter);
  }

  /**
   * This baseline with each measured cell's counted work ({@link WorkGate#KEPT}) taken from
   * {@code runs} of unchanged code: per counter, the median over the runs whose round trips and
   * statements are the cell's; its time, noise and the rest kept. A baseline written before the
   * work was counted gets it so, without its times measured again.
   */
  public Baseline withWork(List<Results> runs) {
    Map<String, Cell> byKey = byKey();
    Map<String, Map<String, List<Double>>> counted = new LinkedHashMap<>();
    for (Results run : runs) {
      for (Cell c : run.cells()) {
        Cell b = byKey.get(c.key());
        if (b == null || b.predicted() || c.predicted()
            || Math.abs(b.roundTripsPerOp() - c.roundTripsPerOp()) > tolerances.countEpsilon()
            || Math.abs(b.statementsPerOp() - c.statementsPerOp()) > tolerances.countEpsilon()) {
          continue;
        }
        WorkGate.KEPT.forEach(name -> {
          Double v = c.server().get(name);
          if (v != null && Double.isFinite(v)) {
            counted.computeIfAbsent(c.key(), k -> new LinkedHashMap<>())
                .computeIfAbsent(name, n -> new ArrayList<>()).add(v);
          }
        });
      }
    }
    List<Cell> withWork = new ArrayList<>();
    for (Cell b : cells) {
      Map<String, Double> work = new LinkedHashMap<>(b.server());
      counted.getOrDefault(b.key(), Map.of()).forEach((name, values) ->
          work.put(name, round(Median.of(values))));
      withWork.add(new Cell(b.series(), b.rtt(), b.addedRttMs(), b.baselineRttMs(), b.timeMs(),
          b.timeErrorMs(), b.roundTripsPerOp(), b.statementsPerOp(), b.rowsPerSecond(), work,
          b.prediction(), b.windowRoundTripsPerOp(), b.spread()));
    }
    return new Baseline(format, createdAt, profile, measuredOn, tolerances, withWork, noise,
        plans, after);
  }

  /**
   * What a comparison allows.
   *
   * @param timeRatio a measured time may be up to this many times its baseline time (plus
   *     the floor): generous, for a shared 2-core machine where a cell's time can double
   * @param modelRatio a measured time may be up to this many times the model's time from the
   *     series' measured cells at lower RTTs (plus the floor)
   * @param timeFloorMs added to both time limits, so that sub-millisecond cells do not fail
   *     on scheduling noise
   * @param countEpsilon how far round trips and statements per operation may differ (they
   *     are deterministic; the epsilon only absorbs averaging over iterations)
   * @param falseAlarmRate for cells whose noise the baseline measured: the share of runs of
   *     unchanged code the time gate may fail, across all its cells ({@link TimeGate}); such a
   *     cell is judged by its noise, not by {@code timeRatio}
   * @param work how far counted work may move ({@link WorkGate})
   */
  public record Tolerances(double timeRatio, double modelRatio, double timeFloorMs,
      double countEpsilon, double falseAlarmRate, WorkTolerances work) {

    public static final Tolerances DEFAULTS = new Tolerances(3.0, 2.0, 2.0, 0.01, 0.01,
        WorkTolerances.DEFAULTS);

    public Tolerances {
      check("timeRatio", timeRatio, 1);
      check("modelRatio", modelRatio, 1);
      check("timeFloorMs", timeFloorMs, 0);
      check("countEpsilon", countEpsilon, 0);
      if (!(falseAlarmRate > 0 && falseAlarmRate <= 0.5)) {
        throw new IllegalArgumentException("Invalid baseline tolerance falseAlarmRate = "
            + falseAlarmRate + ": must be more than 0 and at most 0.5 (e.g. 0.01: 1% of runs"
            + " of unchanged code)");
      }
      work = work == null ? WorkTolerances.DEFAULTS : work;
    }

    /** The tolerances with the default false-alarm rate and work tolerances. */
    public Tolerances(double timeRatio, double modelRatio, double timeFloorMs,
        double countEpsilon) {
      this(timeRatio, modelRatio, timeFloorMs, countEpsilon, DEFAULTS.falseAlarmRate(), null);
    }

    private static void check(String name, double value, double min) {
      if (!(value >= min) || Double.isInfinite(value)) {
        throw new IllegalArgumentException("Invalid baseline tolerance " + name + " = " + value
            + ": must be a finite number of at least " + (min == 1 ? "1" : "0"));
      }
    }
  }

  /**
   * The model of a predicted cell's note: the note up to its numbers, so that two
   * predictions made the same way from the same source compare equal ("predicted from
   * executeBatch at 0.5ms: 4.84 ms + ..." -> "predicted from executeBatch at 0.5ms").
   */
  public static String model(String note) {
    if (note == null || note.isBlank()) {
      return "predicted";
    }
    int colon = note.indexOf(": ");
    String model = colon < 0 ? note.trim() : note.substring(0, colon).trim();
    return model.equals("predicted") ? note.trim() : model; // notes of earlier versions
  }

  /**
   * The baseline's cell of a measured or predicted one: counts, time and counted work
   * ({@link WorkGate#KEPT}), rounded.
   */
  static Cell cellOf(Cell c) {
    Map<String, Double> work = new LinkedHashMap<>();
    WorkGate.KEPT.forEach(name -> {
      Double v = c.server().get(name);
      if (v != null && Double.isFinite(v)) {
        work.put(name, round(v));
      }
    });
    return new Cell(c.series(), c.rtt(), Double.NaN, Double.NaN, round(c.timeMs()),
        Double.NaN, round(c.roundTripsPerOp()), round(c.statementsPerOp()), Double.NaN,
        work, c.predicted() ? model(c.prediction()) : null, 0, null);
  }

  /** A baseline of every cell of {@code results}, with the default tolerances. */
  public static Baseline from(Results results) {
    return from(results, Tolerances.DEFAULTS);
  }

  /** A baseline of every cell of {@code results} (the last of duplicate cells wins). */
  public static Baseline from(Results results, Tolerances tolerances) {
    Map<String, Cell> cells = new LinkedHashMap<>();
    for (Cell c : results.cells()) {
      cells.put(c.key(), cellOf(c));
    }
    return new Baseline(FORMAT, Instant.now().toString(), results.profile(),
        measuredOn(results.environment()), tolerances, new ArrayList<>(cells.values()));
  }

  /**
   * A baseline of the repeats of an A/A run, in the order run: the last repeat's cells, a
   * measured cell's time the median of its repeats', and each measured cell's {@link
   * TimeNoise}. The repeats' counts must agree (the caller checks: they are never noise).
   */
  public static Baseline from(List<Results> repeats, Tolerances tolerances) {
    Results last = repeats.get(repeats.size() - 1);
    if (repeats.size() == 1) {
      return from(last, tolerances);
    }
    Map<String, List<Double>> times = new LinkedHashMap<>();
    for (Results r : repeats) {
      for (Cell c : r.cells()) {
        if (!c.predicted() && Double.isFinite(c.timeMs())) {
          times.computeIfAbsent(c.key(), k -> new ArrayList<>()).add(c.timeMs());
        }
      }
    }
    List<Cell> cells = new ArrayList<>();
    for (Cell c : last.cells()) {
      List<Double> ts = times.get(c.key());
      cells.add(cellOf(c.predicted() || ts == null ? c : c.withTime(Median.of(ts), Double.NaN)));
    }
    return new Baseline(FORMAT, Instant.now().toString(), last.profile(),
        measuredOn(last.environment()), tolerances, cells,
        TimeNoise.of(repeats, tolerances.timeFloorMs()), Map.of(), Map.of());
  }

  /**
   * Rewrites {@code file} as the baseline of {@code results}, keeping the tolerances the file
   * has (a team may have tuned them) or the defaults when it does not exist yet.
   */
  public static Baseline update(Results results, Path file) throws IOException {
    return update(List.of(results), file);
  }

  /**
   * Rewrites {@code file} as the baseline of a users' test run: {@code results}' cells with the
   * plans of their statements (by cell key and statement shape) and what ran before each, the
   * tolerances the file has.
   */
  public static Baseline update(Results results, Map<String, Map<String, StatementPlan>> plans,
      Map<String, String> after, Path file) throws IOException {
    Tolerances tolerances = Files.exists(file) ? read(file).tolerances() : Tolerances.DEFAULTS;
    Baseline baseline = from(results, tolerances).withTests(plans, after);
    baseline.write(file);
    return baseline;
  }

  /** Rewrites {@code file} as the baseline of an A/A run's repeats (see {@link #from(List, Tolerances)}). */
  public static Baseline update(List<Results> repeats, Path file) throws IOException {
    Tolerances tolerances = Files.exists(file) ? read(file).tolerances() : Tolerances.DEFAULTS;
    Baseline baseline = from(repeats, tolerances);
    baseline.write(file);
    return baseline;
  }

  /** The time gate sized by this baseline's noise (judges no cell when it has none). */
  TimeGate timeGate(boolean measuredAgain) {
    return new TimeGate(noise, tolerances, measuredAgain);
  }

  /**
   * Whether {@code results} ran on a machine of the kind this baseline was measured on, or
   * either does not say: noise measured on one kind of machine sizes no gate on another.
   */
  boolean measuredAlike(Results results) {
    return machineDifference(results) == null;
  }

  /**
   * What differs between the machine this baseline's noise was measured on and the one {@code
   * results} ran on, e.g. "the backend (embedded, testcontainers)", or null where they are of
   * one kind or either does not say. What changes time counts: the backend, PostgreSQL's
   * version, Java's, the OS and architecture, the CPUs; a kernel's version and build tag
   * ("Linux 6.18.44-fc-v657") do not: another VM of the same kind has another.
   */
  String machineDifference(Results results) {
    String here = measuredOn(results.environment());
    if (measuredOn == null || here == null) {
      return null;
    }
    List<String> before = List.of(measuredOn.split(", "));
    List<String> now = List.of(here.split(", "));
    if (before.size() != now.size()) {
      return "the machine";
    }
    for (int i = 0; i < before.size(); i++) {
      if (!kind(before.get(i)).equals(kind(now.get(i)))) {
        return "the " + part(before.get(i)) + " (" + before.get(i) + ", " + now.get(i) + ")";
      }
    }
    return null;
  }

  // "Linux 6.18.44-fc-v657 amd64" -> "Linux amd64": the OS and architecture, not the kernel
  private static String kind(String part) {
    String[] words = part.split(" ");
    return words.length == 3 ? words[0] + " " + words[2] : part;
  }

  private static String part(String part) {
    return part.endsWith(" backend") ? "backend" : part.startsWith("PostgreSQL ") ? "PostgreSQL"
        : part.startsWith("Java ") ? "Java" : part.endsWith(" CPUs") ? "CPUs"
        : "OS or architecture";
  }

  /** The cells by key. */
  public Map<String, Cell> byKey() {
    Map<String, Cell> map = new LinkedHashMap<>();
    cells.forEach(c -> map.put(c.key(), c));
    return map;
  }

  /**
   * This baseline with only the cells {@code keep} has; the noise of them all is kept (the
   * time gate shares its false-alarm rate across every cell the baseline measured, so a run of
   * part of the suites is judged as strictly as the whole).
   */
  public Baseline only(java.util.Set<String> keep) {
    Map<String, Map<String, StatementPlan>> kept = new LinkedHashMap<>(plans);
    kept.keySet().retainAll(keep);
    Map<String, String> keptAfter = new LinkedHashMap<>(after);
    keptAfter.keySet().retainAll(keep);
    return new Baseline(format, createdAt, profile, measuredOn, tolerances,
        cells.stream().filter(c -> keep.contains(c.key())).toList(), noise, kept, keptAfter);
  }

  /**
   * {@link #only} of each key, made in one pass: a test run compares every test with its own
   * entry, and {@code only} of one key reads the whole baseline (a suite's comparisons would
   * grow with the square of its tests). A key the baseline does not have is {@code only} of
   * none: {@code getOrDefault(key, only(Set.of()))}.
   */
  public Map<String, Baseline> onlyByKey() {
    Map<String, List<Cell>> cellsByKey = new LinkedHashMap<>();
    for (Cell c : cells) {
      cellsByKey.computeIfAbsent(c.key(), k -> new ArrayList<>()).add(c);
    }
    Set<String> keys = new LinkedHashSet<>(cellsByKey.keySet());
    keys.addAll(plans.keySet());
    keys.addAll(after.keySet());
    Map<String, Baseline> byKey = new HashMap<>();
    for (String key : keys) {
      Map<String, Map<String, StatementPlan>> keptPlans = new LinkedHashMap<>();
      if (plans.containsKey(key)) {
        keptPlans.put(key, plans.get(key));
      }
      Map<String, String> keptAfter = new LinkedHashMap<>();
      if (after.containsKey(key)) {
        keptAfter.put(key, after.get(key));
      }
      byKey.put(key, new Baseline(format, createdAt, profile, measuredOn, tolerances,
          List.copyOf(cellsByKey.getOrDefault(key, List.of())), noise, keptPlans, keptAfter));
    }
    return byKey;
  }

  /** This baseline with {@code newPlans} (by cell key, by statement shape) for its plans. */
  public Baseline withPlans(Map<String, Map<String, StatementPlan>> newPlans) {
    return withTests(newPlans, after);
  }

  /**
   * Writes a run's plans, by cell key and statement shape, as a baseline keeps them (a bench
   * run's plans.json, beside its results.json).
   */
  public static void writePlans(Path file, Map<String, Map<String, StatementPlan>> plans)
      throws IOException {
    ObjectNode root = JSON.createObjectNode();
    new TreeMap<>(plans).forEach((key, cellPlans) -> plansJson(root.putObject(key), cellPlans));
    Files.writeString(file, JSON.writeValueAsString(root) + "\n");
  }

  /** The plans {@link #writePlans} wrote. */
  public static Map<String, Map<String, StatementPlan>> readPlans(Path file) throws IOException {
    Map<String, Map<String, StatementPlan>> plans = new LinkedHashMap<>();
    JSON.readTree(file.toFile()).properties().forEach(e -> plans.put(e.getKey(),
        plansOf(e.getValue())));
    return plans;
  }

  private static void plansJson(ObjectNode p, Map<String, StatementPlan> cellPlans) {
    cellPlans.forEach((shape, plan) -> {
      ObjectNode o = p.putObject(shape);
      o.put("callSite", plan.callSite());
      o.put("plan", plan.plan());
      number(o, "blocksPerCall", round(plan.blocksPerCall()));
      o.put("tableRows", plan.tableRows());
    });
  }

  private static Map<String, StatementPlan> plansOf(JsonNode p) {
    Map<String, StatementPlan> cellPlans = new LinkedHashMap<>();
    p.properties().forEach(e -> cellPlans.put(e.getKey(), new StatementPlan(
        e.getValue().path("callSite").asText(null), e.getValue().path("plan").asText(null),
        Results.number(e.getValue().path("blocksPerCall")),
        e.getValue().path("tableRows").asLong(0), Double.NaN)));
    return cellPlans;
  }

  /** Writes the baseline as pretty JSON, keys in a stable order, ending with a newline. */
  public void write(Path file) throws IOException {
    ObjectNode root = JSON.createObjectNode();
    root.put("format", format);
    root.put("about", "latency-lab regression baseline: round trips and statements per"
        + " operation must match exactly; time per operation off the wire within its noise (the"
        + " cells with \"noise\", from bench --repeat N --update-baseline) or within the"
        + " tolerances' ratios. See"
        + " docs/reading-results.md. Update on purpose: -Dlatencylab.updateBaseline=true");
    root.put("createdAt", createdAt);
    root.put("profile", profile);
    root.put("measuredOn", measuredOn);
    ObjectNode t = root.putObject("tolerances");
    t.put("timeRatio", tolerances.timeRatio());
    t.put("modelRatio", tolerances.modelRatio());
    t.put("timeFloorMs", tolerances.timeFloorMs());
    t.put("countEpsilon", tolerances.countEpsilon());
    t.put("falseAlarmRate", tolerances.falseAlarmRate());
    t.set("work", JSON.valueToTree(tolerances.work())); // its components, in order
    ObjectNode all = root.putObject("cells");
    for (Cell c : cells) {
      ObjectNode n = all.putObject(c.key());
      n.put("suite", c.suite());
      n.put("strategy", c.strategy());
      ObjectNode params = n.putObject("params");
      c.params().forEach(params::put);
      n.put("rtt", c.rtt().toString());
      n.put("rttMs", c.rtt().millis());
      number(n, "roundTripsPerOp", c.roundTripsPerOp());
      number(n, "statementsPerOp", c.statementsPerOp());
      number(n, "timeMs", c.timeMs());
      n.put("predicted", c.predicted());
      if (c.predicted()) {
        n.put("model", c.prediction());
      }
      if (!c.server().isEmpty()) {
        ObjectNode work = n.putObject("work");
        WorkGate.KEPT.stream().filter(c.server()::containsKey)
            .forEach(name -> work.put(name, c.server().get(name)));
      }
      if (after.containsKey(c.key())) {
        n.put("after", after.get(c.key()));
      }
      Map<String, StatementPlan> cellPlans = plans.get(c.key());
      if (cellPlans != null && !cellPlans.isEmpty()) {
        plansJson(n.putObject("plans"), cellPlans);
      }
      TimeNoise tn = noise.get(c.key());
      if (tn != null) {
        ObjectNode o = n.putObject("noise");
        o.put("repeats", tn.repeats());
        o.put("offWireMs", round(tn.offWireMs()));
        o.put("logSd", Math.round(tn.logSd() * 10_000) / 10_000.0);
      }
    }
    Files.createDirectories(file.toAbsolutePath().getParent());
    Files.writeString(file, JSON.writeValueAsString(root) + "\n");
  }

  /**
   * Reads a baseline; an IllegalArgumentException naming the file and what is wrong when it
   * is missing or malformed. Tolerances absent from the file take their defaults.
   */
  public static Baseline read(Path file) {
    JsonNode root;
    try {
      root = JSON.readTree(Files.readString(file));
    } catch (NoSuchFileException e) {
      throw new IllegalArgumentException("Cannot read the baseline " + file + ": no such file"
          + " (create it with -Dlatencylab.updateBaseline=true)");
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("Cannot read the baseline " + file + ": not JSON ("
          + e.getOriginalMessage() + " at line " + e.getLocation().getLineNr() + ")");
    } catch (IOException e) {
      throw new IllegalArgumentException("Cannot read the baseline " + file + ": " + e);
    }
    if (root == null || !root.isObject() || !root.path("cells").isObject()) {
      throw new IllegalArgumentException("Cannot read the baseline " + file + ": expected an"
          + " object with \"cells\" (a latency-lab baseline, format " + FORMAT + ")");
    }
    int format = root.path("format").asInt(FORMAT);
    if (format < OLDEST_FORMAT || format > FORMAT) {
      throw new IllegalArgumentException("Cannot read the baseline " + file + ": format "
          + format + ", this version reads formats " + OLDEST_FORMAT + " to " + FORMAT);
    }
    JsonNode t = root.path("tolerances");
    Tolerances d = Tolerances.DEFAULTS;
    Tolerances tolerances;
    try {
      tolerances = new Tolerances(t.path("timeRatio").asDouble(d.timeRatio()),
          t.path("modelRatio").asDouble(d.modelRatio()),
          t.path("timeFloorMs").asDouble(d.timeFloorMs()),
          t.path("countEpsilon").asDouble(d.countEpsilon()),
          t.path("falseAlarmRate").asDouble(d.falseAlarmRate()), workTolerances(t.path("work")));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("Cannot read the baseline " + file + ": "
          + e.getMessage(), e);
    }
    List<Cell> cells = new ArrayList<>();
    Map<String, TimeNoise> noise = new LinkedHashMap<>();
    Map<String, Map<String, StatementPlan>> plans = new LinkedHashMap<>();
    Map<String, String> after = new LinkedHashMap<>();
    for (Map.Entry<String, JsonNode> e : root.path("cells").properties()) {
      JsonNode n = e.getValue();
      for (String required : new String[] {"suite", "strategy", "rtt"}) {
        if (!n.path(required).isTextual()) {
          throw new IllegalArgumentException("Cannot read the baseline " + file + ": cell '"
              + e.getKey() + "' has no \"" + required + "\"");
        }
      }
      Map<String, String> params = new TreeMap<>();
      n.path("params").properties().forEach(p -> params.put(p.getKey(), p.getValue().asText()));
      Rtt rtt = Results.rtt("the baseline " + file + ", cell '" + e.getKey() + "'",
          n.path("rtt").asText());
      cells.add(new Cell(Series.of(n.path("suite").asText(), n.path("strategy").asText(),
          params), rtt, Double.NaN, Double.NaN, Results.number(n.path("timeMs")), Double.NaN,
          Results.number(n.path("roundTripsPerOp")), Results.number(n.path("statementsPerOp")),
          Double.NaN, work(n.path("work")),
          n.path("predicted").asBoolean(false) ? n.path("model").asText("predicted") : null, 0,
          null));
      if (n.path("after").isTextual()) {
        after.put(e.getKey(), n.path("after").asText());
      }
      if (n.path("plans").isObject()) {
        plans.put(e.getKey(), plansOf(n.path("plans")));
      }
      JsonNode tn = n.path("noise");
      if (tn.isObject()) {
        try {
          noise.put(e.getKey(), new TimeNoise(n.path("suite").asText(),
              tn.path("repeats").asInt(0), Results.number(tn.path("offWireMs")),
              Results.number(tn.path("logSd"))));
        } catch (IllegalArgumentException bad) {
          throw new IllegalArgumentException("Cannot read the baseline " + file + ": cell '"
              + e.getKey() + "': " + bad.getMessage(), bad);
        }
      }
    }
    return new Baseline(format, root.path("createdAt").asText(null),
        root.path("profile").asText(null), root.path("measuredOn").asText(null), tolerances,
        cells, noise, plans, after);
  }

  // a cell's counted work by WorkGate's names; absent ones are not compared
  private static Map<String, Double> work(JsonNode work) {
    Map<String, Double> out = new LinkedHashMap<>();
    WorkGate.KEPT.forEach(name -> {
      if (work.path(name).isNumber()) {
        out.put(name, work.path(name).asDouble());
      }
    });
    return out;
  }

  private static WorkTolerances workTolerances(JsonNode w) {
    WorkTolerances d = WorkTolerances.DEFAULTS;
    return new WorkTolerances(w.path("bytesEpsilon").asDouble(d.bytesEpsilon()),
        w.path("blocksRatio").asDouble(d.blocksRatio()),
        w.path("blocksFloor").asLong(d.blocksFloor()),
        w.path("walRatio").asDouble(d.walRatio()),
        w.path("walFloorBytes").asLong(d.walFloorBytes()),
        w.path("tempRatio").asDouble(d.tempRatio()),
        w.path("tempFloorBytes").asLong(d.tempFloorBytes()),
        w.path("allocatedRatio").asDouble(d.allocatedRatio()),
        w.path("allocatedFloorBytes").asLong(d.allocatedFloorBytes()),
        w.path("planMinTableRows").asLong(d.planMinTableRows()));
  }

  private static void number(ObjectNode n, String name, double value) {
    if (Double.isNaN(value) || Double.isInfinite(value)) {
      n.putNull(name);
    } else {
      n.put(name, value);
    }
  }

  private static double round(double v) {
    return Double.isFinite(v) ? Math.round(v * 1000) / 1000.0 : v;
  }

  /** "embedded backend, PostgreSQL 17.6, Java 17.0.15, Linux ..., 2 CPUs", or null. */
  static String measuredOn(LabEnvironment env) {
    if (env == null) {
      return null;
    }
    List<String> parts = new ArrayList<>();
    if (env.backend() != null) {
      parts.add(env.backend() + " backend");
    }
    if (env.postgresVersion() != null) {
      parts.add("PostgreSQL " + env.postgresVersion());
    }
    if (env.javaVersion() != null) {
      parts.add("Java " + env.javaVersion());
    }
    if (env.os() != null) {
      parts.add(env.os());
    }
    if (env.cpus() > 0) {
      parts.add(env.cpus() + " CPUs");
    }
    return parts.isEmpty() ? null : String.join(", ", parts);
  }
}
