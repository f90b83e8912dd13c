package io.github.latencylab.wire;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import javax.net.SocketFactory;

/**
 * A socket factory for pgjdbc's {@code socketFactory} connection property that counts round
 * trips and bytes. pgjdbc instantiates it by class name with {@code socketFactoryArg} as the
 * constructor argument: that argument names the {@link WireCounter} registered with
 * {@link #register}, usually one per Lab.
 *
 * <pre>socketFactory=io.github.latencylab.wire.CountingSocketFactory&amp;socketFactoryArg=lab-1</pre>
 */
public final class CountingSocketFactory extends SocketFactory {

  private static final Map<String, WireCounter> COUNTERS = new ConcurrentHashMap<>();
  // the counter of the socket last created on this thread: connecting is synchronous in pgjdbc
  private static final ThreadLocal<WireCounter> LAST_CREATED = new ThreadLocal<>();

  private final WireCounter counter;

  public CountingSocketFactory(String counterName) {
    WireCounter registered = COUNTERS.get(counterName);
    if (registered == null) {
      throw new IllegalStateException(
          "No wire counter registered as '" + counterName + "' (socketFactoryArg): is its Lab"
              + " closed? Registered: " + COUNTERS.keySet());
    }
    this.counter = registered;
  }

  /** Makes {@code counter} available to connections whose socketFactoryArg is {@code name}. */
  public static void register(String name, WireCounter counter) {
    Objects.requireNonNull(counter, "counter");
    if (COUNTERS.putIfAbsent(name, counter) != null) {
      throw new IllegalStateException("A wire counter is already registered as '" + name + "'");
    }
  }

  public static void unregister(String name) {
    COUNTERS.remove(name);
  }

  /** Takes the per-connection counter of the socket this thread created last, if any. */
  static WireCounter takeLastCreated() {
    WireCounter last = LAST_CREATED.get();
    LAST_CREATED.remove();
    return last;
  }

  @Override
  public Socket createSocket() {
    WireCounter perConnection = counter.newConnection();
    LAST_CREATED.set(perConnection);
    return new CountingSocket(perConnection);
  }

  @Override
  public Socket createSocket(String host, int port) throws IOException {
    return connected(new InetSocketAddress(host, port));
  }

  @Override
  public Socket createSocket(String host, int port, InetAddress localHost, int localPort)
      throws IOException {
    Socket socket = createSocket();
    socket.bind(new InetSocketAddress(localHost, localPort));
    socket.connect(new InetSocketAddress(host, port));
    return socket;
  }

  @Override
  public Socket createSocket(InetAddress host, int port) throws IOException {
    return connected(new InetSocketAddress(host, port));
  }

  @Override
  public Socket createSocket(InetAddress address, int port, InetAddress localAddress,
      int localPort) throws IOException {
    Socket socket = createSocket();
    socket.bind(new InetSocketAddress(localAddress, localPort));
    socket.connect(new InetSocketAddress(address, port));
    return socket;
  }

  private Socket connected(InetSocketAddress address) throws IOException {
    Socket socket = createSocket();
    socket.connect(address);
    return socket;
  }
}
