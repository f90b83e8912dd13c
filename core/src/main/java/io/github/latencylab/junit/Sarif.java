package io.github.latencylab.junit;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.latencylab.report.Format;
import io.github.latencylab.wire.CodeLine;
import io.github.latencylab.wire.SqlShape;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The findings as SARIF 2.1.0 ({@code findings.sarif}), for code scanning: each result located
 * at the application's line that sent the statements, its callers as related locations, paths
 * relative to the repository's root (the directory holding {@code .git} above the project, else
 * the project's root) so that GitHub annotates the line in a pull request. A finding whose
 * source file is not under the project (a class from a jar) is left out, and counted.
 */
final class Sarif {

  private static final Map<Path, Map<String, Path>> SOURCES = new ConcurrentHashMap<>();

  static final String SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json";
  private static final ObjectMapper JSON = new ObjectMapper()
      .enable(SerializationFeature.INDENT_OUTPUT);
  private static final Set<String> NOT_SOURCES = Set.of("target", "build", "node_modules",
      ".git", ".gradle", ".mvn", ".idea");

  private Sarif() {
  }

  /** What {@link #write} wrote: the results, and the findings left out for want of a file. */
  record Written(int results, int withoutSource) {
  }

  /** Writes {@code findings} into {@code file}; {@code projectRoot} is where sources are found. */
  static Written write(Path file, List<Findings.Finding> findings, Path projectRoot)
      throws IOException {
    Path repository = repositoryRoot(projectRoot);
    // the walk of the project's sources: only for findings to place, once a JVM (a report is
    // written at the end of every test run, and a suite's own sources do not move meanwhile)
    Map<String, Path> sources = findings.isEmpty() ? Map.of()
        : SOURCES.computeIfAbsent(projectRoot.toAbsolutePath(), root -> {
          try {
            return sourcesUnder(root);
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        });
    ObjectNode root = JSON.createObjectNode();
    root.put("$schema", SCHEMA);
    root.put("version", "2.1.0");
    ObjectNode run = root.putArray("runs").addObject();
    ObjectNode driver = run.putObject("tool").putObject("driver");
    driver.put("name", "latency-lab");
    driver.put("version", version());
    driver.put("informationUri", "https://github.com/latencylab/latency-lab");
    ArrayNode rules = driver.putArray("rules");
    for (Findings.Kind kind : Findings.Kind.values()) {
      ObjectNode rule = rules.addObject();
      rule.put("id", kind.ruleId);
      rule.put("name", kind.name().toLowerCase(java.util.Locale.ROOT));
      rule.putObject("shortDescription").put("text", kind.label);
      rule.putObject("fullDescription").put("text", kind.help);
      rule.putObject("defaultConfiguration").put("level", "warning");
    }
    run.putObject("originalUriBaseIds").putObject("%SRCROOT%").put("uri",
        repository.toUri().toString());
    ArrayNode results = run.putArray("results");
    int withoutSource = 0;
    for (Findings.Finding f : findings) {
      Findings.Occurrence o = f.first();
      Path at = o.chain().isEmpty() ? null : sources.get(o.chain().get(0).source());
      if (at == null) {
        withoutSource++;
        continue;
      }
      ObjectNode r = results.addObject();
      r.put("ruleId", o.kind().ruleId);
      r.put("ruleIndex", o.kind().ordinal());
      r.put("level", "warning");
      r.putObject("message").put("text", o.kind().label + ": `" + SqlShape.brief(o.shape())
          + "` ran in " + RoundTrips.plural(f.roundTrips(), "round trip") + " over "
          + RoundTrips.plural(f.tests().size(), "test") + " (at most "
          + Format.count(f.worstInOneTest()) + " in one), " + Format.count(f.avoidable())
          + " avoidable: " + CallSiteRanking.PRICED_AT.stream().map(rtt -> Format.duration(
              f.avoidable() * rtt.millis()) + " at " + rtt).collect(
                  java.util.stream.Collectors.joining(", ")) + ". From "
          + String.join("; from ", f.chains()) + (f.endpoints().isEmpty() ? ""
              : ", on " + String.join(", ", f.endpoints()))
          + ". " + o.kind().help);
      r.putArray("locations").add(location(repository.relativize(at),
          o.chain().get(0).line()));
      ArrayNode related = r.putArray("relatedLocations");
      int id = 0;
      for (CodeLine caller : f.callers()) {
        Path callerAt = sources.get(caller.source());
        if (callerAt != null) {
          ObjectNode rel = location(repository.relativize(callerAt), caller.line());
          rel.put("id", ++id);
          rel.putObject("message").put("text", "called from " + caller.frame());
          related.add(rel);
        }
      }
      r.putObject("partialFingerprints").put("latencyLabFinding/v1", digest(o.key()));
    }
    Files.createDirectories(file.toAbsolutePath().getParent());
    Files.writeString(file, JSON.writeValueAsString(root) + "\n");
    return new Written(results.size(), withoutSource);
  }

  private static ObjectNode location(Path relative, int line) {
    ObjectNode l = JSON.createObjectNode();
    ObjectNode physical = l.putObject("physicalLocation");
    ObjectNode artifact = physical.putObject("artifactLocation");
    artifact.put("uri", relative.toString().replace('\\', '/'));
    artifact.put("uriBaseId", "%SRCROOT%");
    if (line > 0) {
      physical.putObject("region").put("startLine", line);
    }
    return l;
  }

  /** The directory above {@code projectRoot} (or itself) that holds {@code .git}. */
  static Path repositoryRoot(Path projectRoot) {
    for (Path d = projectRoot.toAbsolutePath(); d != null; d = d.getParent()) {
      if (Files.exists(d.resolve(".git"))) {
        return d;
      }
    }
    return projectRoot.toAbsolutePath();
  }

  /**
   * Source files under {@code root} by their path under their source root: {@code
   * org/example/Owner.java} -> {@code root/src/main/java/org/example/Owner.java} (a path found
   * twice keeps the main sources' over the tests').
   */
  static Map<String, Path> sourcesUnder(Path root) throws IOException {
    Map<String, Path> found = new HashMap<>();
    Files.walkFileTree(root, new SimpleFileVisitor<>() {
      @Override
      public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
        return !dir.equals(root) && NOT_SOURCES.contains(dir.getFileName().toString())
            ? FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
        String name = file.getFileName().toString();
        if (name.endsWith(".java") || name.endsWith(".kt") || name.endsWith(".groovy")
            || name.endsWith(".scala")) {
          String pkg = packageOf(file);
          String key = (pkg.isEmpty() ? "" : pkg.replace('.', '/') + "/") + name;
          found.merge(key, file, (a, b) -> a.toString().contains("/src/test/") ? b : a);
        }
        return FileVisitResult.CONTINUE;
      }
    });
    return found;
  }

  // the package its first package line declares: a file's place need not mirror it
  private static String packageOf(Path file) throws IOException {
    try (var lines = Files.lines(file)) {
      return lines.map(String::strip).filter(l -> l.startsWith("package ")).findFirst()
          .map(l -> l.substring("package ".length()).replace(";", "").strip()).orElse("");
    } catch (java.io.UncheckedIOException e) {
      return ""; // not text in the platform's charset: not a source we can place
    }
  }

  // latency-lab-core's version, from its jar's Maven metadata ("dev" from its own build's classes)
  private static String version() {
    java.util.Properties pom = new java.util.Properties();
    try (var in = Sarif.class.getResourceAsStream(
        "/META-INF/maven/io.github.latencylab/latency-lab-core/pom.properties")) {
      if (in != null) {
        pom.load(in);
      }
    } catch (IOException e) {
      return "dev";
    }
    return pom.getProperty("version", "dev");
  }

  private static String digest(String key) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(
          key.getBytes(java.nio.charset.StandardCharsets.UTF_8)), 0, 16);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }
}
