package io.github.latencylab.wire;

import io.github.latencylab.latency.Link;
import io.github.latencylab.latency.LinkWindows;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Supplier;

/**
 * Counts round trips, statements and bytes for one connection, for every connection of a
 * Lab (then the {@code parent} of each connection's counter), or for one test's stretch ({@link
 * WireScope}: the round trips its threads began), and keeps the SQL of the last {@value
 * #SQL_KEPT} statements. Thread-safe; read it with {@link #snapshot()}.
 *
 * <p>While it {@link #trace() traces}, each round trip and statement is also tagged with who
 * asked for it: the application's call site ({@link CallSites}) and, for connection set-up,
 * validation, pool and driver housekeeping, its {@link Overhead}, counted apart
 * ({@link #overhead(Overhead)}). Tracing walks the writing thread's stack once per round trip,
 * so it is off unless asked for (the JUnit extension's counted sections turn it on; the
 * benchmarks never do). A connection's own set-up is classified whether traced or not (a few
 * stack walks per connection): a pool's thread may begin it before a test counts and finish it
 * inside the count.
 *
 * <p>On pgjdbc's connections (a {@link CountingSocket}, not the relay) it also times how long the
 * client's reads were blocked on the server ({@link #waitNanos()}): what a test waited on the
 * database, apart from its own CPU time. A time, so it stays out of {@link WireStats}, whose
 * counts are exact.
 */
public final class WireCounter {

  static final int SQL_KEPT = 10_000;

  private final WireCounter parent;
  private final AtomicLong roundTrips = new AtomicLong();
  private final AtomicLong statements = new AtomicLong();
  private final AtomicLong bytesSent = new AtomicLong();
  private final AtomicLong bytesReceived = new AtomicLong();
  private final AtomicLong windowRoundTrips = new AtomicLong();
  private final AtomicLong waitNanos = new AtomicLong();
  private final AtomicLong rowsReceived = new AtomicLong();
  private final AtomicLong valuesReceived = new AtomicLong();
  private final AtomicLong valueBytesSent = new AtomicLong();
  private final AtomicLong planChanges = new AtomicLong();
  // of a connection's counter: when the client's last write returned (System.nanoTime)
  private volatile long lastWrite = Long.MIN_VALUE;
  // of a Lab's counter: the link its connections' windows follow, and how often they restarted
  private volatile Link link = Link.DELAY_ONLY;
  private volatile long windowsRestarted;
  // of a connection's counter: its windows, as of the restart they count from
  private LinkWindows windows;
  private long windowsFrom;
  // of a connection's counter: the reply under way; of any counter: the largest since taken
  private long replyBytes;
  private final AtomicLong largestReply = new AtomicLong();
  private final ArrayDeque<WireStatement> sql = new ArrayDeque<>();
  private final FrontendTap tap;
  private final BackendTap backendTap;
  private final ArrayDeque<WireRead> reads = new ArrayDeque<>();
  private final Map<Overhead, AtomicLong[]> overhead = new EnumMap<>(Overhead.class);
  private volatile boolean tracing;
  // of a Lab's counter: held shared by a connection's counter while it adds to this one, alone
  // by totals(), so that a count and its overhead are read at one instant (a pool's thread may
  // be setting up a connection while a test reads them)
  private final ReentrantReadWriteLock adding = new ReentrantReadWriteLock();
  private static final AtomicInteger CONNECTIONS = new AtomicInteger();
  private final int connectionNumber;
  private volatile int localPort;
  // of a connection's counter: the server process serving it (BackendKeyData), 0 until known;
  // of a Lab's counter: those of its connections, each with when it closed (System.nanoTime;
  // Long.MAX_VALUE while open), kept a minute: a backend outlives its client's close a little
  private volatile int backendPid;
  // the server sessions its connections started: each BackendKeyData read (a Lab's counter)
  private final AtomicLong sessionsStarted = new AtomicLong();
  private final Map<Integer, Long> backends = new java.util.concurrent.ConcurrentHashMap<>();
  // of a connection's counter: its round trips as RoundTripDepth defines them, and those the
  // server's messages being read completed
  private final RoundTripDepth depth;
  private long answeredTrips;
  // true once the client wrote since it last received: the next data it reads ends a turn (a
  // round trip too where the protocol cannot be read, e.g. TLS)
  private volatile boolean awaitingReply;
  // of a connection's counter: who asked for the round trip under way (null when not tracing)
  private volatile CallSites.Origin origin;
  // of a connection's counter: read by a relay, not on the thread that writes
  private final boolean relayed;
  private long tripsStarted;
  // of a connection's counter: until a round trip that is not the connection's set-up
  private boolean settingUp = true;
  // of a connection's counter: what the round trip under way adds to besides this one: its
  // Lab's counter, then the counters of the test scopes it belongs to (WireScope)
  private volatile WireCounter[] sinks;
  // their read locks (this counter's own, for a counter of no Lab), taken while counting so that
  // totals() reads a count and its overhead at one instant; made when the sinks change, not for
  // every read and write
  private volatile Lock[] sinkLocks;

