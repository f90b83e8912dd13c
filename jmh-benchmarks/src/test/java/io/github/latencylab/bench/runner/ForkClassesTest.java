package io.github.latencylab.bench.runner;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Class data sharing for the forks only where their class path is jars alone. */
class ForkClassesTest {

  @Test
  void aClassPathOfJarsIsArchivedOneWithADirectoryOfClassesIsNot(@TempDir Path dir)
      throws Exception {
    Path jar = Files.createFile(dir.resolve("benchmarks.jar"));
    Path classes = Files.createDirectories(dir.resolve("classes"));
    assertThat(ForkClasses.jarsOnly(jar.toString())).isTrue();
    assertThat(ForkClasses.jarsOnly(jar + File.pathSeparator + classes)).isFalse();
    assertThat(ForkClasses.jarsOnly(dir.resolve("missing.jar").toString())).isFalse();
  }

  @Test
  void underTestsTheForksGetNoArchive() throws Exception {
    // surefire's class path has target/classes: a JVM asked to archive from it exits
    try (ForkClasses forks = ForkClasses.inTemporaryDirectory()) {
      assertThat(forks.args("NPlusOneBenchmark")).isEmpty();
    }
  }
}
