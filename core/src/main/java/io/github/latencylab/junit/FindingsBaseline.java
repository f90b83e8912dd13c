package io.github.latencylab.junit;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.latencylab.env.Setting;
import io.github.latencylab.report.Format;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The ratchet ({@code latencylab.findings}, committed): the findings a suite already has, each
 * with the most round trips it took in one test. A test fails on a finding not in it (a new
 * N+1) or on one that now takes more round trips in one test than the file allows, one line
 * each; a finding the team already had never fails, and one fixed simply stops appearing.
 * Rewritten, on purpose, with {@code latencylab.updateBaseline=true}.
 */
final class FindingsBaseline {

  static final int FORMAT = 1;
  private static final ObjectMapper JSON = new ObjectMapper()
      .enable(SerializationFeature.INDENT_OUTPUT);

  private final Path file;
  // by each finding's key: the most round trips it may take in one test, and where it was seen
  private final Map<String, Allowed> allowed;

  /** A committed finding: the most round trips it may take in one test, its tests' keys. */
  record Allowed(long maxRoundTripsInOneTest, String seenAt, List<String> tests) {
  }

  private FindingsBaseline(Path file, Map<String, Allowed> allowed) {
    this.file = file;
    this.allowed = allowed;
  }

  /** The committed findings, or null when {@code file} does not exist. */
  static FindingsBaseline read(Path file) {
    if (!Files.isRegularFile(file)) {
      return null;
    }
    JsonNode root;
    try {
      root = JSON.readTree(Files.readString(file));
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("Cannot read the findings " + file + " ("
          + Setting.FINDINGS.property() + "): not JSON (" + e.getOriginalMessage() + " at line "
          + e.getLocation().getLineNr() + ")");
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read the findings " + file, e);
    }
    if (root == null || root.path("format").asInt(-1) != FORMAT
        || !root.path("findings").isArray()) {
      throw new IllegalArgumentException("Cannot read the findings " + file + " ("
          + Setting.FINDINGS.property() + "): expected {\"format\": " + FORMAT
          + ", \"findings\": [...]}, as latencylab.updateBaseline=true writes it");
    }
    Map<String, Allowed> allowed = new LinkedHashMap<>();
    int i = 0;
    for (JsonNode f : root.path("findings")) {
      i++;
      if (!f.path("key").isTextual() || !f.path("maxRoundTripsInOneTest").isIntegralNumber()) {
        throw new IllegalArgumentException("Cannot read the findings " + file + ": finding "
            + i + " needs \"key\" (text) and \"maxRoundTripsInOneTest\" (a whole number)");
      }
      List<String> tests = new ArrayList<>();
      f.path("tests").forEach(t -> tests.add(t.asText()));
      allowed.put(f.path("key").asText(), new Allowed(f.path("maxRoundTripsInOneTest")
          .asLong(), f.path("seenAt").asText(""), tests));
    }
    return new FindingsBaseline(file, allowed);
  }

  /** One line per finding of a test that the file does not allow; empty when all are. */
  List<String> violations(List<Findings.Occurrence> occurrences) {
    List<String> lines = new ArrayList<>();
    for (Findings.Occurrence o : occurrences) {
      Allowed a = allowed.get(o.key());
      if (a == null) {
        lines.add("new " + o.describe() + " (not in " + file + ")");
      } else if (o.roundTrips() > a.maxRoundTripsInOneTest()) {
        lines.add("more expensive " + o.describe() + ": " + Format.count(o.roundTrips())
            + " round trips in this test, " + Format.count(a.maxRoundTripsInOneTest())
            + " allowed by " + file);
      }
    }
    return lines;
  }

  /**
   * Writes the run's {@code findings}, and those of {@code before} whose tests did not all run
   * now (a run of some tests keeps the others' findings; a finding its tests no longer show is
   * gone).
   */
  static void write(Path file, List<Findings.Finding> findings, FindingsBaseline before,
      java.util.Set<String> ran) {
    Map<String, Allowed> entries = new LinkedHashMap<>();
    if (before != null) {
      before.allowed.forEach((key, a) -> {
        if (!ran.containsAll(a.tests()) || a.tests().isEmpty()) {
          entries.put(key, a);
        }
      });
    }
    for (Findings.Finding f : findings) {
      entries.put(f.first().key(), new Allowed(f.worstInOneTest(), f.first().chain().isEmpty()
          ? Findings.methods(List.of()) : f.first().chain().get(0).frame(), f.tests()));
    }
    ObjectNode root = JSON.createObjectNode();
    root.put("format", FORMAT);
    root.put("note", "latency-lab's ratchet: the findings this suite may keep; a test fails on"
        + " one not listed, or one with more round trips in one test. Rewritten by"
        + " -Dlatencylab.updateBaseline=true.");
    ArrayNode list = root.putArray("findings");
    new java.util.TreeMap<>(entries).forEach((key, a) -> {
      ObjectNode n = list.addObject();
      n.put("key", key);
      n.put("maxRoundTripsInOneTest", a.maxRoundTripsInOneTest());
      n.put("seenAt", a.seenAt());
      ArrayNode tests = n.putArray("tests");
      a.tests().stream().sorted().forEach(tests::add);
    });
    try {
      Files.createDirectories(file.toAbsolutePath().getParent());
      Files.writeString(file, JSON.writeValueAsString(root) + "\n");
    } catch (IOException e) {
      throw new UncheckedIOException("Could not write the findings " + file, e);
    }
  }
}