  public WireCounter() {
    this(null, false);
  }

  private WireCounter(WireCounter parent, boolean relayed) {
    this.parent = parent;
    this.relayed = relayed;
    this.depth = parent == null ? null : new RoundTripDepth();
    this.backendTap = parent == null ? null : new BackendTap(new BackendTap.Listener() {
      @Override
      public void rowsReturned(WireStatement statement, long rows, long values, long bytes) {
        WireCounter.this.rowsReturned(statement, rows, values, bytes);
      }

      @Override
      public void answered(char type) {
        answeredTrips += type == 0 ? depth.serverByte() : depth.serverMessage(type);
      }

      @Override
      public void backendPid(int pid) {
        backendPid = pid;
        long forgotten = System.nanoTime() - 60_000_000_000L;
        parent.backends.values().removeIf(closedAt -> closedAt < forgotten);
        parent.backends.put(pid, Long.MAX_VALUE);
        parent.sessionsStarted.incrementAndGet();
      }
    });
    this.tap = parent == null ? null : new FrontendTap(new FrontendTap.Listener() {
      @Override
      public void executed(String sql, boolean simpleQuery,
          Supplier<List<BoundParameter>> parameters,
          long valueBytes) {
        backendTap.asked(WireCounter.this.executed(sql, parameters, valueBytes), simpleQuery);
      }

      @Override
      public void synced() {
        backendTap.synced();
      }

      @Override
      public void answerByteExpected() {
        backendTap.answerByteExpected();
      }

      @Override
      public void began(char type) {
        depth.clientMessage(type);
      }

      @Override
      public void startupSent(boolean answeredByByte) {
        depth.startupMessage(answeredByByte);
      }
    });
    this.connectionNumber = parent == null ? 0 : CONNECTIONS.incrementAndGet();
    this.sinks = parent == null ? new WireCounter[0] : new WireCounter[] {parent};
    this.sinkLocks = locksOf(sinks);
    for (Overhead o : Overhead.values()) {
      // round trips, statements, bytes sent, bytes received, nanoseconds waited
      overhead.put(o, new AtomicLong[] {new AtomicLong(), new AtomicLong(), new AtomicLong(),
          new AtomicLong(), new AtomicLong()});
    }
  }

  /**
   * Starts tracing (call sites and {@link Overhead}) on this counter and, for a Lab's counter,
   * on all its connections, for good: a round trip that a pool's thread starts just before a
   * counted block and that ends inside it must be known for what it is, so tracing never stops
   * once a test asked for it. The benchmarks never ask.
   */
  public void trace() {
    tracing = true;
  }

  private boolean traces() {
    return tracing || (parent != null && parent.tracing);
  }

  /** What {@code kind} of overhead has cost so far, while tracing (bytes included). */
  public WireStats overhead(Overhead kind) {
    AtomicLong[] t = overhead.get(kind);
    return new WireStats(t[0].get(), t[1].get(), t[2].get(), t[3].get());
  }

  /** What {@code kind} of overhead has waited so far, while tracing ({@link #waitNanos()}). */
  public long waitNanos(Overhead kind) {
    return overhead.get(kind)[4].get();
  }

  /**
   * How long the client's reads have been blocked on the server so far, in nanoseconds, summed
   * over this counter's connections: each read of a {@link CountingSocket} from its call (or the
   * client's last write, if later: a reader that was waiting before the request) until it
   * returned bytes. pgjdbc reads its socket only when its buffer is empty and it needs the
   * server's next bytes, so this is the time it waited for replies: for a reply's first bytes
   * (the server's time, the path's, one added RTT and the request's window flights) and for the
   * rest of a long one (its window flights, the server still sending). Connections counted at
   * the relay add nothing: the relay cannot see when their client blocks.
   *
   * <p>Summed, not a union of the intervals: round trips add up over connections and threads
   * too, and the price of a test (round trips x RTT + this wait) prices them as if one followed
   * the other; a union would pair an overlap-aware wait with round trips that are not.
   */
  public long waitNanos() {
    return waitNanos.get();
  }

