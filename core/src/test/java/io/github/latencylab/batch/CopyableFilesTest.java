package io.github.latencylab.batch;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Each helper is one file a user can copy: it compiles alone, against the JDK and pgjdbc only. */
class CopyableFilesTest {

  private static final Path SOURCES = Path.of("../loaders/src/main/java/io/github/latencylab/batch");
  private static final List<String> HELPERS =
      List.of("ChunkedBatchInsert", "MultiRowInsert", "UnnestInsert", "CopyLoader");

  @ParameterizedTest
  @ValueSource(strings = {"ChunkedBatchInsert", "MultiRowInsert", "UnnestInsert", "CopyLoader"})
  void compilesAloneWithoutWarnings(String helper, @TempDir Path classes) throws Exception {
    Path source = SOURCES.resolve(helper + ".java");
    for (String line : Files.readAllLines(source)) {
      if (line.startsWith("import ")) {
        assertThat(line).as(helper)
            .matches("import (static )?(java\\.|javax\\.sql\\.|org\\.postgresql\\.).*");
      }
    }
    String pgjdbc = Path.of(org.postgresql.Driver.class.getProtectionDomain().getCodeSource()
        .getLocation().toURI()).toString();
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    ByteArrayOutputStream messages = new ByteArrayOutputStream();
    // the class path holds pgjdbc only, and no source path: a sibling helper is not found
    int status = javac.run(null, messages, messages, "--release", "17", "-Xlint:all", "-Werror",
        "-proc:none", "-classpath", pgjdbc, "-d", classes.toString(), source.toString());
    assertThat(status).as(messages.toString(StandardCharsets.UTF_8)).isZero();
  }

  /**
   * Code two helpers share is one section ({@code // ---- title ----} up to the next section
   * or the class's end), copied verbatim into each: the identifiers and values into all four,
   * the replay that finds a refused row into the three that are not COPY, the transaction
   * control riding with statements into MultiRowInsert and UnnestInsert.
   */
  @Test
  void sharedSectionsAreTheSameInEveryHelper() throws IOException {
    Map<String, Map<String, String>> sections = new TreeMap<>(); // title -> helper -> text
    for (String helper : HELPERS) {
      sections(Files.readString(SOURCES.resolve(helper + ".java")))
          .forEach((title, text) -> sections.computeIfAbsent(title, t -> new TreeMap<>())
              .put(helper, text));
    }
    Map<String, Set<String>> expected = Map.of(
        "identifiers", Set.copyOf(HELPERS),
        "values", Set.copyOf(HELPERS),
        "where a server error is", Set.copyOf(HELPERS),
        "finding the row and column", Set.of("ChunkedBatchInsert", "MultiRowInsert",
            "UnnestInsert"),
        "transaction control rides", Set.of("MultiRowInsert", "UnnestInsert"));
    expected.forEach((prefix, helpers) -> assertThat(sections.entrySet().stream()
        .filter(e -> e.getKey().startsWith(prefix)).map(e -> e.getValue().keySet()).toList())
        .as("section " + prefix).containsExactly(new TreeSet<>(helpers)));
    for (Map.Entry<String, Map<String, String>> section : sections.entrySet()) {
      Map<String, String> byHelper = section.getValue();
      String first = byHelper.keySet().iterator().next();
      byHelper.forEach((helper, text) -> assertThat(text)
          .as("section \"" + section.getKey() + "\" in " + helper + " vs " + first)
          .isEqualTo(byHelper.get(first)));
    }
  }

  private static Map<String, String> sections(String source) {
    Map<String, String> sections = new TreeMap<>();
    Matcher marker = Pattern.compile("(?m)^  // ---- (.+?) ----$").matcher(source);
    String title = null;
    int start = 0;
    while (marker.find()) {
      if (title != null) {
        sections.put(title, source.substring(start, marker.start()));
      }
      title = marker.group(1);
      start = marker.start();
    }
    if (title != null) {
      sections.put(title, source.substring(start, source.lastIndexOf('}')));
    }
    return sections;
  }
}
