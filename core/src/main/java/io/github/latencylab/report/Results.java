package io.github.latencylab.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.github.latencylab.env.LabEnvironment;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** A run's cells with the environment they were measured in: {@code results.json}. */
public record Results(String kind, String createdAt, String profile,
    LabEnvironment environment, List<Measurement> measurements) {

  private static final ObjectMapper JSON = new ObjectMapper()
      .enable(SerializationFeature.INDENT_OUTPUT);

  public void write(Path file) throws IOException {
    Path parent = file.toAbsolutePath().getParent();
    Files.createDirectories(parent);
    JSON.writeValue(file.toFile(), this);
  }

  public static Results read(Path file) throws IOException {
    return JSON.readValue(file.toFile(), Results.class);
  }

  /**
   * One report from several runs, e.g. a long sweep run suite by suite. They must come from
   * the same database (backend, PostgreSQL version and settings) or their times would not
   * compare, and a cell may be in one of them only; the error names the files.
   */
  public static Results merge(List<Map.Entry<Path, Results>> runs) {
    if (runs.isEmpty()) {
      throw new IllegalArgumentException("Nothing to merge: no results given");
    }
    Path firstFile = runs.get(0).getKey();
    Results first = runs.get(0).getValue();
    List<Measurement> cells = new ArrayList<>();
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
      for (Measurement m : r.measurements()) {
        Path before = seen.putIfAbsent(Baseline.key(m), run.getKey());
        if (before != null) {
          throw new IllegalArgumentException("Cannot merge " + run.getKey() + " with " + before
              + ": both have the cell " + Baseline.key(m));
        }
        cells.add(m);
      }
      if (r.profile() != null) {
        profiles.add(r.profile());
      }
      if (r.createdAt() != null && (latest == null || r.createdAt().compareTo(latest) > 0)) {
        latest = r.createdAt();
      }
    }
    return new Results(first.kind(), latest, profiles.isEmpty() ? null
        : String.join("+", profiles), first.environment(), cells);
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
    return null;
  }
}
