package io.github.latencylab.wire;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Counts round trips and bytes for one connection, or for every connection of a Lab (then
 * {@code parent} of each connection's counter). Thread-safe; read it with {@link #snapshot()}.
 */
public final class WireCounter {

  private final WireCounter parent;
  private final AtomicLong roundTrips = new AtomicLong();
  private final AtomicLong bytesSent = new AtomicLong();
  private final AtomicLong bytesReceived = new AtomicLong();
  // true once the client wrote since it last received: the next data it reads ends a round trip
  private volatile boolean awaitingReply;

  public WireCounter() {
    this(null);
  }

  WireCounter(WireCounter parent) {
    this.parent = parent;
  }

  /** A counter for one connection that also adds to this one. */
  WireCounter newConnection() {
    return new WireCounter(this);
  }

  void sent(int bytes) {
    if (bytes <= 0) {
      return;
    }
    awaitingReply = true;
    bytesSent.addAndGet(bytes);
    if (parent != null) {
      parent.bytesSent.addAndGet(bytes);
    }
  }

  void received(int bytes) {
    if (bytes <= 0) {
      return;
    }
    bytesReceived.addAndGet(bytes);
    long trips = 0;
    if (awaitingReply) {
      awaitingReply = false;
      trips = 1;
      roundTrips.incrementAndGet();
    }
    if (parent != null) {
      parent.bytesReceived.addAndGet(bytes);
      parent.roundTrips.addAndGet(trips);
    }
  }

  public WireStats snapshot() {
    return new WireStats(roundTrips.get(), bytesSent.get(), bytesReceived.get());
  }

  /** Runs {@code action} and returns what it cost on this counter. */
  public <E extends Exception> WireStats measure(ThrowingRunnable<E> action) throws E {
    WireStats before = snapshot();
    action.run();
    return snapshot().minus(before);
  }

  /** A {@link Runnable} that may throw, for {@link #measure}. */
  @FunctionalInterface
  public interface ThrowingRunnable<E extends Exception> {
    void run() throws E;
  }
}
