package io.github.latencylab.env;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.StandardProtocolFamily;
import java.net.URI;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * Does a Docker engine answer? A {@code GET /_ping} on DOCKER_HOST or the usual sockets, in
 * milliseconds, so that backend AUTO never waits on Testcontainers' own, slower discovery.
 */
final class DockerProbe {

  private DockerProbe() {
  }

  static boolean dockerAnswers(Map<String, String> environment) {
    return engine(environment) != null;
  }

  /** Is {@code image} (e.g. "postgres:17") in the engine's local store, so no pull is needed? */
  static boolean imagePresent(Map<String, String> environment, String image) {
    SocketAddress engine = engine(environment);
    return engine != null && status(engine, "/images/" + image + "/json") == 200;
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
    Path home = Path.of(System.getProperty("user.home"));
    for (Path socket : new Path[] {Path.of("/var/run/docker.sock"),
        home.resolve(".docker/run/docker.sock"), home.resolve(".docker/desktop/docker.sock"),
        Path.of("/run/user/" + environment.getOrDefault("UID", "0") + "/docker.sock")}) {
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
    StandardProtocolFamily family = address instanceof UnixDomainSocketAddress
        ? StandardProtocolFamily.UNIX : StandardProtocolFamily.INET;
    try (SocketChannel channel = SocketChannel.open(family)) {
      channel.connect(address);
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
}
