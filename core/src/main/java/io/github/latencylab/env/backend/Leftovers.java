package io.github.latencylab.env.backend;

import io.github.latencylab.env.LabConfig;
import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Comparator;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a backend started, registered in the cache's {@code run/} directory while it runs (a
 * file per process: this JVM's pid, the process's pid, a path it leaves behind). A JVM killed
 * with SIGKILL runs no shutdown hook; the next start finds its registrations and stops what
 * they name, where that JVM is gone and the process is still the program registered.
 */
public final class Leftovers {

  private static final Logger LOG = LoggerFactory.getLogger(Leftovers.class);

  private Leftovers() {
  }

  /** Registers {@code process} (a {@code program}: its binary's file name) and its leftover. */
  static Path register(LabConfig config, String program, long process, Path leftover)
      throws IOException {
    Path file = Files.createDirectories(runDirectory(config)).resolve(program + "-" + process);
    Files.writeString(file, ProcessHandle.current().pid() + " " + process + " " + leftover + "\n");
    return file;
  }

  /** The process stopped as it should: forget it. */
  static void release(Path registration) {
    if (registration != null) {
      try {
        Files.deleteIfExists(registration);
      } catch (IOException e) {
        LOG.debug("Could not delete {}", registration, e);
      }
    }
  }

  static Path runDirectory(LabConfig config) {
    return config.cacheDir().resolve("run");
  }

  /** Stops the registered processes of JVMs that are gone, and deletes what they left. */
  static void stopOrphans(LabConfig config) {
    Path dir = runDirectory(config);
    if (!Files.isDirectory(dir)) {
      return;
    }
    try (Stream<Path> files = Files.list(dir)) {
      // the proxies first: their connections to the postmaster go, so it can shut down
      for (Path file : files.filter(f -> f.getFileName().toString().matches(".+-\\d+"))
          .sorted(Comparator.comparing((Path f) -> !f.getFileName().toString()
              .startsWith("toxiproxy-server-"))).toList()) {
        String name = file.getFileName().toString();
        String program = name.substring(0, name.lastIndexOf('-'));
        String[] fields = Files.readString(file).trim().split(" ", 3);
        if (fields.length < 3 || ProcessHandle.of(Long.parseLong(fields[0]))
            .filter(ProcessHandle::isAlive).isPresent()) {
          continue; // its JVM runs: not an orphan
        }
        ProcessHandle.of(Long.parseLong(fields[1])).filter(ProcessHandle::isAlive)
            .filter(p -> p.info().command().map(c -> c.endsWith("/" + program)).orElse(false))
            .ifPresent(orphan -> {
              orphan.destroy(); // SIGTERM: postgres shuts down, its clients are gone
              try {
                orphan.onExit().get(30, TimeUnit.SECONDS);
              } catch (Exception e) {
                orphan.destroyForcibly();
              }
              LOG.warn("Stopped {} (pid {}) left running by JVM {} that ended without stopping"
                  + " it (killed?)", program, fields[1], fields[0]);
            });
        deleteTree(Path.of(fields[2]));
        Files.deleteIfExists(file);
      }
    } catch (IOException | RuntimeException e) {
      LOG.debug("Could not look for orphans in {}", dir, e);
    }
  }

  /**
   * Deletes {@code path} and all under it, if it is there; what another process deletes
   * meanwhile (two JVMs' first starts clearing the same orphan) is simply gone.
   */
  public static void deleteTree(Path path) throws IOException {
    Files.walkFileTree(path, new SimpleFileVisitor<>() {
      @Override
      public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
        Files.deleteIfExists(file);
        return FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
        if (e instanceof NoSuchFileException) {
          return FileVisitResult.CONTINUE;
        }
        throw e;
      }

      @Override
      public FileVisitResult postVisitDirectory(Path dir, IOException e) throws IOException {
        if (e != null && !(e instanceof NoSuchFileException)) {
          throw e;
        }
        Files.deleteIfExists(dir);
        return FileVisitResult.CONTINUE;
      }
    });
  }
}
