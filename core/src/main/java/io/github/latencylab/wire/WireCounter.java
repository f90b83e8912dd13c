package io.github.latencylab.wire;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Counts round trips, statements and bytes for one connection, or for every connection of a
 * Lab (then the {@code parent} of each connection's counter), and keeps the SQL of the last
 * {@value #SQL_KEPT} statements. Thread-safe; read it with {@link #snapshot()}.
 */
public final class WireCounter {

  static final int SQL_KEPT = 10_000;

  private final WireCounter parent;
  private final AtomicLong roundTrips = new AtomicLong();
  private final AtomicLong statements = new AtomicLong();
  private final AtomicLong bytesSent = new AtomicLong();
  private final AtomicLong bytesReceived = new AtomicLong();
  private final ArrayDeque<String> sql = new ArrayDeque<>();
  private final FrontendTap tap;
  // true once the client wrote since it last received: the next data it reads ends a round trip
  private volatile boolean awaitingReply;

  public WireCounter() {
    this(null);
  }

  private WireCounter(WireCounter parent) {
    this.parent = parent;
    this.tap = parent == null ? null : new FrontendTap(this::executed);
  }

  /** A counter for one connection that also adds to this one. */
  WireCounter newConnection() {
    return new WireCounter(this);
  }

  void sent(byte[] buf, int off, int len) {
    if (len <= 0) {
      return;
    }
    awaitingReply = true;
    bytesSent.addAndGet(len);
    if (parent != null) {
      parent.bytesSent.addAndGet(len);
    }
    if (tap != null) {
      tap.sent(buf, off, len);
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

  private void executed(String statement) {
    record(statement);
    if (parent != null) {
      parent.record(statement);
    }
  }

  private void record(String statement) {
    synchronized (sql) {
      statements.incrementAndGet();
      sql.addLast(statement);
      if (sql.size() > SQL_KEPT) {
        sql.removeFirst();
      }
    }
  }

  public WireStats snapshot() {
    return new WireStats(roundTrips.get(), statements.get(), bytesSent.get(),
        bytesReceived.get());
  }

  /**
   * The SQL of the statements executed since {@code earlier} was taken, oldest first (at most
   * the last {@value #SQL_KEPT}).
   */
  public List<String> sqlSince(WireStats earlier) {
    synchronized (sql) {
      long count = statements.get() - earlier.statements();
      int keep = (int) Math.min(count, sql.size());
      List<String> all = new ArrayList<>(sql);
      return List.copyOf(all.subList(all.size() - keep, all.size()));
    }
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
