package io.github.latencylab.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.latencylab.env.LabEnvironment;
import io.github.latencylab.latency.Rtt;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * A run's cells with the environment they were measured in: {@code results.json}.
 *
 * <p>Each cell is written flat ({@code benchmark}, {@code strategy}, {@code params},
 * {@code rtt}, {@code rttMs}, {@code timeMs}, ... {@code predicted}, {@code note}) with its
 * server counters ({@code server}) and, for a measured cell with measured cells below it in
 * its series, the {@link LatencyModel}'s time for it from those ({@code model}: its time,
 * the RTTs it was fitted on, T0, R, and the least-squares slope the cells give): what a page
 * generator needs to check the model without re-implementing it. Files of earlier versions,
 * and of later ones with fields this one does not know, read.
 *
 * <p>Results merged from several machines (the shards of a CI matrix) keep each machine's
 * environment ({@code machines}, by name) and say which machine each cell ran on ({@code
 * machine}); {@code environment} is then the first machine's, the database of them all.
 *
 * @param machines each machine's environment by its name (its host, else "machine N"), when
 *     the cells come from more than one; empty otherwise
 * @param cellMachines the name of the machine each cell ran on, by cell key, when
 *     {@code machines} is not empty
 */
public record Results(String kind, String createdAt, String profile,
    LabEnvironment environment, List<Cell> cells, Map<String, LabEnvironment> machines,
    Map<String, String> cellMachines) {

  /** The note every report of cells from several machines carries. */
  public static final String MACHINES_NOTE = "Cells from different machines (the machine"
      + " column): a row's times are from one machine and compare with its own; across"
      + " machines compare round trips and statements, not times as if alike.";

  private static final ObjectMapper JSON = new ObjectMapper()
      .enable(SerializationFeature.INDENT_OUTPUT)
      .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

  public Results {
    cells = List.copyOf(cells);
    machines = machines == null ? Map.of() : Collections.unmodifiableMap(
        new LinkedHashMap<>(machines));
    cellMachines = cellMachines == null ? Map.of() : Map.copyOf(cellMachines);
  }

  /** The results of one machine. */
  public Results(String kind, String createdAt, String profile, LabEnvironment environment,
      List<Cell> cells) {
    this(kind, createdAt, profile, environment, cells, Map.of(), Map.of());
  }

  /** The name of the machine {@code cell} ran on, or null when all ran on one. */
  public String machine(Cell cell) {
    return cellMachines.get(cell.key());
  }

  /** The environment {@code cell} was measured in. */
  public LabEnvironment environment(Cell cell) {
    String name = machine(cell);
    return name == null ? environment : machines.get(name);
  }

  public void write(Path file) throws IOException {
    Files.createDirectories(file.toAbsolutePath().getParent());
    JSON.writeValue(file.toFile(), toJson());
  }

  /** The JSON {@link #write} writes: the one format of cells (a history's runs too). */
  public ObjectNode toJson() {
    ObjectNode root = JSON.createObjectNode();
    root.put("kind", kind);
    root.put("createdAt", createdAt);
    root.put("profile", profile);
    root.set("environment", JSON.valueToTree(environment));
    if (!machines.isEmpty()) {
      ObjectNode named = root.putObject("machines");
      machines.forEach((name, env) -> named.set(name, JSON.valueToTree(env)));
    }
    // a model is fitted on one machine's cells
    Map<String, LatencyModel> models = new HashMap<>();
    Map<String, List<Cell>> byMachine = new LinkedHashMap<>();
    cells.forEach(c -> byMachine.computeIfAbsent(String.valueOf(machine(c)),
        k -> new ArrayList<>()).add(c));
    byMachine.values().forEach(own -> models.putAll(LatencyModel.fromBelow(own)));
    ArrayNode all = root.putArray("measurements");
    for (Cell c : cells) {
      ObjectNode n = all.addObject();
      n.put("benchmark", c.suite());
      n.put("strategy", c.strategy());
      c.params().forEach(n.putObject("params")::put);
      n.put("rtt", c.rtt().toString());
      n.put("rttMs", c.rtt().millis());
      n.put("addedRttMs", c.addedRttMs());
      n.put("baselineRttMs", c.baselineRttMs());
      n.put("timeMs", c.timeMs());
      n.put("timeErrorMs", c.timeErrorMs());
      n.put("roundTripsPerOp", c.roundTripsPerOp());
      n.put("statementsPerOp", c.statementsPerOp());
      if (c.windowRoundTripsPerOp() != 0) {
        n.put("windowRoundTripsPerOp", c.windowRoundTripsPerOp());
      }
      n.put("rowsPerSecond", c.rowsPerSecond());
      if (!c.server().isEmpty()) {
        new TreeMap<>(c.server()).forEach(n.putObject("server")::put);
      }
      n.put("predicted", c.predicted());
      n.put("note", c.note());
      if (c.spread() != null) {
        ObjectNode spread = n.putObject("spread");
        spread.put("samples", c.spread().samples());
        spread.put("medianMs", c.spread().medianMs());
        spread.put("q1Ms", c.spread().q1Ms());
        spread.put("q3Ms", c.spread().q3Ms());
        if (c.spread().noisy() != null) {
          spread.put("noisy", c.spread().noisy());
        }
      }
      if (machine(c) != null) {
        n.put("machine", machine(c));
      }
      LatencyModel model = models.get(c.key());
      if (model != null) {
        ObjectNode m = n.putObject("model");
        m.put("timeMs", model.timeMs(c.addedRttMs()));
        ArrayNode from = m.putArray("from");
        model.rtts().forEach(r -> from.add(r.toString()));
        m.put("t0Ms", model.t0Ms());
        m.put("roundTrips", model.roundTrips());
        m.put("fittedSlope", model.fittedSlope());
      }
    }
    return root;
  }

  /**
   * Reads a {@code results.json}; an IllegalArgumentException naming the file and what is
   * wrong when it is missing, not JSON, or not latency-lab's results.
   */
  public static Results read(Path file) {
    JsonNode root = readTree(file);
    if (!root.isObject() || !root.has("measurements")) {
      throw new IllegalArgumentException("Cannot read " + file + ": not latency-lab's"
          + " results.json (an object with measurements)");
    }
    return fromJson(file, root);
  }

  /** The JSON of {@code file}; a clear IllegalArgumentException when it has none. */
  public static JsonNode readTree(Path file) {
    if (Files.isDirectory(file)) {
      throw new IllegalArgumentException("Cannot read " + file + ": a directory, not a file"
          + " (expected JMH's JSON results or a results.json)");
    }
    JsonNode root;
    try {
      root = JSON.readTree(Files.readString(file));
    } catch (NoSuchFileException e) {
      throw new IllegalArgumentException("Cannot read " + file + ": no such file");
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("Cannot read " + file + ": not JSON ("
          + e.getOriginalMessage() + " at line " + e.getLocation().getLineNr() + ")");
    } catch (IOException e) {
      throw new IllegalArgumentException("Cannot read " + file + ": " + e);
    }
    if (root == null || root.isMissingNode()) {
      throw new IllegalArgumentException("Cannot read " + file + ": the file is empty");
    }
    return root;
  }

  /** The results in {@code root}, the JSON of {@code file}: an object with measurements. */
  public static Results fromJson(Path file, JsonNode root) {
    JsonNode measurements = root.path("measurements");
    if (!measurements.isArray() || measurements.isEmpty()) {
      throw new IllegalArgumentException("No benchmark in " + file
          + ": its measurements are empty");
    }
    LabEnvironment environment;
    Map<String, LabEnvironment> machines = new LinkedHashMap<>();
    try {
      environment = root.path("environment").isObject()
          ? JSON.treeToValue(root.get("environment"), LabEnvironment.class) : null;
      for (var m : root.path("machines").properties()) {
        machines.put(m.getKey(), JSON.treeToValue(m.getValue(), LabEnvironment.class));
      }
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("Cannot read " + file + " as latency-lab results: "
          + e.getOriginalMessage());
    }
    List<Cell> cells = new ArrayList<>();
    Map<String, String> cellMachines = new HashMap<>();
    for (int i = 0; i < measurements.size(); i++) {
      String where = file + ", measurement #" + (i + 1);
      Cell cell = cell(where, measurements.get(i));
      cells.add(cell);
      String machine = measurements.get(i).path("machine").asText(null);
      if (machine != null && !machines.containsKey(machine)) {
        throw new IllegalArgumentException("Cannot read " + where + ": its machine \""
            + machine + "\" is not among the file's machines " + machines.keySet());
      }
      if (machine != null) {
        cellMachines.put(cell.key(), machine);
      }
    }
    return new Results(root.path("kind").asText(null), root.path("createdAt").asText(null),
        root.path("profile").asText(null), environment, cells, machines, cellMachines);
  }

  private static Cell cell(String where, JsonNode n) {
    for (String required : new String[] {"benchmark", "strategy", "rtt"}) {
      if (!n.path(required).isTextual()) {
        throw new IllegalArgumentException("Cannot read " + where + ": no \"" + required
            + "\"");
      }
    }
    Map<String, String> params = new TreeMap<>();
    n.path("params").properties().forEach(p -> params.put(p.getKey(), p.getValue().asText()));
    Map<String, Double> server = new TreeMap<>();
    n.path("server").properties().forEach(p -> server.put(p.getKey(), number(p.getValue())));
    boolean predicted = n.path("predicted").asBoolean(false);
    return new Cell(Series.of(n.get("benchmark").asText(), n.get("strategy").asText(), params),
        rtt(where, n.get("rtt").asText()), number(n.path("addedRttMs")),
        number(n.path("baselineRttMs")), number(n.path("timeMs")),
        number(n.path("timeErrorMs")), number(n.path("roundTripsPerOp")),
        number(n.path("statementsPerOp")), number(n.path("rowsPerSecond")), server,
        predicted ? n.path("note").asText("predicted") : null,
        n.path("windowRoundTripsPerOp").asDouble(0), spread(n.path("spread")));
  }

  private static TimeSpread spread(JsonNode n) {
    return n.isObject() ? new TimeSpread(n.path("samples").asInt(), number(n.path("medianMs")),
        number(n.path("q1Ms")), number(n.path("q3Ms")),
        n.path("noisy").isTextual() ? n.path("noisy").asText() : null) : null;
  }

  /** An RTT read from a file; the error names where. */
  public static Rtt rtt(String where, String text) {
    try {
      return Rtt.parse(text);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("Cannot read " + where + ": " + e.getMessage(), e);
    }
  }

  /** A JSON number, or a string JMH and Jackson write for non-finite values ("NaN"). */
  public static double number(JsonNode n) {
    if (n.isNumber()) {
      return n.doubleValue();
    }
    if (n.isTextual()) {
      try {
        return Double.parseDouble(n.asText().trim());
      } catch (NumberFormatException e) {
        return Double.NaN;
      }
    }
    return Double.NaN;
  }

  /**
   * One report from several runs, e.g. a long sweep run suite by suite or the shards of a CI
   * matrix. They must come from the same database (backend, PostgreSQL version and settings,
   * link) or their times would not compare, and a cell may be in one of them only; the error
   * names the files. Runs on different machines merge with each machine's environment kept and
   * each cell marked with its machine.
   */
  public static Results merge(List<Map.Entry<Path, Results>> runs) {
    if (runs.isEmpty()) {
      throw new IllegalArgumentException("Nothing to merge: no results given");
    }
    Path firstFile = runs.get(0).getKey();
    Results first = runs.get(0).getValue();
    List<Cell> cells = new ArrayList<>();
    Map<String, LabEnvironment> machines = new LinkedHashMap<>();
    Map<String, String> cellMachines = new HashMap<>();
    Map<String, Path> seen = new HashMap<>();
    LinkedHashSet<String> profiles = new LinkedHashSet<>();
    String latest = null;
    for (Map.Entry<Path, Results> run : runs) {
      Results r = run.getValue();
      String difference = databaseDifference(first.environment(), r.environment());
      if (difference != null) {
        throw new IllegalArgumentException("Cannot merge " + run.getKey() + " with "
            + firstFile + ": measured on a different database (" + difference + ")");
      }
      for (Cell c : r.cells()) {
        Path before = seen.putIfAbsent(c.key(), run.getKey());
        if (before != null) {
          throw new IllegalArgumentException("Cannot merge " + run.getKey() + " with " + before
              + ": both have the cell " + c.key());
        }
        cells.add(c);
        cellMachines.put(c.key(), machineName(machines, r.environment(c)));
      }
      if (r.profile() != null) {
        profiles.add(r.profile());
      }
      if (r.createdAt() != null && (latest == null || r.createdAt().compareTo(latest) > 0)) {
        latest = r.createdAt();
      }
    }
    if (machines.size() < 2) { // one machine: nothing to tell apart
      machines.clear();
      cellMachines.clear();
    }
    return new Results(first.kind(), latest, profiles.isEmpty() ? null
        : String.join("+", profiles), first.environment(), cells, machines, cellMachines);
  }

  /**
   * The name of {@code env}'s machine among {@code machines}, added when new: its host, else
   * "machine N", numbered when two machines share a host name.
   */
  private static String machineName(Map<String, LabEnvironment> machines, LabEnvironment env) {
    for (Map.Entry<String, LabEnvironment> m : machines.entrySet()) {
      if (env == null ? m.getValue() == null : m.getValue() != null
          && env.sameMachine(m.getValue())) {
        return m.getKey();
      }
    }
    int n = machines.size() + 1;
    String name = env != null && env.host() != null ? env.host() : "machine " + n;
    if (machines.containsKey(name)) {
      name = name + " #" + n;
    }
    machines.put(name, env);
    return name;
  }

  private static String databaseDifference(LabEnvironment a, LabEnvironment b) {
    if (a == null || b == null) {
      return a == b ? null : "one run has no environment";
    }
    if (!Objects.equals(a.backend(), b.backend())) {
      return "backend " + a.backend() + " vs " + b.backend();
    }
    if (!Objects.equals(a.postgresVersion(), b.postgresVersion())) {
      return "PostgreSQL " + a.postgresVersion() + " vs " + b.postgresVersion();
    }
    if (!Objects.equals(a.postgresSettings(), b.postgresSettings())) {
      return "settings " + a.postgresSettings() + " vs " + b.postgresSettings();
    }
    if (!Objects.equals(a.link(), b.link())) {
      return "link " + a.link() + " vs " + b.link();
    }
    return null;
  }
}
