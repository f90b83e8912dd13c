package io.github.latencylab.env.backend;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Go {@code main} module shipped in core's resources (a directory whose
 * {@code SOURCES} lists every file the build reads): latency-lab's Toxiproxy server, the kernel
 * path. Its cache directory is named for a hash of those sources, so changed sources get a new
 * binary. The binary comes from an artifact on the classpath built from the same sources for
 * this platform where there is one ({@link Prebuilt}: no Go needed), else from {@code go build}
 * of the sources; either way it is written beside its place and moved there, never
 * half-written.
 */
public final class GoModule {

  private static final Logger LOG = LoggerFactory.getLogger(GoModule.class);

  /**
   * Binaries of the module built by latency-lab's own Maven build, one artifact per platform
   * (toxiproxy-server/): {@code root + "linux-amd64/"} holds the binary and
   * {@code BINARY.properties}, which says the hash of the sources it was built from and the
   * binary's SHA-256. {@code artifact}: the artifacts' coordinates without the platform, for
   * messages; {@code platforms}: those latency-lab ships.
   */
  record Prebuilt(String root, String artifact, List<String> platforms) {}

  private final String directory;
  private final String binary;
  private final String title;
  private final Prebuilt prebuilt;
  private final Supplier<Optional<Path>> findGo;

  /**
   * {@code directory}: the resources' directory, e.g. "/io/github/latencylab/env/toxiproxy/";
   * {@code binary}: the program's file name; {@code title}: what it is, for messages.
   */
  public GoModule(String directory, String binary, String title) {
    this(directory, binary, title, null, GoModule::go);
  }

  /** ... and {@code prebuilt}: where its artifacts put their binaries (null: none). */
  public GoModule(String directory, String binary, String title, Prebuilt prebuilt) {
    this(directory, binary, title, prebuilt, GoModule::go);
  }

  private GoModule(String directory, String binary, String title, Prebuilt prebuilt,
      Supplier<Optional<Path>> findGo) {
    this.directory = directory;
    this.binary = binary;
    this.title = title;
    this.prebuilt = prebuilt;
    this.findGo = findGo;
  }

  /** The same module on a machine without Go: what a user gets (tests). */
  public GoModule withoutGo() {
    return new GoModule(directory, binary, title, prebuilt, Optional::empty);
  }

  /** The same module without its artifacts on the classpath: go build or nothing (tests). */
  public GoModule withoutPrebuilt() {
    return new GoModule(directory, binary, title, null, findGo);
  }

  public String binaryName() {
    return binary;
  }

