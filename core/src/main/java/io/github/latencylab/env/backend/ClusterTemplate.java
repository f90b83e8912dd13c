package io.github.latencylab.env.backend;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * A just-initialised PostgreSQL cluster, kept once per JVM, that later embedded starts copy
 * instead of running initdb again: initdb took 1.7 s of a 2-3 s embedded start here, the copy a
 * tenth of that, and a test suite starts a Lab per class. Taken from the JVM's first embedded
 * start while its server is stopped for the restart (cleanly shut down, nothing in it yet).
 * Kept beside that cluster (latencylab.embedded.data). Deleted when the JVM exits; a template
 * whose JVM was killed is deleted by the next JVM that takes one there.
 */
public final class ClusterTemplate {

  private static final String PREFIX = "latency-lab-cluster-template-";
  // what a data directory holds of its server's run, not of the cluster
  private static final Set<String> RUN_FILES = Set.of("epg-lock", "postmaster.pid",
      "postmaster.opts", EmbeddedBackend.SERVER_LOG);

  private static Path template; // null until this JVM's first embedded start took it
  private static Path pgCtl; // of the binaries that made it

  private ClusterTemplate() {
  }

  /** A data directory copied from the template, and the pg_ctl that starts it. */
  record Copy(Path dataDirectory, Path pgCtl) {
  }

  /** A new data directory in {@code into}, a copy of the template; null before there is one. */
  static synchronized Copy copy(Path into) throws IOException {
    if (template == null) {
      return null;
    }
    Path copy = into.resolve(UUID.randomUUID().toString());
    try {
      copyTree(template, copy);
    } catch (IOException | RuntimeException e) {
      Leftovers.deleteTree(copy);
      throw e;
    }
    return new Copy(copy, pgCtl);
  }

  /**
   * Takes {@code stopped}, a cleanly stopped cluster just initialised by the binaries of
   * {@code itsPgCtl}, as the template.
   */
  static synchronized void takeFrom(Path stopped, Path itsPgCtl) throws IOException {
    if (template != null) {
      return;
    }
    Path beside = stopped.getParent();
    deleteOrphans(beside);
    Path taken = beside.resolve(PREFIX + ProcessHandle.current().pid());
    try {
      Leftovers.deleteTree(taken);
      copyTree(stopped, taken);
    } catch (IOException | RuntimeException e) {
      Leftovers.deleteTree(taken);
      throw e;
    }
    template = taken;
    pgCtl = itsPgCtl;
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      try {
        Leftovers.deleteTree(taken);
      } catch (IOException e) {
        // the next JVM to take a template deletes it
      }
    }, "latency-lab-cluster-template"));
  }

  // the templates of JVMs that are gone (killed: no shutdown hook ran)
  public static void deleteOrphans(Path tmp) throws IOException {
    try (Stream<Path> all = Files.list(tmp)) {
      for (Path p : all.filter(p -> p.getFileName().toString().matches(PREFIX + "\\d+"))
          .toList()) {
        long pid = Long.parseLong(p.getFileName().toString().substring(PREFIX.length()));
        if (ProcessHandle.of(pid).filter(ProcessHandle::isAlive).isEmpty()) {
          Leftovers.deleteTree(p);
        }
      }
    }
  }

  private static void copyTree(Path from, Path to) throws IOException {
    try (Stream<Path> paths = Files.walk(from)) {
      for (Path p : paths.toList()) {
        Path relative = from.relativize(p);
        if (relative.getNameCount() == 1 && RUN_FILES.contains(relative.toString())) {
          continue;
        }
        Path target = to.resolve(relative.toString());
        // PostgreSQL starts only on a data directory no one else may read
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
          Files.setPosixFilePermissions(target, Files.getPosixFilePermissions(p));
        } else {
          Files.copy(p, target, StandardCopyOption.COPY_ATTRIBUTES);
        }
      }
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
  }
}
