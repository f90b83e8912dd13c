package io.github.latencylab.batch;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Each helper is copied as two files, its own and the value core {@code PgValues.java}: the pair
 * compiles alone, against the JDK and pgjdbc only, without a warning.
 */
class CopyableFilesTest {

  private static final Path SOURCES =
      Path.of("../loaders/src/main/java/io/github/latencylab/batch");
  private static final String CORE = "PgValues";

  @ParameterizedTest
  @ValueSource(strings = {"ChunkedBatchInsert", "MultiRowInsert", "UnnestInsert", "CopyLoader"})
  void compilesAloneWithTheCoreWithoutWarnings(String helper, @TempDir Path classes)
      throws Exception {
    List<Path> sources =
        List.of(SOURCES.resolve(helper + ".java"), SOURCES.resolve(CORE + ".java"));
    for (Path source : sources) {
      for (String line : Files.readAllLines(source)) {
        if (line.startsWith("import ")) {
          assertThat(line).as(source.toString())
              .matches("import (static )?(java\\.|javax\\.sql\\.|org\\.postgresql\\.).*");
        }
      }
    }
    String pgjdbc = Path.of(org.postgresql.Driver.class.getProtectionDomain().getCodeSource()
        .getLocation().toURI()).toString();
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    ByteArrayOutputStream messages = new ByteArrayOutputStream();
    // the class path holds pgjdbc only, and no source path: a sibling helper is not found
    int status = javac.run(null, messages, messages, "--release", "17", "-Xlint:all", "-Werror",
        "-proc:none", "-classpath", pgjdbc, "-d", classes.toString(), sources.get(0).toString(),
        sources.get(1).toString());
    assertThat(status).as(messages.toString(StandardCharsets.UTF_8)).isZero();
  }
}
