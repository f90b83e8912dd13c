package io.github.latencylab.env;

import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Toxiproxy server process on a free loopback port, for the embedded backend. Finds the
 * binary (setting, PATH, cache) or builds it into the cache with {@code go install}.
 */
final class ToxiproxyServer implements AutoCloseable {

  static final String VERSION = "v2.5.0";
  static final String GO_PACKAGE = "github.com/Shopify/toxiproxy/v2/cmd/server@" + VERSION;
  private static final String BINARY = "toxiproxy-server";
  private static final Logger LOG = LoggerFactory.getLogger(ToxiproxyServer.class);

  private final Process process;
  private final int port;
  private final Path log;

  private ToxiproxyServer(Process process, int port, Path log) {
    this.process = process;
    this.port = port;
    this.log = log;
  }

  static ToxiproxyServer start(LabConfig config) throws IOException, InterruptedException {
    Path binary = locate(config);
    IOException last = null;
    for (int attempt = 0; attempt < 3; attempt++) {
      int port = freePort();
      Path log = Files.createTempFile("latency-lab-toxiproxy-", ".log");
      Process process = new ProcessBuilder(binary.toString(), "-host", "127.0.0.1",
          "-port", Integer.toString(port))
          .redirectErrorStream(true)
          .redirectOutput(log.toFile())
          .start();
      ToxiproxyServer server = new ToxiproxyServer(process, port, log);
      try {
        server.awaitReady(Duration.ofSeconds(15));
        return server;
      } catch (IOException e) {
        last = e;
        server.close();
      }
    }
    throw last;
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

  @Override
  public void close() {
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

  /** The binary: the setting, else PATH, else the cache, else built into the cache by go. */
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
    Optional<Path> onPath = onPath(BINARY);
    if (onPath.isPresent()) {
      return onPath.get();
    }
    Path cached = cachedBinary(config);
    if (Files.isExecutable(cached)) {
      return cached;
    }
    Optional<Path> go = onPath("go");
    if (go.isEmpty()) {
      throw new IllegalStateException("No Toxiproxy server found: set "
          + Setting.TOXIPROXY_SERVER.property() + " (" + Setting.TOXIPROXY_SERVER
          .environmentVariable() + ") to a toxiproxy-server binary, put " + BINARY
          + " on PATH, install Go so the Lab can build it, or use -D"
          + Setting.BACKEND.property() + "=testcontainers");
    }
    return build(go.get(), cached);
  }

  static Path cachedBinary(LabConfig config) {
    return config.cacheDir().resolve("toxiproxy").resolve(VERSION).resolve(BINARY);
  }

  private static Path build(Path go, Path target) throws IOException, InterruptedException {
    Path dir = target.getParent();
    Files.createDirectories(dir);
    Path work = Files.createTempDirectory(dir, "build-");
    System.err.println("latency-lab: building the Toxiproxy server " + VERSION
        + " with go install into " + dir + " (first use only, about a minute)...");
    List<String> command = new ArrayList<>(List.of(go.toString(), "install", GO_PACKAGE));
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(work.resolve("go-install.log").toFile());
    builder.environment().put("CGO_ENABLED", "0");
    builder.environment().put("GOBIN", work.toString());
    Process process = builder.start();
    if (!process.waitFor(10, TimeUnit.MINUTES) || process.exitValue() != 0) {
      process.destroyForcibly();
      throw new IOException("go install " + GO_PACKAGE + " failed: "
          + tail(work.resolve("go-install.log")));
    }
    // the package's binary is called "server"; move it into place atomically
    Files.move(work.resolve("server"), target, java.nio.file.StandardCopyOption.ATOMIC_MOVE,
        java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    Files.deleteIfExists(work.resolve("go-install.log"));
    Files.deleteIfExists(work);
    LOG.info("Built {}", target);
    return target;
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
