package io.github.latencylab.bench.runner;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * The classes a suite's forks load, shared between them: JMH starts a JVM per cell, and every
 * fork of a suite loads the same classes before its first operation (Hibernate's boot alone is
 * thousands). The suite's first fork writes the classes it loaded into an archive as it exits
 * (the JVM's dynamic class data sharing archive), its later forks map that archive instead of
 * loading and verifying them again. Only start-up changes: the same bytecode runs, compiled
 * alike, and nothing before a fork's first operation is measured. An archive the JVM cannot use
 * (another JDK, a rebuilt jar) is ignored by the JVM, which then loads the classes as before.
 * Only where the forks' class path is jars alone (benchmarks.jar, as ./latency-lab and ./mvnw
 * verify run it): a JVM asked to archive from a class path with a directory of classes in it
 * exits (a test's target/classes).
 */
final class ForkClasses implements AutoCloseable {

  // the JVM's notes on archiving (classes it skips, and why) are not the run's output
  private static final String QUIET = "-Xlog:cds=off,cds+dynamic=off";

  private final Path dir; // null: the forks load their classes as usual

  private ForkClasses(Path dir) {
    this.dir = dir;
  }

  /** Archives in a directory of their own, deleted on {@link #close}. */
  static ForkClasses inTemporaryDirectory() throws IOException {
    return new ForkClasses(jarsOnly(System.getProperty("java.class.path"))
        ? Files.createTempDirectory("latency-lab-fork-classes-") : null);
  }

  // the forks' class path is this JVM's (JMH's default)
  static boolean jarsOnly(String classPath) {
    return Arrays.stream(classPath.split(File.pathSeparator))
        .allMatch(entry -> entry.endsWith(".jar") && Files.isRegularFile(Path.of(entry)));
  }

  /** The JVM arguments of {@code suite}'s next fork: write its archive, or map it. */
  List<String> args(String suite) {
    if (dir == null) {
      return List.of();
    }
    Path archive = dir.resolve(suite + ".jsa");
    return Files.exists(archive) ? List.of("-XX:SharedArchiveFile=" + archive, QUIET)
        : List.of("-XX:ArchiveClassesAtExit=" + archive, QUIET);
  }

  @Override
  public void close() throws IOException {
    if (dir == null) {
      return;
    }
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
