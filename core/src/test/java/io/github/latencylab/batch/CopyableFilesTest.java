package io.github.latencylab.batch;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Each helper is one file a user can copy: it compiles alone, against the JDK and pgjdbc only. */
class CopyableFilesTest {

  private static final Path SOURCES = Path.of("src/main/java/io/github/latencylab/batch");
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

  /** The value checks and identifier quoting are one block, copied verbatim into each file. */
  @Test
  void everyHelperHasTheSameValueCode() throws IOException {
    String reference = sharedBlock(HELPERS.get(0));
    assertThat(reference).contains("private static Object check(").contains("private static"
        + " String quote(");
    for (String helper : HELPERS) {
      assertThat(sharedBlock(helper)).as(helper + " vs " + HELPERS.get(0)).isEqualTo(reference);
    }
  }

  private static String sharedBlock(String helper) throws IOException {
    String source = Files.readString(SOURCES.resolve(helper + ".java"));
    return source.substring(source.indexOf("  // ---- identifiers"));
  }
}