  /**
   * The first 12 hex digits of the SHA-256 of SOURCES followed by each file it lists, in its
   * order; .ci/toxiproxy-server.sh computes the same for the Toxiproxy server.
   */
  public String sourceHash() {
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
   * {@code target} if it is there, else installed there from this platform's artifact, else
   * built there for {@code platform} ("linux/arm64"; null: this machine). {@code label} says
   * what is built ("v2.5.0 + latency_us"); {@code otherwise} is what else the user can do
   * ("set ..."), for the errors; or empty.
   */
  public Path binary(Path target, String platform, String label, String otherwise)
      throws IOException, InterruptedException {
    if (Files.isExecutable(target)) {
      return target;
    }
    String state = Files.exists(target) ? target + " is not executable" : title
        + " is not built yet";
    String key = platformKey(platform);
    String noPrebuilt = "";
    String addIt = "";
    if (prebuilt != null) {
      Properties info = key == null ? null : prebuiltInfo(key);
      if (info == null) {
        boolean shipped = prebuilt.platforms().contains(key);
        noPrebuilt = shipped
            ? ", no prebuilt one for " + key + " is on the classpath"
            : ", latency-lab ships none for " + (key == null ? System.getProperty("os.name")
                + " on " + System.getProperty("os.arch") : key);
        addIt = shipped ? "add " + prebuilt.artifact() + key + " (Maven: core's profiles add it;"
            + " Gradle: README, Requirements), " : "";
      } else if (sourceHash().equals(info.getProperty("sources.sha256"))) {
        return install(key, info, target);
      } else {
        // a core and an artifact of different versions, or sources changed since it was built
        noPrebuilt = ", the prebuilt one on the classpath (" + prebuilt.artifact() + key
            + ") was built from other sources (" + info.getProperty("sources.sha256")
            + "; these are " + sourceHash() + ")";
        addIt = "use the " + prebuilt.artifact() + key + " of latency-lab-core's version, ";
        LOG.warn("{}{}: not using it", state, noPrebuilt);
      }
    }
    String prefix = state + noPrebuilt;
    String fix = addIt;
    Path go = findGo.get().orElseThrow(() -> new IllegalStateException(prefix
        + " and there is no Go on PATH to build it: " + fix + "install Go 1.17 or newer"
        + " (https://go.dev/dl)" + (otherwise.isEmpty() ? "" : ", or " + otherwise)));
    if (Files.exists(target)) {
      LOG.warn("{}: building it again", state);
    }
    return build(go, target, platform, label, otherwise);
  }

  /**
   * Go's name for a platform, "linux-amd64": of {@code platform} ("linux/amd64"), or of this
   * JVM's OS and architecture when it is null; null for a JVM's that Go has no name for here.
   */
  public static String platformKey(String platform) {
    if (platform != null) {
      return platform.replace('/', '-');
    }
    String os = System.getProperty("os.name").toLowerCase(Locale.ROOT);
    String goos = os.contains("linux") ? "linux" : os.contains("mac") || os.contains("darwin")
        ? "darwin" : os.contains("windows") ? "windows" : null;
    String goarch = switch (System.getProperty("os.arch")) {
      case "amd64", "x86_64" -> "amd64";
      case "aarch64", "arm64" -> "arm64";
      default -> null;
    };
    return goos == null || goarch == null ? null : goos + "-" + goarch;
  }

  /** The properties of the artifact's binary for {@code key}; null without that artifact. */
  private Properties prebuiltInfo(String key) throws IOException {
    try (InputStream in = GoModule.class.getResourceAsStream(
        prebuilt.root() + key + "/" + binary + ".properties")) {
      if (in == null) {
        return null;
      }
      Properties info = new Properties();
      info.load(in);
      return info;
    }
  }

  /**
   * The artifact's binary copied beside {@code target}, checked against the SHA-256 its build
   * wrote, made executable and moved into place: a copy cut short is never run.
   */
  private Path install(String key, Properties info, Path target) throws IOException {
    String resource = prebuilt.root() + key + "/" + binary;
    URL source = GoModule.class.getResource(resource);
    if (source == null) {
      throw new IOException("The artifact " + prebuilt.artifact() + key + " on the classpath has"
          + " its " + binary + ".properties but no " + resource + ": get the artifact again"
          + " (delete it from your Maven or Gradle cache)");
    }
    Files.createDirectories(target.getParent());
    Path part = Files.createTempFile(target.getParent(), binary + "-", ".part");
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      try (InputStream in = source.openStream();
          OutputStream out = new DigestOutputStream(Files.newOutputStream(part), sha)) {
        in.transferTo(out);
      }
      String digest = HexFormat.of().formatHex(sha.digest());
      if (!digest.equals(info.getProperty("binary.sha256"))) {
        throw new IOException("The binary of " + title + " at " + source + " is damaged: its"
            + " SHA-256 is " + digest + ", its build wrote " + info.getProperty("binary.sha256")
            + ": get the artifact again (delete it from your Maven or Gradle cache)");
      }
      executable(part);
      Files.move(part, target, StandardCopyOption.ATOMIC_MOVE,
          StandardCopyOption.REPLACE_EXISTING);
      LOG.info("Installed {} from {}", target, source);
      return target;
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("no SHA-256 in this JVM", e);
    } finally {
      Files.deleteIfExists(part);
    }
  }

  /** rwxr-xr-x, as go build leaves a binary; where POSIX modes are not, the executable bit. */
  private static void executable(Path file) throws IOException {
    try {
      Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    } catch (UnsupportedOperationException notPosix) {
      if (!file.toFile().setExecutable(true)) {
        throw new IOException("Cannot make " + file + " executable: give your user the right"
            + " to, or set latencylab.cache to a directory where it has it");
      }
    }
  }

  /** Go on PATH, or where Go's own installer puts it (often not on a JVM's PATH). */
  public static Optional<Path> go() {
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