  /** Every kind of overhead so far, in the order of {@link Overhead}. */
  public Map<Overhead, WireStats> overhead() {
    Map<Overhead, WireStats> all = new EnumMap<>(Overhead.class);
    for (Overhead o : Overhead.values()) {
      all.put(o, overhead(o));
    }
    return all;
  }

  private void addOverhead(Overhead kind, int field, long n) {
    if (kind != null && n != 0) {
      overhead.get(kind)[field].addAndGet(n);
      for (WireCounter s : sinks) {
        s.overhead.get(kind)[field].addAndGet(n);
      }
    }
  }

  /**
   * The link the Lab's connections go through: from now on each connection's counter also
   * counts the window round trips its transfers need ({@link LinkWindows}).
   */
  public void link(Link link) {
    this.link = link == null ? Link.DELAY_ONLY : link;
  }

  /** Every connection's windows back to a new connection's, as the Lab just restarted them. */
  public void restartWindows() {
    windowsRestarted++;
  }

  // a connection's windows, new after the Lab restarted them; null for a bare delay
  private LinkWindows windows() {
    if (parent == null || parent.link.delayOnly()) {
      return null;
    }
    if (windows == null || windowsFrom != parent.windowsRestarted) {
      windows = new LinkWindows(parent.link);
      windowsFrom = parent.windowsRestarted;
    }
    return windows;
  }

  private void addWindowRoundTrips(long n) {
    if (n > 0) {
      windowRoundTrips.addAndGet(n);
      for (WireCounter s : sinks) {
        s.windowRoundTrips.addAndGet(n);
      }
    }
  }

  void localPort(int port) {
    localPort = port;
  }

  /**
   * The local port of this connection's socket (0 for a Lab's counter): where a relay saw it
   * come from ({@link WireRelay#wire(int)}).
   */
  public int localPort() {
    return localPort;
  }

  /** This connection's socket closed: its server process is no longer one of the counted. */
  void closed() {
    if (parent != null && backendPid != 0) {
      parent.backends.replace(backendPid, Long.MAX_VALUE, System.nanoTime());
    }
  }

  /**
   * True when the server process {@code pid} served a connection counted here that was open at
   * {@code since} (System.nanoTime) or later: what the server's own view of its sessions is
   * checked against.
   */
  public boolean countedBackendSince(int pid, long since) {
    Long closedAt = backends.get(pid);
    return closedAt != null && closedAt >= since;
  }

  /**
   * How many server sessions the connections counted here have started (their BackendKeyData,
   * read before their first ReadyForQuery): what the server's own count of sessions started is
   * checked against, short-lived connections included.
   */
  public long sessionsStarted() {
    return sessionsStarted.get();
  }

  /** A counter for one connection that also adds to this one. */
  WireCounter newConnection() {
    return new WireCounter(this, false);
  }

  /**
   * {@link #newConnection()} for a connection a relay counts on a thread of its own: what it
   * sends was asked for by the reactive pipeline the application built or subscribed last
   * ({@link AssemblySites}).
   */
  WireCounter newRelayedConnection() {
    return new WireCounter(this, true);
  }

  /** {@link #sent(byte[], int, int)} by a socket whose write returned at {@code wroteAt}. */
  void sent(byte[] buf, int off, int len, long wroteAt) {
    lastWrite = wroteAt;
    sent(buf, off, len);
  }

  // synchronized: a relay counts the two directions from two threads
  synchronized void sent(byte[] buf, int off, int len) {
    if (len <= 0) {
      return;
    }
    boolean begins = !awaitingReply;
    if (begins) { // a new round trip: who asks for it, for which tests?
      origin = origin();
      if (parent != null) {
        CallSites.Origin o = origin;
        WireCounter[] scopes = WireScope.countersFor(this, parent,
            o != null && o.overhead() != null);
        if (scopes.length > 0 || sinks.length > 1) {
          WireCounter[] to = new WireCounter[scopes.length + 1];
          to[0] = parent;
          System.arraycopy(scopes, 0, to, 1, scopes.length);
          sinks = to;
          sinkLocks = locksOf(to);
        }
      }
    }
    Lock[] adding = addingToSinks();
    try {
      countSent(buf, off, len, begins);
    } finally {
      unlock(adding);
    }
  }

