package io.github.latencylab.env.backend;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.StandardProtocolFamily;
import java.net.URI;
import java.net.URLEncoder;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Does a Docker engine answer? A {@code GET /_ping} on DOCKER_HOST or the usual sockets, in
 * milliseconds, so that backend AUTO never waits on Testcontainers' own, slower discovery; and
 * a pull with a deadline, where Testcontainers retries a failing pull for minutes.
 */
public final class DockerProbe {

  private DockerProbe() {
  }

  public static boolean dockerAnswers(Map<String, String> environment) {
    return engine(environment) != null;
  }

  /** Is {@code image} (e.g. "postgres:17") in the engine's local store, so no pull is needed? */
  public static boolean imagePresent(Map<String, String> environment, String image) {
    SocketAddress engine = engine(environment);
    return engine != null && status(engine, "/images/" + image + "/json") == 200;
  }

  /** Where the probe looks for an engine, for messages. */
  public static String where(Map<String, String> environment) {
    String dockerHost = environment.get("DOCKER_HOST");
    return dockerHost != null && !dockerHost.isBlank() ? "DOCKER_HOST=" + dockerHost
        : String.join(", ", sockets(environment).stream().map(Path::toString).toList());
  }

  /** The sockets an engine listens on without DOCKER_HOST: Linux, Docker Desktop, rootless. */
  private static List<Path> sockets(Map<String, String> environment) {
    Path home = Path.of(System.getProperty("user.home"));
    return List.of(Path.of("/var/run/docker.sock"), home.resolve(".docker/run/docker.sock"),
        home.resolve(".docker/desktop/docker.sock"),
        Path.of("/run/user/" + environment.getOrDefault("UID", "0") + "/docker.sock"));
  }

  /**
   * Pulls {@code image} through the engine, waiting at most {@code timeout}: empty when it is
   * there afterwards, else why not in the engine's words (e.g. a registry that cannot be
   * resolved), in one line.
   */
  public static Optional<String> pull(Map<String, String> environment, String image,
      Duration timeout) {
    SocketAddress engine = engine(environment);
    if (engine == null) {
      return Optional.of("no Docker engine answers");
    }
    int at = image.indexOf('@');
    int colon = image.lastIndexOf(':');
    String name = image;
    String tag = "latest";
    if (at >= 0) {
      name = image.substring(0, at);
      tag = image.substring(at + 1);
    } else if (colon > image.lastIndexOf('/')) {
      name = image.substring(0, colon);
      tag = image.substring(colon + 1);
    }
    String path = "/images/create?fromImage=" + URLEncoder.encode(name,
        StandardCharsets.UTF_8) + "&tag=" + URLEncoder.encode(tag, StandardCharsets.UTF_8);
    var executor = Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "latency-lab-docker-pull");
      t.setDaemon(true);
      return t;
    });
    try {
      Future<String> reply = executor.submit(() -> exchange(engine, "POST", path));
      String body;
      try {
        body = reply.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
      } catch (TimeoutException e) {
        reply.cancel(true);
        return Optional.of("the pull did not finish within " + timeout.toSeconds() + " s");
      } catch (ExecutionException e) {
        return Optional.of("the pull failed: " + e.getCause().getMessage());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return Optional.of("interrupted while pulling");
      }
      if (imagePresent(environment, image)) {
        return Optional.empty();
      }
      Matcher m = Pattern.compile("\"(?:message|error)\"\\s*:\\s*\"((?:[^\"\\\\]|\\\\.)*)\"")
          .matcher(body);
      return Optional.of(m.find() ? m.group(1).replace("\\\"", "\"")
          : "the engine did not pull it: " + firstLine(body));
    } finally {
      executor.shutdownNow();
    }
  }

  private static String firstLine(String text) {
    String line = text.strip().lines().findFirst().orElse("(no answer)");
    return line.length() > 200 ? line.substring(0, 200) + "..." : line;
  }

  /** A whole HTTP/1.0 exchange; the reply's body. */
  private static String exchange(SocketAddress address, String method, String path)
      throws IOException {
    try (SocketChannel channel = connect(address)) {
      channel.write(ByteBuffer.wrap((method + " " + path + " HTTP/1.0\r\nHost: docker\r\n"
          + "Content-Length: 0\r\n\r\n").getBytes(StandardCharsets.US_ASCII)));
      ByteArrayOutputStream all = new ByteArrayOutputStream();
      ByteBuffer buffer = ByteBuffer.allocate(8192);
      while (channel.read(buffer) >= 0) {
        all.write(buffer.array(), 0, buffer.position());
        buffer.clear();
      }
      String reply = all.toString(StandardCharsets.UTF_8);
      int body = reply.indexOf("\r\n\r\n");
      return body < 0 ? reply : reply.substring(body + 4);
    }
  }

  /** The engine's address, or null when none answers. */
  private static SocketAddress engine(Map<String, String> environment) {
    String dockerHost = environment.get("DOCKER_HOST");
    if (dockerHost != null && !dockerHost.isBlank()) {
      URI uri = URI.create(dockerHost);
      SocketAddress address = switch (String.valueOf(uri.getScheme())) {
        case "unix" -> UnixDomainSocketAddress.of(uri.getPath());
        case "tcp" -> new InetSocketAddress(uri.getHost(), uri.getPort());
        default -> null;
      };
      return address != null && status(address, "/_ping") == 200 ? address : null;
    }
    for (Path socket : sockets(environment)) {
      if (Files.exists(socket)) {
        SocketAddress address = UnixDomainSocketAddress.of(socket);
        if (status(address, "/_ping") == 200) {
          return address;
        }
      }
    }
    return null;
  }

  /** The HTTP status of a GET on the engine's API, or -1. */
  private static int status(SocketAddress address, String path) {
    try (SocketChannel channel = connect(address)) {
      channel.write(ByteBuffer.wrap(("GET " + path + " HTTP/1.0\r\nHost: docker\r\n\r\n")
          .getBytes(StandardCharsets.US_ASCII)));
      ByteBuffer reply = ByteBuffer.allocate(64);
      while (reply.hasRemaining() && channel.read(reply) >= 0) {
        String head = new String(reply.array(), 0, reply.position(), StandardCharsets.US_ASCII);
        if (head.matches("(?s)HTTP/1\\.[01] \\d{3}.*")) {
          return Integer.parseInt(head.substring(9, 12));
        }
      }
      return -1;
    } catch (IOException | UnsupportedOperationException e) {
      return -1;
    }
  }

  private static SocketChannel connect(SocketAddress address) throws IOException {
    SocketChannel channel = SocketChannel.open(address instanceof UnixDomainSocketAddress
        ? StandardProtocolFamily.UNIX : StandardProtocolFamily.INET);
    try {
      channel.connect(address);
      return channel;
    } catch (IOException | RuntimeException e) {
      channel.close();
      throw e;
    }
  }
}
