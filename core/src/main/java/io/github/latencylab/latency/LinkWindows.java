package io.github.latencylab.latency;

/**
 * One connection's two windows as the {@link Link} grows them, counted from bytes alone: how
 * many flights each request and each reply needs beyond its first. The {@code tcp_window}
 * toxic's rules without its clock (slow start from the initial window, growth up to twice a
 * flight that did not fill the window, the receiver's window at twice the last flight, the
 * cap), so the count is deterministic: it leaves out what depends on time (the restart after
 * an idle, the shrink of a window kept busy but not full), which {@link #restart()} stands in
 * for where a workload restarts the windows on purpose.
 *
 * <p>Not thread-safe: one connection's counter drives it.
 */
public final class LinkWindows {

  private final Link link;
  private final Direction upstream = new Direction();
  private final Direction downstream = new Direction();

  public LinkWindows(Link link) {
    this.link = link;
    restart();
  }

  /** Both windows back to a new connection's. */
  public void restart() {
    upstream.reset();
    downstream.reset();
  }

  /** The client's requests: their bytes, as they are written. */
  public Direction upstream() {
    return upstream;
  }

  /** The server's replies: their bytes, as they are read. */
  public Direction downstream() {
    return downstream;
  }

  /** One direction's window and the transfer under way on it. */
  public final class Direction {
    private long cwnd;
    private long rwnd;
    private boolean transferring;
    private long window;
    private long capacity;
    private long sent;

    private void reset() {
      cwnd = Math.min(link.initialWindowBytes(), link.maxWindowBytes());
      rwnd = link.initialReceiveWindowBytes();
      transferring = false;
    }

    /**
     * {@code bytes} more of the transfer under way (a new one if none is): returns the flights
     * they started beyond the transfer's first.
     */
    public long add(long bytes) {
      if (!transferring) {
        transferring = true;
        window = Math.min(Math.min(cwnd, rwnd), link.maxWindowBytes());
        capacity = window;
        sent = 0;
      }
      sent += bytes;
      long flights = 0;
      while (sent > capacity) { // the flight was full: its acknowledgements grow both windows
        cwnd = Math.min(cwnd + window, link.maxWindowBytes());
        rwnd = Math.max(rwnd, Math.min(2 * window, link.maxWindowBytes()));
        window = Math.min(Math.min(cwnd, rwnd), link.maxWindowBytes());
        capacity += window;
        flights++;
      }
      return flights;
    }

    /** The transfer is over: its last flight, not full, grows the windows as far as it used. */
    public void end() {
      if (!transferring) {
        return;
      }
      transferring = false;
      long last = sent - (capacity - window);
      if (cwnd < 2 * last) {
        cwnd = Math.min(Math.min(cwnd + last, 2 * last), link.maxWindowBytes());
      }
      rwnd = Math.max(rwnd, Math.min(2 * last, link.maxWindowBytes()));
    }
  }
}
