package io.github.latencylab.wire;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.Objects;
import java.util.function.Supplier;
import javax.net.SocketFactory;

/**
 * A socket factory for pgjdbc's {@code socketFactory} connection property that counts round
 * trips and bytes. pgjdbc instantiates it by class name with {@code socketFactoryArg} as the
 * constructor argument: that argument names the {@link WireCounter} registered with
 * {@link #register}, usually one per Lab.
 *
 * <p>The counters are the JVM's ({@link JvmWide}), not this class loader's: pgjdbc may load
 * this class in one loader while a framework loaded the Lab in another, and its connections
 * count on that Lab all the same.
 *
 * <pre>socketFactory=io.github.latencylab.wire.CountingSocketFactory&amp;socketFactoryArg=lab-1</pre>
 */
public final class CountingSocketFactory extends SocketFactory {

  // the counter of the socket last created on this thread: connecting is synchronous in pgjdbc
  private static final ThreadLocal<WireCounter> LAST_CREATED = new ThreadLocal<>();

  private final Supplier<Socket> sockets;

  public CountingSocketFactory(String counterName) {
    Supplier<Socket> registered = JvmWide.socketMakers().get(counterName);
    if (registered == null) {
      throw new IllegalStateException("No Lab in this JVM counts connections as '" + counterName
          + "' (socketFactoryArg of the JDBC URL): its Lab is closed, or was started in another"
          + " JVM (take the URL from the Lab of this JVM: ${latencylab.lab.url}). Open here: "
          + JvmWide.socketMakers().keySet());
    }
    this.sockets = registered;
  }

  /**
   * Makes {@code counter} count the connections whose socketFactoryArg is {@code name}, in
   * this JVM, whichever class loader loads the factory pgjdbc makes.
   */
  public static void register(String name, WireCounter counter) {
    Objects.requireNonNull(counter, "counter");
    Supplier<Socket> sockets = () -> {
      WireCounter perConnection = counter.newConnection();
      LAST_CREATED.set(perConnection);
      return new CountingSocket(perConnection);
    };
    if (JvmWide.socketMakers().putIfAbsent(name, sockets) != null) {
      throw new IllegalStateException("A wire counter is already registered as '" + name + "'");
    }
  }

  public static void unregister(String name) {
    JvmWide.socketMakers().remove(name);
  }

  /** Takes the per-connection counter of the socket this thread created last, if any. */
  static WireCounter takeLastCreated() {
    WireCounter last = LAST_CREATED.get();
    LAST_CREATED.remove();
    return last;
  }

  @Override
  public Socket createSocket() {
    return sockets.get();
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
