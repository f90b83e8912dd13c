package io.github.latencylab.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.latencylab.env.LabEnvironment;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The committed regression baseline ({@code src/latency-baseline.json}): per cell (suite,
 * strategy, parameters, RTT) its round trips, statements and time per operation, and the
 * tolerances {@link BaselineComparison} applies. Written as pretty JSON with a stable order
 * (cells by suite, strategy, parameters, RTT; numbers rounded to 0.001) so that a change to
 * the committed file reads as a reviewable diff.
 *
 * @param format the file format's version, {@value #FORMAT}
 * @param createdAt when the baseline was taken
 * @param profile the bench profile it was taken with (quick, full), or null
 * @param measuredOn one line on the machine and versions, or null
 * @param tolerances what a comparison allows
 * @param cells the cells, in a stable order
 */
public record Baseline(int format, String createdAt, String profile, String measuredOn,
    Tolerances tolerances, List<Cell> cells) {

  /** The version of the file format this class writes and reads. */
  public static final int FORMAT = 1;

  private static final ObjectMapper JSON = new ObjectMapper()
      .enable(SerializationFeature.INDENT_OUTPUT);

  /** Cells by suite, strategy, parameters (numbers as numbers), then RTT. */
  public static final Comparator<Cell> ORDER = Comparator.comparing(Cell::suite)
      .thenComparing(Cell::strategy)
      .thenComparing(Cell::params, Baseline::compareParams)
      .thenComparingDouble(Cell::rttMs)
      .thenComparing(Cell::rtt);

  public Baseline {
    tolerances = tolerances == null ? Tolerances.DEFAULTS : tolerances;
    List<Cell> sorted = new ArrayList<>(cells);
    sorted.sort(ORDER);
    cells = List.copyOf(sorted);
  }

  /**
   * What a comparison allows.
   *
   * @param timeRatio a measured time may be up to this many times its baseline time (plus
   *     the floor): generous, for a shared 2-core machine where a cell's time can double
   * @param modelRatio a measured time may be up to this many times the model's time from the
   *     series' lowest-RTT cell (plus the floor)
   * @param timeFloorMs added to both time limits, so that sub-millisecond cells do not fail
   *     on scheduling noise
   * @param countEpsilon how far round trips and statements per operation may differ (they
   *     are deterministic; the epsilon only absorbs averaging over iterations)
   */
  public record Tolerances(double timeRatio, double modelRatio, double timeFloorMs,
      double countEpsilon) {

    public static final Tolerances DEFAULTS = new Tolerances(3.0, 2.0, 2.0, 0.01);

    public Tolerances {
      check("timeRatio", timeRatio, 1);
      check("modelRatio", modelRatio, 1);
      check("timeFloorMs", timeFloorMs, 0);
      check("countEpsilon", countEpsilon, 0);
    }

    private static void check(String name, double value, double min) {
      if (!(value >= min) || Double.isInfinite(value)) {
        throw new IllegalArgumentException("Invalid baseline tolerance " + name + " = " + value
            + ": must be a finite number of at least " + (min == 1 ? "1" : "0"));
      }
    }
  }

  /**
   * One cell of the baseline.
   *
   * @param model for a predicted cell, the model that predicted it (its note without the
   *     numbers, e.g. {@code predicted from executeBatch at 0.5ms}); null when measured
   */
  public record Cell(String suite, String strategy, SortedMap<String, String> params,
      String rtt, double rttMs, double roundTripsPerOp, double statementsPerOp, double timeMs,
      String model) {

    public Cell {
      params = new TreeMap<>(params == null ? Map.of() : params);
    }

    public boolean predicted() {
      return model != null;
    }

    /** "InsertBenchmark.executeBatch rows=1000 @ 20ms". */
    public String key() {
      return Baseline.key(suite, strategy, params, rtt);
    }

    /** The baseline's cell for a measured or predicted {@link Measurement}. */
    public static Cell of(Measurement m) {
      return new Cell(m.benchmark(), m.strategy(), new TreeMap<>(m.params()), m.rtt(),
          m.rttMs(), round(m.roundTripsPerOp()), round(m.statementsPerOp()), round(m.timeMs()),
          m.predicted() ? Baseline.model(m.note()) : null);
    }
  }

  /** The cell key: {@code suite.strategy k=v ... @ rtt}. */
  public static String key(String suite, String strategy, Map<String, String> params,
      String rtt) {
    StringBuilder s = new StringBuilder(suite).append('.').append(strategy);
    new TreeMap<>(params).forEach((k, v) -> s.append(' ').append(k).append('=').append(v));
    return s.append(" @ ").append(rtt).toString();
  }

  /** The key of a result's cell, as {@link Cell#key()}. */
  public static String key(Measurement m) {
    return key(m.benchmark(), m.strategy(), m.params(), m.rtt());
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
    return note.replaceFirst(":\\s*[0-9].*$", "").trim();
  }

  /** A baseline of every cell of {@code results}, with the default tolerances. */
  public static Baseline from(Results results) {
    return from(results, Tolerances.DEFAULTS);
  }

  /** A baseline of every cell of {@code results} (the last of duplicate cells wins). */
  public static Baseline from(Results results, Tolerances tolerances) {
    Map<String, Cell> cells = new LinkedHashMap<>();
    for (Measurement m : results.measurements()) {
      cells.put(key(m), Cell.of(m));
    }
    return new Baseline(FORMAT, Instant.now().toString(), results.profile(),
        measuredOn(results.environment()), tolerances, new ArrayList<>(cells.values()));
  }

  /**
   * Rewrites {@code file} as the baseline of {@code results}, keeping the tolerances the file
   * has (a team may have tuned them) or the defaults when it does not exist yet.
   */
  public static Baseline update(Results results, Path file) throws IOException {
    Tolerances tolerances = Files.exists(file) ? read(file).tolerances() : Tolerances.DEFAULTS;
    Baseline baseline = from(results, tolerances);
    baseline.write(file);
    return baseline;
  }

  /** The cells by key. */
  public Map<String, Cell> byKey() {
    Map<String, Cell> map = new LinkedHashMap<>();
    cells.forEach(c -> map.put(c.key(), c));
    return map;
  }

  /** Writes the baseline as pretty JSON, keys in a stable order, ending with a newline. */
  public void write(Path file) throws IOException {
    ObjectNode root = JSON.createObjectNode();
    root.put("format", format);
    root.put("about", "latency-lab regression baseline: round trips and statements per"
        + " operation must match exactly; time per operation within tolerances. See"
        + " docs/reading-results.md. Update on purpose: -Dlatencylab.updateBaseline=true");
    root.put("createdAt", createdAt);
    root.put("profile", profile);
    root.put("measuredOn", measuredOn);
    ObjectNode t = root.putObject("tolerances");
    t.put("timeRatio", tolerances.timeRatio());
    t.put("modelRatio", tolerances.modelRatio());
    t.put("timeFloorMs", tolerances.timeFloorMs());
    t.put("countEpsilon", tolerances.countEpsilon());
    ObjectNode all = root.putObject("cells");
    for (Cell c : cells) {
      ObjectNode n = all.putObject(c.key());
      n.put("suite", c.suite());
      n.put("strategy", c.strategy());
      ObjectNode params = n.putObject("params");
      c.params().forEach(params::put);
      n.put("rtt", c.rtt());
      n.put("rttMs", c.rttMs());
      number(n, "roundTripsPerOp", c.roundTripsPerOp());
      number(n, "statementsPerOp", c.statementsPerOp());
      number(n, "timeMs", c.timeMs());
      n.put("predicted", c.predicted());
      if (c.predicted()) {
        n.put("model", c.model());
      }
    }
    Path parent = file.toAbsolutePath().getParent();
    Files.createDirectories(parent);
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
    if (format != FORMAT) {
      throw new IllegalArgumentException("Cannot read the baseline " + file + ": format "
          + format + ", this version reads format " + FORMAT);
    }
    JsonNode t = root.path("tolerances");
    Tolerances d = Tolerances.DEFAULTS;
    Tolerances tolerances;
    try {
      tolerances = new Tolerances(t.path("timeRatio").asDouble(d.timeRatio()),
          t.path("modelRatio").asDouble(d.modelRatio()),
          t.path("timeFloorMs").asDouble(d.timeFloorMs()),
          t.path("countEpsilon").asDouble(d.countEpsilon()));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("Cannot read the baseline " + file + ": "
          + e.getMessage(), e);
    }
    List<Cell> cells = new ArrayList<>();
    for (Map.Entry<String, JsonNode> e : root.path("cells").properties()) {
      JsonNode n = e.getValue();
      for (String required : new String[] {"suite", "strategy", "rtt"}) {
        if (!n.path(required).isTextual()) {
          throw new IllegalArgumentException("Cannot read the baseline " + file + ": cell '"
              + e.getKey() + "' has no \"" + required + "\"");
        }
      }
      SortedMap<String, String> params = new TreeMap<>();
      n.path("params").properties().forEach(p -> params.put(p.getKey(), p.getValue().asText()));
      boolean predicted = n.path("predicted").asBoolean(false);
      cells.add(new Cell(n.path("suite").asText(), n.path("strategy").asText(), params,
          n.path("rtt").asText(), n.path("rttMs").asDouble(Double.NaN),
          JmhJson.number(n.path("roundTripsPerOp")), JmhJson.number(n.path("statementsPerOp")),
          JmhJson.number(n.path("timeMs")),
          predicted ? n.path("model").asText("predicted") : null));
    }
    return new Baseline(format, root.path("createdAt").asText(null),
        root.path("profile").asText(null), root.path("measuredOn").asText(null), tolerances,
        cells);
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

  private static String measuredOn(LabEnvironment env) {
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

  private static int compareParams(Map<String, String> a, Map<String, String> b) {
    List<Map.Entry<String, String>> x = new ArrayList<>(new TreeMap<>(a).entrySet());
    List<Map.Entry<String, String>> y = new ArrayList<>(new TreeMap<>(b).entrySet());
    for (int i = 0; i < Math.min(x.size(), y.size()); i++) {
      int c = x.get(i).getKey().compareTo(y.get(i).getKey());
      if (c == 0) {
        c = compareValues(x.get(i).getValue(), y.get(i).getValue());
      }
      if (c != 0) {
        return c;
      }
    }
    return Integer.compare(x.size(), y.size());
  }

  /** Numbers as numbers (100 before 1000), anything else as text. */
  static int compareValues(String a, String b) {
    try {
      int c = Double.compare(Double.parseDouble(a), Double.parseDouble(b));
      return c != 0 ? c : a.compareTo(b);
    } catch (NumberFormatException e) {
      return a.compareTo(b);
    }
  }
}
