package io.github.latencylab.wire;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A TCP relay on loopback in front of PostgreSQL (or of the Lab's proxy) that counts what any
 * client sends and receives through it, JVM or not: pgjdbc, a Netty-based reactive driver,
 * pgbench, psql. Each connection is counted on its own {@link WireCounter}, read out of the
 * protocol both ways exactly as at pgjdbc's socket, so that round trips mean the same here and
 * there (pipelined streams included: see {@link WireStats}).
 *
 * <p>A connection already counted at its socket (pgjdbc through a {@link CountingSocketFactory}
 * in this JVM) is counted again here on {@link #checks()} only, so that the two counts can be
 * compared and nothing is counted twice; any other client's on {@link #wire()}.
 *
 * <p>It reads each side as soon as bytes arrive and counts them before it passes them on, so
 * an answer is counted as received before the client can have read it, and a request as sent
 * before the server can answer it. The cost is one more loopback hop each way (tens of
 * microseconds): a Lab measures its RTT through the path its clients use.
 */
public final class WireRelay implements AutoCloseable {

  private static final int BUFFER = 64 * 1024;

  private final InetSocketAddress upstream;
  private final WireCounter wire;
  private final WireCounter checks;
  private final ServerSocket listener;
  private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
  private final Map<Integer, WireCounter> byClientPort = new ConcurrentHashMap<>();
  private final Thread acceptor;
  private volatile boolean closed;

  private WireRelay(InetSocketAddress upstream, WireCounter wire, WireCounter checks)
      throws IOException {
    this.upstream = upstream;
    this.wire = wire;
    this.checks = checks;
    this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    this.acceptor = new Thread(this::accept, "latency-lab-relay-" + listener.getLocalPort());
    acceptor.setDaemon(true);
    acceptor.start();
  }

  /**
   * Starts a relay to {@code upstream} that counts connections on {@code wire}, or on
   * {@code checks} where their socket counts them already.
   */
  public static WireRelay start(InetSocketAddress upstream, WireCounter wire,
      WireCounter checks) {
    try {
      return new WireRelay(upstream, wire, checks);
    } catch (IOException e) {
      throw new UncheckedIOException("Could not open the counting relay to " + upstream
          + " on a loopback port: " + e.getMessage(), e);
    }
  }

  /** Where clients connect: loopback, an ephemeral port. */
  public InetSocketAddress address() {
    return new InetSocketAddress(listener.getInetAddress(), listener.getLocalPort());
  }

  /** The counts of every connection not counted at a socket of this JVM. */
  public WireCounter wire() {
    return wire;
  }

  /** The counts, made again here, of connections counted at their socket. */
  public WireCounter checks() {
    return checks;
  }

  /**
   * The counter of the connection a client opened from {@code clientPort} (its socket's local
   * port), or null if none came through from there.
   */
  public WireCounter wire(int clientPort) {
    return byClientPort.get(clientPort);
  }

  private void accept() {
    while (!closed) {
      Socket client;
      try {
        client = listener.accept();
      } catch (IOException e) {
        return; // closed
      }
      Socket server = new Socket();
      try {
        client.setTcpNoDelay(true);
        server.setTcpNoDelay(true);
        server.connect(upstream);
      } catch (IOException e) {
        close(client);
        close(server);
        continue; // the client sees its connection closed, as it would without the relay
      }
      sockets.add(client);
      sockets.add(server);
      Thread up = new Thread(() -> relay(client, server), "latency-lab-relay-"
          + client.getPort() + "-up");
      up.setDaemon(true);
      up.start();
    }
  }

  // the client speaks first (PostgreSQL never does): by then its socket, if it counts, is
  // connected and known
  private void relay(Socket client, Socket server) {
    int port = client.getPort();
    byte[] first = new byte[BUFFER];
    int n;
    try {
      n = client.getInputStream().read(first);
    } catch (IOException e) {
      n = -1;
    }
    if (n < 0) {
      close(client);
      close(server);
      return;
    }
    WireCounter counter = CountingSocket.counts(port) ? checks.newConnection()
        : wire.newRelayedConnection();
    byClientPort.put(port, counter);
    Thread down = new Thread(() -> pump(server, client, counter, false),
        "latency-lab-relay-" + port + "-down");
    down.setDaemon(true);
    down.start();
    try {
      counter.sent(first, 0, n);
      server.getOutputStream().write(first, 0, n);
      pump(client, server, counter, true);
    } catch (IOException e) {
      close(client);
      close(server);
    } finally {
      byClientPort.remove(port, counter);
      counter.closed();
    }
  }

  // counts each chunk before it passes it on; one side's end closes both
  private void pump(Socket from, Socket to, WireCounter counter, boolean clientToServer) {
    byte[] buf = new byte[BUFFER];
    try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
      int n;
      while ((n = in.read(buf)) >= 0) {
        if (clientToServer) {
          counter.sent(buf, 0, n);
        } else {
          counter.received(buf, 0, n);
        }
        out.write(buf, 0, n);
      }
    } catch (IOException e) {
      // reset, or closed by the other pump: the connection is over
    } finally {
      close(from);
      close(to);
    }
  }

  private void close(Socket s) {
    sockets.remove(s);
    try {
      s.close();
    } catch (IOException e) {
      // closing: nothing to do
    }
  }

  /** Stops accepting and closes every connection through it. */
  @Override
  public void close() {
    closed = true;
    try {
      listener.close();
    } catch (IOException e) {
      // closing: nothing to do
    }
    for (Socket s : sockets) {
      close(s);
    }
    try {
      acceptor.join(5_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