  // the read locks of the counters whose totals this one's counting moves (its Lab's and its
  // scopes', or, a counter of no Lab, its own), taken
  private Lock[] addingToSinks() {
    Lock[] locks = sinkLocks;
    for (Lock lock : locks) {
      lock.lock();
    }
    return locks;
  }

  private Lock[] locksOf(WireCounter[] to) {
    if (to.length == 0) {
      return new Lock[] {adding.readLock()};
    }
    Lock[] locks = new Lock[to.length];
    for (int i = 0; i < to.length; i++) {
      locks[i] = to[i].adding.readLock();
    }
    return locks;
  }

  private static void unlock(Lock[] locks) {
    for (int i = locks.length - 1; i >= 0; i--) {
      locks[i].unlock();
    }
  }

  private void countSent(byte[] buf, int off, int len, boolean begins) {
    if (begins) {
      tripsStarted++;
      replyBytes = 0;
      LinkWindows w = windows();
      if (w != null) {
        w.downstream().end();
      }
    }
    awaitingReply = true;
    CallSites.Origin o = origin;
    if (o != null) {
      addOverhead(o.overhead(), 2, len);
    }
    bytesSent.addAndGet(len);
    for (WireCounter s : sinks) {
      s.bytesSent.addAndGet(len);
    }
    LinkWindows w = windows();
    if (w != null) {
      addWindowRoundTrips(w.upstream().add(len));
    }
    if (tap != null) {
      depth.clientBegins();
      tap.sent(buf, off, len);
    }
  }

  // who asks for the round trip beginning: while tracing, and while the connection is set up
  private CallSites.Origin origin() {
    if (!traces() && !settingUp) {
      return null;
    }
    CallSites.Origin o = relayed ? AssemblySites.lastAsked() : CallSites.origin();
    settingUp = settingUp && o.overhead() == Overhead.CONNECT;
    return traces() || settingUp ? o : null;
  }

  /**
   * {@link #received(byte[], int, int)} by a socket's read called at {@code calledAt} that
   * returned at {@code returnedAt} ({@link #waitNanos()}).
   */
  void received(byte[] buf, int off, int bytes, long calledAt, long returnedAt) {
    received(buf, off, bytes, returnedAt - Math.max(calledAt, lastWrite));
  }

  void received(byte[] buf, int off, int bytes) {
    received(buf, off, bytes, 0);
  }

  private synchronized void received(byte[] buf, int off, int bytes, long waited) {
    if (bytes <= 0) {
      return;
    }
    Lock[] adding = addingToSinks();
    try {
      countReceived(buf, off, bytes, Math.max(0, waited));
    } finally {
      unlock(adding);
    }
  }

  private void countReceived(byte[] buf, int off, int bytes, long waited) {
    waitNanos.addAndGet(waited);
    for (WireCounter s : sinks) {
      s.waitNanos.addAndGet(waited);
    }
    if (backendTap != null) {
      backendTap.received(buf, off, bytes);
    }
    bytesReceived.addAndGet(bytes);
    replyBytes += bytes;
    largestReply.accumulateAndGet(replyBytes, Math::max);
    if (parent != null) {
      parent.largestReply.accumulateAndGet(replyBytes, Math::max);
    }
    long trips = 0;
    LinkWindows w = windows();
    if (awaitingReply) {
      awaitingReply = false;
      trips = 1;
      if (w != null) {
        w.upstream().end();
      }
    }
    if (backendTap != null && !tap.isBroken() && !backendTap.isBroken()) {
      trips = answeredTrips;
    }
    answeredTrips = 0;
    roundTrips.addAndGet(trips);
    if (w != null) {
      addWindowRoundTrips(w.downstream().add(bytes));
    }
    CallSites.Origin o = origin;
    if (o != null) {
      addOverhead(o.overhead(), 0, trips);
      addOverhead(o.overhead(), 3, bytes);
      addOverhead(o.overhead(), 4, waited);
    }
    for (WireCounter s : sinks) {
      s.bytesReceived.addAndGet(bytes);
      s.roundTrips.addAndGet(trips);
    }
  }

