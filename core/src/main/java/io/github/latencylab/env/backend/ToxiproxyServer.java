package io.github.latencylab.env.backend;

import io.github.latencylab.env.LabConfig;
import io.github.latencylab.env.Setting;
import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Toxiproxy server process on a free loopback port, for the embedded backend; and the binary
 * itself, for the testcontainers backend too.
 *
 * <p>The binary is latency-lab's own: Toxiproxy's unchanged server plus the {@code latency_us}
 * and {@code tcp_window} toxics, a small Go module shipped in this jar's resources
 * ({@code toxiproxy/}, listed in its {@code SOURCES}). The first use puts it ({@link GoModule})
 * into the cache, in a directory named for Toxiproxy's version and a hash of those sources:
 * copied from the artifact latency-lab builds for the platform
 * ({@code latency-lab-toxiproxy-linux-amd64}, ...: core's profiles add the machine's) when it
 * was built from these sources, else built with {@code go build}. Changed sources get a new
 * binary, and a binary is never half-written (it is moved into place).
 * {@code .ci/toxiproxy-server.sh} builds the same sources the same way into the same place.
 */
public final class ToxiproxyServer implements AutoCloseable {

  private static final String BINARY = "toxiproxy-server";
  /** Its sources, and the artifacts of toxiproxy-server/ that carry it built. */
  public static final GoModule MODULE = new GoModule("/io/github/latencylab/env/toxiproxy/", BINARY,
      "latency-lab's Toxiproxy server", new GoModule.Prebuilt(
          "/io/github/latencylab/toxiproxy-server/", "io.github.latencylab:latency-lab-toxiproxy-",
          List.of("linux-amd64", "linux-arm64", "darwin-amd64", "darwin-arm64")));
  private static final Logger LOG = LoggerFactory.getLogger(ToxiproxyServer.class);
  /** Upstream Toxiproxy's version, from the module's go.mod, e.g. "v2.5.0". */
  public static final String UPSTREAM_VERSION = upstreamVersion();

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

  public static ToxiproxyServer start(LabConfig config) throws IOException, InterruptedException {
    Leftovers.stopOrphans(config);
    Path binary = locate(config);
    IOException last = null;
    for (int attempt = 0; attempt < 3; attempt++) {
      int port = LoopbackPort.free();
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

  public int port() {
    return port;
  }

  long pid() {
    return process.pid();
  }

  public boolean isAlive() {
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
            + " on port " + port + ": " + GoModule.tail(log));
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
        + timeout.toSeconds() + " s: " + GoModule.tail(log));
  }

  private static String fix(LabConfig config) {
    return config.get(Setting.TOXIPROXY_SERVER).isBlank()
        ? "delete it, and latency-lab puts it back on the next start"
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

  /** The binary: the setting (a user's own server), else latency-lab's, installed if need be. */
  public static Path locate(LabConfig config) throws IOException, InterruptedException {
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
   * cache, or installed into it from the platform's artifact, or built into it.
   */
  public static Path ownBinary(LabConfig config, String platform)
      throws IOException, InterruptedException {
    return ownBinary(config, platform, MODULE);
  }

  /** ... from {@code module}: {@link #MODULE} without Go or without its artifacts (tests). */
  public static Path ownBinary(LabConfig config, String platform, GoModule module)
      throws IOException, InterruptedException {
    return module.binary(cachedBinary(config, platform), platform,
        UPSTREAM_VERSION + " + latency_us", "set " + Setting.TOXIPROXY_SERVER.property()
            + " to a toxiproxy-server binary (whole-millisecond latency only)");
  }

  public static Path cachedBinary(LabConfig config) {
    return cachedBinary(config, null);
  }

  public static Path cachedBinary(LabConfig config, String platform) {
    Path dir = config.cacheDir().resolve("toxiproxy")
        .resolve(UPSTREAM_VERSION + "-latency_us-" + sourceHash());
    return (platform == null ? dir : dir.resolve(platform.replace('/', '-'))).resolve(BINARY);
  }

  /** The cache key of the sources; .ci/toxiproxy-server.sh computes the same. */
  public static String sourceHash() {
    return MODULE.sourceHash();
  }

  private static String upstreamVersion() {
    Matcher m = Pattern.compile("github\\.com/Shopify/toxiproxy/v2 (v\\S+)")
        .matcher(new String(MODULE.resource("go.mod"), StandardCharsets.UTF_8));
    if (!m.find()) {
      throw new IllegalStateException("no Toxiproxy version in toxiproxy/go.mod");
    }
    return m.group(1);
  }
}
