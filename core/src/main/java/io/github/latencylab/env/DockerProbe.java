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
    String dockerHost = environment.get("DOCKER_HOST");
    if (dockerHost != null && !dockerHost.isBlank()) {
      URI uri = URI.create(dockerHost);
      if ("unix".equals(uri.getScheme())) {
        return ping(UnixDomainSocketAddress.of(uri.getPath()));
      }
      if ("tcp".equals(uri.getScheme())) {
        return ping(new InetSocketAddress(uri.getHost(), uri.getPort()));
      }
      return false;
    }
    Path home = Path.of(System.getProperty("user.home"));
    for (Path socket : new Path[] {Path.of("/var/run/docker.sock"),
        home.resolve(".docker/run/docker.sock"), home.resolve(".docker/desktop/docker.sock"),
        Path.of("/run/user/" + uid(environment) + "/docker.sock")}) {
      if (Files.exists(socket) && ping(UnixDomainSocketAddress.of(socket))) {
        return true;
      }
    }
    return false;
  }

  private static String uid(Map<String, String> environment) {
    return environment.getOrDefault("UID", "0");
  }

  private static boolean ping(SocketAddress address) {
    StandardProtocolFamily family = address instanceof UnixDomainSocketAddress
        ? StandardProtocolFamily.UNIX : StandardProtocolFamily.INET;
    try (SocketChannel channel = SocketChannel.open(family)) {
      channel.connect(address);
      channel.write(ByteBuffer.wrap(
          "GET /_ping HTTP/1.0\r\nHost: docker\r\n\r\n".getBytes(StandardCharsets.US_ASCII)));
      ByteBuffer reply = ByteBuffer.allocate(512);
      long deadline = System.nanoTime() + 2_000_000_000L;
      while (channel.read(reply) >= 0 && System.nanoTime() < deadline) {
        if (new String(reply.array(), 0, reply.position(), StandardCharsets.US_ASCII)
            .contains("\r\n\r\nOK")) {
          return true;
        }
      }
      return false;
    } catch (IOException | UnsupportedOperationException e) {
      return false;
    }
  }
}
