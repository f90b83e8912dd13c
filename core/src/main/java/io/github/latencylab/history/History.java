package io.github.latencylab.history;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.latencylab.env.LabEnvironment;
import io.github.latencylab.report.Results;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * A team's history of runs: a JSON Lines file, one run or mark a line, only ever appended to
 * (two branches' appends merge in git as two added lines). A run line is the run's
 * {@code results.json} on one line ({@link Results}: its cells and environment, the one cell
 * format) with the commit it measured, its ref and whether its gate passed:
 * <pre>
 * {"commit":"1a2b3c4...","ref":"main","passed":true,"kind":"bench","createdAt":...,
 *  "profile":"verify","environment":{...},"measurements":[...]}
 * {"mark":"9f8e7d6...","reason":"COPY instead of batches: 1 round trip","at":"2026-..."}
 * </pre>
 * A mark says the step at its commit is intended: the analysis starts again from it.
 *
 * @param runs the runs in the order they were appended
 * @param marks the marks in the order they were appended
 */
public record History(List<Run> runs, List<Mark> marks) {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern SHA = Pattern.compile("[0-9a-f]{7,64}");

  public History {
    runs = List.copyOf(runs);
    marks = List.copyOf(marks);
  }

  /**
   * One run of the gate (or of a bench) at a commit.
   *
   * @param commit the commit measured, its full hash
   * @param ref the branch or tag it ran on, or null
   * @param passed whether its baseline check passed, or null when it had none
   * @param machine the machine's name in place of its host name, or null: a class of CI
   *     runners whose every run has a host of its own ("github ubuntu-latest 2-core"), which a
   *     team decides to compare as one machine
   * @param results its cells and environment
   */
  public record Run(String commit, String ref, Boolean passed, String machine,
      Results results) {

    public Run {
      commit = checkedCommit(commit, "run");
      machine = machine == null || machine.isBlank() ? null : machine.trim();
    }

    /** A run on the machine its environment names. */
    public Run(String commit, String ref, Boolean passed, Results results) {
      this(commit, ref, passed, null, results);
    }

    /** The commit's first seven characters, as git abbreviates it. */
    public String shortCommit() {
      return commit.substring(0, Math.min(7, commit.length()));
    }

    /** Whether its gate failed. */
    public boolean failed() {
      return Boolean.FALSE.equals(passed);
    }
  }

  /**
   * An intended step: the change at {@code commit} was made on purpose.
   *
   * @param commit the first commit of the step, its full hash (or an abbreviation of it)
   * @param reason why, in a person's words
   * @param at when it was marked
   */
  public record Mark(String commit, String reason, String at) {

    public Mark {
      commit = checkedCommit(commit, "mark");
      if (reason == null || reason.isBlank()) {
        throw new IllegalArgumentException("A mark at " + commit + " needs a reason: say why"
            + " the step is intended (--reason \"...\")");
      }
    }

    /** Whether it marks {@code run}'s commit (a mark may abbreviate it). */
    public boolean marks(Run run) {
      return run.commit().startsWith(commit);
    }
  }

  private static String checkedCommit(String commit, String what) {
    String c = commit == null ? "" : commit.trim().toLowerCase(java.util.Locale.ROOT);
    if (!SHA.matcher(c).matches()) {
      throw new IllegalArgumentException("Invalid commit '" + commit + "' for a " + what
          + ": expected a git commit hash (7 to 64 hex digits, e.g. from git rev-parse HEAD)");
    }
    return c;
  }

  /** An empty history. */
  public static History empty() {
    return new History(List.of(), List.of());
  }

  /** This history without all but its last {@code n} runs (its marks kept). */
  public History last(int n) {
    return new History(runs.subList(Math.max(0, runs.size() - n), runs.size()), marks);
  }

  /**
   * Reads a history; an IllegalArgumentException naming the file and line when a line is not
   * JSON, or neither a run nor a mark. A missing file is an error (a history that is expected
   * and absent is worth saying); blank lines are skipped.
   */
  public static History read(Path file) {
    List<String> lines;
    try {
      lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      throw new IllegalArgumentException("Cannot read the history " + file + ": no such file");
    } catch (IOException e) {
      throw new IllegalArgumentException("Cannot read the history " + file + ": " + e);
    }
    List<Run> runs = new ArrayList<>();
    List<Mark> marks = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i).strip();
      if (line.isEmpty()) {
        continue;
      }
      String where = file + " line " + (i + 1);
      try {
        JsonNode n = JSON.readTree(line);
        if (n == null || !n.isObject()) {
          throw new IllegalArgumentException("not a JSON object");
        }
        if (n.has("mark")) {
          marks.add(new Mark(n.path("mark").asText(), n.path("reason").asText(null),
              n.path("at").asText(null)));
        } else if (n.has("commit")) {
          JsonNode passed = n.path("passed");
          runs.add(new Run(n.path("commit").asText(), n.path("ref").asText(null),
              passed.isBoolean() ? passed.booleanValue() : null, n.path("machine").asText(null),
              Results.fromJson(Path.of(where), n)));
        } else {
          throw new IllegalArgumentException("neither a run (with \"commit\") nor a mark"
              + " (with \"mark\")");
        }
      } catch (JsonProcessingException e) {
        throw new IllegalArgumentException("Cannot read the history " + where + ": not JSON ("
            + e.getOriginalMessage() + ")");
      } catch (IllegalArgumentException e) {
        String message = e.getMessage().replace("Cannot read " + where + ": ", "")
            .replace("Cannot read " + where + ", ", "");
        throw new IllegalArgumentException("Cannot read the history " + where + ": "
            + message, e);
      }
    }
    return new History(runs, marks);
  }

  /** Appends {@code run} as one line to {@code file} (created with its directories if new). */
  public static void append(Path file, Run run) throws IOException {
    ObjectNode line = JSON.createObjectNode();
    line.put("commit", run.commit());
    line.put("ref", run.ref());
    if (run.passed() == null) {
      line.putNull("passed");
    } else {
      line.put("passed", run.passed());
    }
    if (run.machine() != null) {
      line.put("machine", run.machine());
    }
    line.setAll(run.results().toJson());
    appendLine(file, line);
  }

  /** Appends {@code mark} as one line to {@code file} (created with its directories if new). */
  public static void append(Path file, Mark mark) throws IOException {
    ObjectNode line = JSON.createObjectNode();
    line.put("mark", mark.commit());
    line.put("reason", mark.reason());
    line.put("at", mark.at());
    appendLine(file, line);
  }

  private static void appendLine(Path file, ObjectNode line) throws IOException {
    Path parent = file.toAbsolutePath().getParent();
    Files.createDirectories(parent);
    // one write of a whole line, after a newline if the file's last line lacks one
    String text = JSON.writeValueAsString(line) + "\n";
    if (Files.exists(file) && Files.size(file) > 0 && !endsWithNewline(file)) {
      text = "\n" + text;
    }
    Files.writeString(file, text, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
        StandardOpenOption.APPEND, StandardOpenOption.WRITE);
  }

  private static boolean endsWithNewline(Path file) throws IOException {
    try (var channel = java.nio.channels.FileChannel.open(file)) {
      var last = java.nio.ByteBuffer.allocate(1);
      channel.read(last, channel.size() - 1);
      return last.get(0) == '\n';
    }
  }

  /**
   * The environments a run was measured in, as one key: its environment's
   * {@link LabEnvironment#sameEnvironmentKey}, each machine's for results merged from several,
   * and its profile (a profile's iterations shape its times). Runs compare when keys match.
   */
  public static String sameEnvironmentKey(Run run) {
    Results r = run.results();
    StringBuilder key = new StringBuilder(String.valueOf(r.profile()));
    if (r.machines().isEmpty()) {
      key.append(" ").append(r.environment() == null ? "none"
          : r.environment().sameEnvironmentKey(run.machine()));
    } else {
      r.machines().values().stream().map(e -> e == null ? "none" : e.sameEnvironmentKey())
          .sorted().forEach(k -> key.append(" ").append(k));
    }
    return key.toString();
  }

  /** "ci-runner-3: Linux 6.1 amd64, 2 CPUs, Java 17.0.15; PostgreSQL 16.4; verify profile". */
  public static String describeEnvironment(Run run) {
    Results r = run.results();
    LabEnvironment env = r.environment();
    List<String> parts = new ArrayList<>();
    if (!r.machines().isEmpty()) {
      parts.add(r.machines().size() + " machines");
    } else if (env == null) {
      parts.add("no environment recorded");
    } else {
      String host = run.machine() != null ? run.machine() : env.host();
      parts.add((host == null ? "" : host + ": ") + env.machine());
    }
    if (env != null && env.postgresVersion() != null) {
      parts.add("PostgreSQL " + env.postgresVersion());
    }
    if (r.profile() != null) {
      parts.add(r.profile() + " profile");
    }
    return String.join("; ", parts);
  }
}
