package io.github.latencylab.wire;

import java.io.FilterInputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketAddress;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/** A plain TCP socket whose streams report every byte to a {@link WireCounter}. */
final class CountingSocket extends Socket {

  // the local ports of this JVM's open counting sockets: a relay they go through knows them
  private static final Set<Integer> OPEN = ConcurrentHashMap.newKeySet();

  private final WireCounter counter;
  private InputStream countingIn;
  private OutputStream countingOut;

  CountingSocket(WireCounter counter) {
    this.counter = counter;
  }

  WireCounter counter() {
    return counter;
  }

  @Override
  public void connect(SocketAddress endpoint, int timeout) throws IOException {
    super.connect(endpoint, timeout);
    counter.localPort(getLocalPort());
    OPEN.add(getLocalPort());
  }

  /** Whether a counting socket of this JVM is connected from {@code localPort}. */
  static boolean counts(int localPort) {
    return OPEN.contains(localPort);
  }

  @Override
  public synchronized void close() throws IOException {
    OPEN.remove(counter.localPort());
    counter.closed();
    super.close();
  }

  @Override
  public synchronized InputStream getInputStream() throws IOException {
    if (countingIn == null) {
      countingIn = new FilterInputStream(super.getInputStream()) {
        @Override
        public int read() throws IOException {
          long called = System.nanoTime();
          int b = super.read();
          if (b >= 0) {
            counter.received(new byte[] {(byte) b}, 0, 1, called, System.nanoTime());
          }
          return b;
        }

        // timed: how long the client was blocked on the server (WireCounter.waitNanos); two
        // System.nanoTime calls a read, and pgjdbc reads its socket only to refill its buffer
        @Override
        public int read(byte[] buf, int off, int len) throws IOException {
          long called = System.nanoTime();
          int n = super.read(buf, off, len);
          counter.received(buf, off, n, called, System.nanoTime());
          return n;
        }
      };
    }
    return countingIn;
  }

  @Override
  public synchronized OutputStream getOutputStream() throws IOException {
    if (countingOut == null) {
      countingOut = new FilterOutputStream(super.getOutputStream()) {
        @Override
        public void write(int b) throws IOException {
          out.write(b);
          counter.sent(new byte[] {(byte) b}, 0, 1, System.nanoTime());
        }

        @Override
        public void write(byte[] buf, int off, int len) throws IOException {
          out.write(buf, off, len);
          counter.sent(buf, off, len, System.nanoTime());
        }
      };
    }
    return countingOut;
  }
}