  private WireStatement executed(String text, Supplier<List<BoundParameter>> parameters,
      long valueBytes) {
    CallSites.Origin o = origin;
    // the values are read out of the Bind only where a test traces: never in the benchmarks
    WireStatement statement = new WireStatement(text, o == null ? null : parameters.get(),
        valueBytes, o == null ? null : o.chain(), o == null ? null : o.overhead(),
        connectionNumber, tripsStarted, o == null ? null : o.route(), relayed);
    if (o != null) {
      addOverhead(o.overhead(), 1, 1);
    }
    record(statement);
    valueBytesSent.addAndGet(valueBytes);
    boolean changesPlans = SqlShape.changesPlans(text);
    for (WireCounter s : sinks) {
      s.record(statement);
      s.valueBytesSent.addAndGet(valueBytes);
      if (changesPlans) {
        s.planChanges.incrementAndGet();
      }
    }
    return statement;
  }

  private void rowsReturned(WireStatement statement, long rows, long values, long bytes) {
    WireRead read = new WireRead(statement, rows, values, bytes);
    addRead(read);
    for (WireCounter s : sinks) {
      s.addRead(read);
    }
  }

  private void addRead(WireRead read) {
    rowsReceived.addAndGet(read.rows());
    valuesReceived.addAndGet(read.values());
    synchronized (reads) {
      reads.addLast(read);
      if (reads.size() > SQL_KEPT) {
        reads.removeFirst();
      }
    }
  }

  /**
   * The rows each of {@code statements} got back, where it got any, in the order they ended
   * (at most the last {@value #SQL_KEPT} reads).
   */
  public List<WireRead> readsOf(List<WireStatement> statements) {
    Set<WireStatement> asked = Collections.newSetFromMap(new IdentityHashMap<>());
    asked.addAll(statements);
    List<WireRead> of = new ArrayList<>();
    synchronized (reads) {
      for (WireRead r : reads) {
        if (asked.contains(r.statement())) {
          of.add(r);
        }
      }
    }
    return Collections.unmodifiableList(of);
  }

  private void record(WireStatement statement) {
    synchronized (sql) {
      statements.incrementAndGet();
      sql.addLast(statement);
      if (sql.size() > SQL_KEPT) {
        sql.removeFirst();
      }
    }
  }

  /**
   * The most bytes one reply carried (what the server sent between two of the client's
   * requests: a whole result without a fetch size, one fetch with a cursor) since the last call,
   * which starts a new count. pgjdbc reads a reply's rows into memory before it returns them, so
   * this is about what a read holds at once.
   */
  public long takeLargestReply() {
    return largestReply.getAndSet(0);
  }

  /** The counts and every kind of overhead at one instant, while tracing. */
  public Totals totals() {
    Lock alone = adding.writeLock();
    alone.lock();
    try {
      Map<Overhead, Long> overheadWaits = new EnumMap<>(Overhead.class);
      for (Overhead o : Overhead.values()) {
        overheadWaits.put(o, waitNanos(o));
      }
      return new Totals(snapshot(), overhead(), waitNanos(), overheadWaits);
    } finally {
      alone.unlock();
    }
  }

  /**
   * What {@link #totals()} read: the counts, what each kind of overhead cost of them, the
   * nanoseconds waited on the server ({@link #waitNanos()}) and each kind of overhead's share.
   */
  public record Totals(WireStats stats, Map<Overhead, WireStats> overhead, long waitNanos,
      Map<Overhead, Long> overheadWaitNanos) {
  }

  /**
   * How many statements that may change another's plan (DDL, ANALYZE, VACUUM: {@link
   * SqlShape#changesPlans}) went over this counter's connections so far.
   */
  public long planChanges() {
    return planChanges.get();
  }

  /** The data the statements carried, since this counter began. */
  public WireData data() {
    return new WireData(rowsReceived.get(), valuesReceived.get(), valueBytesSent.get());
  }

  public WireStats snapshot() {
    return new WireStats(roundTrips.get(), statements.get(), bytesSent.get(),
        bytesReceived.get(), windowRoundTrips.get());
  }

  /**
   * The SQL of the statements executed since {@code earlier} was taken, oldest first (at most
   * the last {@value #SQL_KEPT}).
   */
  public List<String> sqlSince(WireStats earlier) {
    return statementsSince(earlier).stream().map(WireStatement::sql).toList();
  }

  /**
   * The statements executed since {@code earlier} was taken, oldest first (at most the last
   * {@value #SQL_KEPT}), with their call sites and overhead where the counter traced.
   */
  public List<WireStatement> statementsSince(WireStats earlier) {
    synchronized (sql) {
      long count = statements.get() - earlier.statements();
      int keep = (int) Math.min(count, sql.size());
      List<WireStatement> all = new ArrayList<>(sql);
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
