package io.github.latencylab.env;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Go {@code main} module shipped in this package's resources (a directory whose
 * {@code SOURCES} lists every file the build reads) and built from them with {@code go build}:
 * latency-lab's Toxiproxy server, the kernel path. Its cache directory is named for a hash of
 * those sources, so changed sources get a new build, and a binary is never half-written (it is
 * built beside its place and moved there).
 */
final class GoModule {

  private static final Logger LOG = LoggerFactory.getLogger(GoModule.class);

  private final String directory;
  private final String binary;
  private final String title;

  /**
   * {@code directory}: the resources' directory beside this class, e.g. "toxiproxy/";
   * {@code binary}: the program's file name; {@code title}: what it is, for messages.
   */
  GoModule(String directory, String binary, String title) {
    this.directory = directory;
    this.binary = binary;
    this.title = title;
  }

  String binaryName() {
    return binary;
  }

  /**
   * The first 12 hex digits of the SHA-256 of SOURCES followed by each file it lists, in its
   * order; .ci/toxiproxy-server.sh computes the same for the Toxiproxy server.
   */
  String sourceHash() {
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      sha.update(resource("SOURCES"));
      for (String file : sourceFiles()) {
        sha.update(resource(file));
      }
      return HexFormat.of().formatHex(sha.digest()).substring(0, 12);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("no SHA-256 in this JVM", e);
    }
  }

  byte[] resource(String name) {
    try (InputStream in = GoModule.class.getResourceAsStream(directory + name)) {
      if (in == null) {
        throw new IllegalStateException(title + "'s sources are incomplete: no " + directory
            + name + " beside " + GoModule.class.getName());
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private List<String> sourceFiles() {
    return new String(resource("SOURCES"), StandardCharsets.UTF_8).lines()
        .filter(line -> !line.isBlank()).toList();
  }

  /**
   * {@code target} if it is there, else built there for {@code platform} ("linux/arm64"; null:
   * this machine). {@code label} says what is built ("v2.5.0 + latency_us"); {@code otherwise}
   * is what else the user can do ("set ..."), for the errors; or empty.
   */
  Path binary(Path target, String platform, String label, String otherwise)
      throws IOException, InterruptedException {
    if (Files.isExecutable(target)) {
      return target;
    }
    String state = Files.exists(target) ? target + " is not executable" : title
        + " is not built yet";
    Path go = go().orElseThrow(() -> new IllegalStateException(state + " and there is no Go on"
        + " PATH to build it: install Go 1.17 or newer (https://go.dev/dl)"
        + (otherwise.isEmpty() ? "" : ", or " + otherwise)));
    if (Files.exists(target)) {
      LOG.warn("{}: building it again", state);
    }
    return build(go, target, platform, label, otherwise);
  }

  /** Go on PATH, or where Go's own installer puts it (often not on a JVM's PATH). */
  static Optional<Path> go() {
    String path = System.getenv("PATH");
    if (path != null) {
      for (String dir : path.split(File.pathSeparator)) {
        Path candidate = Path.of(dir, "go");
        if (Files.isExecutable(candidate)) {
          return Optional.of(candidate);
        }
      }
    }
    return Optional.of(Path.of("/usr/local/go/bin/go")).filter(Files::isExecutable);
  }

  /** go build of the sources, static, into a fresh directory beside target, then moved there. */
  private Path build(Path go, Path target, String platform, String label, String otherwise)
      throws IOException, InterruptedException {
    Files.createDirectories(target.getParent());
    Path work = Files.createTempDirectory(target.getParent(), "build-");
    try {
      Path src = Files.createDirectory(work.resolve("src"));
      for (String file : sourceFiles()) {
        Files.write(src.resolve(file), resource(file));
      }
      Path out = work.resolve(binary);
      Path buildLog = work.resolve("go-build.log");
      System.err.println("latency-lab: building " + title + " (" + label
          + (platform == null ? "" : ", " + platform) + ") with go build into "
          + target.getParent() + " (first use only, up to a minute)...");
      List<String> command = List.of(go.toString(), "build", "-trimpath", "-buildvcs=false",
          "-ldflags=-s -w", "-o", out.toString(), ".");
      ProcessBuilder builder = new ProcessBuilder(command).directory(src.toFile())
          .redirectErrorStream(true).redirectOutput(buildLog.toFile());
      Map<String, String> env = builder.environment();
      env.put("CGO_ENABLED", "0");
      env.put("GOFLAGS", "-mod=readonly");
      env.put("GOWORK", "off");
      if (platform != null) {
        env.put("GOOS", platform.substring(0, platform.indexOf('/')));
        env.put("GOARCH", platform.substring(platform.indexOf('/') + 1));
      }
      Process process = builder.start();
      boolean finished = process.waitFor(10, TimeUnit.MINUTES);
      if (!finished || process.exitValue() != 0) {
        process.destroyForcibly();
        throw new IOException("Could not build " + title + " with " + go
            + (finished ? " (exit " + process.exitValue() + ")" : " (over 10 minutes)") + ": "
            + tail(buildLog) + ". It needs Go 1.17 or newer and, on first build, the Go module"
            + " proxy" + (otherwise.isEmpty() ? "" : "; or " + otherwise));
      }
      Files.move(out, target, StandardCopyOption.ATOMIC_MOVE,
          StandardCopyOption.REPLACE_EXISTING);
      LOG.info("Built {}", target);
      return target;
    } finally {
      Leftovers.deleteTree(work);
    }
  }

  /** The last five lines of a log, joined into one. */
  static String tail(Path file) {
    try {
      List<String> lines = Files.readAllLines(file);
      return String.join(" | ", lines.subList(Math.max(0, lines.size() - 5), lines.size()));
    } catch (IOException e) {
      return "(no log: " + e.getMessage() + ")";
    }
  }
}
