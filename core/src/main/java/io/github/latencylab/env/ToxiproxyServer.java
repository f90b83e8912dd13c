package io.github.latencylab.env;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.HttpURLConnection;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Toxiproxy server process on a free loopback port, for the embedded backend; and the binary
 * itself, for the testcontainers backend too.
 *
 * <p>The binary is latency-lab's own: Toxiproxy's unchanged server plus the {@code latency_us}
 * toxic, a small Go module shipped in this jar's resources ({@code toxiproxy/}, listed in its
 * {@code SOURCES}). The first use builds it with {@code go build} into the cache, in a directory
 * named for Toxiproxy's version and a hash of those sources, so changed sources get a new
 * build and a binary is never half-written (it is moved into place).
 * {@code .ci/toxiproxy-server.sh} builds the same sources the same way into the same place.
 */
final class ToxiproxyServer implements AutoCloseable {

  private static final String BINARY = "toxiproxy-server";
  private static final String SOURCES = "toxiproxy/";
  private static final Logger LOG = LoggerFactory.getLogger(ToxiproxyServer.class);
  /** Upstream Toxiproxy's version, from the module's go.mod, e.g. "v2.5.0". */
  static final String UPSTREAM_VERSION = upstreamVersion();

  private final Process process;
  private final int port;
  private final Path log;
  private String version = "unknown";

  private Path registration;

  private ToxiproxyServer(Process process, int port, Path log) {
    this.process = process;
    this.port = port;
    this.log = log;
  }

  static ToxiproxyServer start(LabConfig config) throws IOException, InterruptedException {
    Leftovers.stopOrphans(config);
    Path binary = locate(config);
    IOException last = null;
    for (int attempt = 0; attempt < 3; attempt++) {
      int port = freePort();
      // beside its registration: a killed JVM's is found and deleted there (stopOrphans)
      Path log = Files.createTempFile(Files.createDirectories(Leftovers.runDirectory(config)),
          "toxiproxy-", ".log");
      Process process;
      try {
        process = new ProcessBuilder(binary.toString(), "-host", "127.0.0.1",
            "-port", Integer.toString(port))
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
      } catch (IOException e) {
        Files.deleteIfExists(log);
        throw new IOException("Cannot run the Toxiproxy server " + binary + " (" + e.getMessage()
            .replaceFirst("^Cannot run program \"[^\"]*\": ", "") + "): " + fix(config), e);
      }
      ToxiproxyServer server = new ToxiproxyServer(process, port, log);
      try {
        server.awaitReady(Duration.ofSeconds(15));
        server.register(config);
        return server;
      } catch (IOException e) {
        last = e;
        server.close();
      }
    }
    // a port taken between choosing it and binding would have passed on another: the binary
    throw new IOException("The Toxiproxy server " + binary + " did not start: "
        + last.getMessage() + ". " + Character.toUpperCase(fix(config).charAt(0))
        + fix(config).substring(1), last);
  }

  int port() {
    return port;
  }

  long pid() {
    return process.pid();
  }

  boolean isAlive() {
    return process.isAlive();
  }

  /** What its /version said: "2.5.0+latency_us" for latency-lab's own. */
  String version() {
    return version;
  }

