package io.github.latencylab.env.backend;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/** A loopback port free now: a server started on it may still find it taken, and try another. */
public final class LoopbackPort {

  private LoopbackPort() {
  }

  static int free() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }
}
