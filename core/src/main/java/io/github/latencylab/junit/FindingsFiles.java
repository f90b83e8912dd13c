package io.github.latencylab.junit;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.github.latencylab.wire.CallSites;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A report's findings as data ({@code findings.json} beside its findings.md and findings.sarif:
 * every test's occurrences), so that the reports of several JVMs (surefire forks, CI shards)
 * make one set of findings: the same N+1 seen in tests of two forks is one finding, its round
 * trips summed ({@code ./latency-lab report --results a/results.json b/results.json}).
 */
public final class FindingsFiles {

  static final String FILE = "findings.json";
  private static final int FORMAT = 1;
  private static final ObjectMapper JSON = new ObjectMapper()
      .enable(SerializationFeature.INDENT_OUTPUT);

  /**
   * One report's: its tests, those not audited, every round trip counted, and each test's
   * occurrences.
   */
  record Data(int format, int tests, int notAudited, long roundTrips,
      Map<String, List<Findings.Occurrence>> occurrences) {
  }

  private FindingsFiles() {
  }

  static void write(Path dir, Map<String, List<Findings.Occurrence>> occurrences, int tests,
      int notAudited, long roundTrips) throws IOException {
    Files.writeString(dir.resolve(FILE), JSON.writeValueAsString(new Data(FORMAT, tests,
        notAudited, roundTrips, occurrences)));
  }

  /**
   * Merges the findings.json of each report into {@code out}'s findings.md and findings.sarif
   * (and its findings.json); the one line that says what it wrote.
   */
  public static String merge(List<Path> files, Path out) throws IOException {
    int tests = 0;
    int notAudited = 0;
    long roundTrips = 0;
    Map<String, List<Findings.Occurrence>> occurrences = new LinkedHashMap<>();
    for (Path file : files) {
      Data data;
      try {
        data = JSON.readValue(Files.readString(file), Data.class);
      } catch (JsonProcessingException e) {
        throw new IllegalArgumentException(file + ": not the findings of a latency-lab report ("
            + e.getOriginalMessage() + ")", e);
      }
      if (data.format() != FORMAT) {
        throw new IllegalArgumentException(file + ": findings of format " + data.format()
            + ", this latency-lab reads " + FORMAT);
      }
      tests += data.tests();
      notAudited += data.notAudited();
      roundTrips += data.roundTrips();
      occurrences.putAll(data.occurrences());
    }
    List<Findings.Finding> findings = Findings.across(occurrences);
    Files.createDirectories(out);
    Files.writeString(out.resolve("findings.md"), Findings.markdown(findings, roundTrips, tests,
        notAudited));
    Sarif.Written sarif = Sarif.write(out.resolve("findings.sarif"), findings,
        CallSites.projectRoot());
    write(out, occurrences, tests, notAudited, roundTrips);
    return "findings of " + RoundTrips.plural(files.size(), "report") + " merged: "
        + RoundTrips.plural(findings.size(), "finding") + " over "
        + RoundTrips.plural(tests, "test") + " (" + sarif.results() + " in "
        + out.resolve("findings.sarif") + "), " + out.resolve("findings.md");
  }
}