  private void awaitReady(Duration timeout) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new IOException("toxiproxy-server exited with " + process.exitValue()
            + " on port " + port + ": " + tail(log));
      }
      try {
        HttpURLConnection http = (HttpURLConnection)
            URI.create("http://127.0.0.1:" + port + "/version").toURL().openConnection();
        http.setConnectTimeout(200);
        http.setReadTimeout(1000);
        if (http.getResponseCode() == 200) {
          try (InputStream body = http.getInputStream()) {
            version = new String(body.readAllBytes(), StandardCharsets.UTF_8).trim();
          }
          return;
        }
      } catch (IOException notYet) {
        // not listening yet
      }
      Thread.sleep(25);
    }
    throw new IOException("toxiproxy-server did not answer on port " + port + " within "
        + timeout.toSeconds() + " s: " + tail(log));
  }

  private static String fix(LabConfig config) {
    return config.get(Setting.TOXIPROXY_SERVER).isBlank()
        ? "delete it, and latency-lab builds it again on the next start"
        : "fix " + Setting.TOXIPROXY_SERVER.property() + ", or unset it to use latency-lab's own";
  }

  private void register(LabConfig config) throws IOException {
    registration = Leftovers.register(config, BINARY, process.pid(), log);
  }

  @Override
  public void close() {
    Leftovers.release(registration);
    process.destroy();
    try {
      if (!process.waitFor(5, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
    try {
      Files.deleteIfExists(log);
    } catch (IOException ignored) {
      // a temp file; the OS cleans it
    }
  }

  /** The binary: the setting (a user's own server), else latency-lab's, built if need be. */
  static Path locate(LabConfig config) throws IOException, InterruptedException {
    String configured = config.get(Setting.TOXIPROXY_SERVER);
    if (!configured.isBlank()) {
      Path path = Path.of(configured);
      if (!Files.isExecutable(path)) {
        throw new IllegalArgumentException(config.invalid(Setting.TOXIPROXY_SERVER,
            "no executable file there"));
      }
      return path;
    }
    return ownBinary(config, null);
  }

  /**
   * latency-lab's server for {@code platform} ("linux/arm64"; null: this machine), from the
   * cache or built into it.
   */
  static Path ownBinary(LabConfig config, String platform)
      throws IOException, InterruptedException {
    Path cached = cachedBinary(config, platform);
    if (Files.isExecutable(cached)) {
      return cached;
    }
    String state = Files.exists(cached) ? cached + " is not executable" : "latency-lab's"
        + " Toxiproxy server is not built yet";
    // Go's own installer puts it in /usr/local/go/bin, often not on a JVM's PATH
    Path go = onPath("go").or(() -> Optional.of(Path.of("/usr/local/go/bin/go"))
        .filter(Files::isExecutable)).orElseThrow(() -> new IllegalStateException(state
        + " and there is no Go on PATH to build it: install"
        + " Go 1.17 or newer (https://go.dev/dl), or set " + Setting.TOXIPROXY_SERVER.property()
        + " to a toxiproxy-server binary (whole-millisecond latency only)"));
    if (Files.exists(cached)) {
      LOG.warn("{}: building it again", state);
    }
    return build(go, cached, platform);
  }

  static Path cachedBinary(LabConfig config) {
    return cachedBinary(config, null);
  }

  private static Path cachedBinary(LabConfig config, String platform) {
    Path dir = config.cacheDir().resolve("toxiproxy")
        .resolve(UPSTREAM_VERSION + "-latency_us-" + sourceHash());
    return (platform == null ? dir : dir.resolve(platform.replace('/', '-'))).resolve(BINARY);
  }

  /**
   * The first 12 hex digits of the SHA-256 of SOURCES followed by each file it lists, in its
   * order; .ci/toxiproxy-server.sh computes the same.
   */
  static String sourceHash() {
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      sha.update(resource("SOURCES"));
      for (String file : sourceFiles()) {
        sha.update(resource(file));
      }
      return HexFormat.of().formatHex(sha.digest()).substring(0, 12);
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException("no SHA-256 in this JVM", e);
    }
  }

  private static List<String> sourceFiles() {
    return new String(resource("SOURCES"), StandardCharsets.UTF_8).lines()
        .filter(line -> !line.isBlank()).toList();
  }

  private static byte[] resource(String name) {
    try (InputStream in = ToxiproxyServer.class.getResourceAsStream(SOURCES + name)) {
      if (in == null) {
        throw new IllegalStateException("latency-lab's Toxiproxy sources are incomplete: no "
            + SOURCES + name + " beside " + ToxiproxyServer.class.getName());
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String upstreamVersion() {
    Matcher m = Pattern.compile("github\\.com/Shopify/toxiproxy/v2 (v\\S+)")
        .matcher(new String(resource("go.mod"), StandardCharsets.UTF_8));
    if (!m.find()) {
      throw new IllegalStateException("no Toxiproxy version in " + SOURCES + "go.mod");
    }
    return m.group(1);
  }

  /** go build of the sources, static, into a fresh directory beside target, then moved there. */
  private static Path build(Path go, Path target, String platform)
      throws IOException, InterruptedException {
    Files.createDirectories(target.getParent());
    Path work = Files.createTempDirectory(target.getParent(), "build-");
    try {
      Path src = Files.createDirectory(work.resolve("src"));
      for (String file : sourceFiles()) {
        Files.write(src.resolve(file), resource(file));
      }
      Path out = work.resolve(BINARY);
      Path buildLog = work.resolve("go-build.log");
      System.err.println("latency-lab: building latency-lab's Toxiproxy server (" + UPSTREAM_VERSION
          + " + latency_us" + (platform == null ? "" : ", " + platform) + ") with go build into "
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
        throw new IOException("Could not build latency-lab's Toxiproxy server with " + go
            + (finished ? " (exit " + process.exitValue() + ")" : " (over 10 minutes)") + ": "
            + tail(buildLog) + ". It needs Go 1.17 or newer and, on first build, the Go module"
            + " proxy; or set " + Setting.TOXIPROXY_SERVER.property()
            + " to a toxiproxy-server binary (whole-millisecond latency only)");
      }
      Files.move(out, target, StandardCopyOption.ATOMIC_MOVE,
          StandardCopyOption.REPLACE_EXISTING);
      LOG.info("Built {}", target);
      return target;
    } finally {
      deleteTree(work);
    }
  }

  private static void deleteTree(Path dir) throws IOException {
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }

  private static Optional<Path> onPath(String name) {
    String path = System.getenv("PATH");
    if (path == null) {
      return Optional.empty();
    }
    for (String dir : path.split(java.io.File.pathSeparator)) {
      Path candidate = Path.of(dir, name);
      if (Files.isExecutable(candidate)) {
        return Optional.of(candidate);
      }
    }
    return Optional.empty();
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }

  private static String tail(Path file) {
    try {
      List<String> lines = Files.readAllLines(file);
      return String.join(" | ", lines.subList(Math.max(0, lines.size() - 5), lines.size()));
    } catch (IOException e) {
      return "(no log: " + e.getMessage() + ")";
    }
  }
}
