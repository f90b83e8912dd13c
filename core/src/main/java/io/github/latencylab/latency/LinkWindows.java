package io.github.latencylab.latency;

/**
 * One connection's two windows as the {@link Link} grows them, counted from bytes alone: how
 * many flights each request and each reply needs beyond its first. The {@code tcp_window}
 * toxic's rules without its clock (slow start from the initial window, by every byte of a
 * flight the window held back, up to twice a flight it did not; the receiver's window opening
 * by twice every full segment it received; the sender's buffer doubling once a round trip
 * while the application waits on it and the window outgrows it; at most the cap in flight),
 * so the count is
 * deterministic: it leaves out what depends on time (the restart after an idle, the shrink of
 * a window kept busy but not full), which {@link #restart()} stands in for where a workload
 * restarts the windows on purpose.
 *
 * <p>With {@link Link#bbr()} it counts BBR's buffer of three windows but neither its pacing
 * (time, not flights) nor its own window growth: slow start's rules stand in for it.
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
    private long sndbuf;
    private boolean transferring;
    private long window;
    private long capacity;
    private long sent;

    private void reset() {
      cwnd = link.initialWindowBytes();
      rwnd = link.initialReceiveWindowBytes();
      sndbuf = link.initialSendBufferBytes();
      transferring = false;
    }

    /**
     * {@code bytes} more of the transfer under way (a new one if none is): returns the flights
     * they started beyond the transfer's first.
     */
    public long add(long bytes) {
      if (!transferring) {
        transferring = true;
        window = window();
        capacity = window;
        sent = 0;
      }
      sent += bytes;
      long flights = 0;
      while (sent > capacity) { // the flight was full: its acknowledgements grow both windows
        // the application waits on the buffer: more is to come than the buffer has room for
        boolean waiting = sent - capacity > sndbuf - window;
        acknowledged(window, true, waiting);
        window = window();
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
      // after a full flight the last one left as acknowledgements came in: held back too
      acknowledged(sent - (capacity - window), capacity > window, false);
    }

    private long window() {
      return Math.min(Math.min(cwnd, rwnd), Math.min(sndbuf, link.maxWindowBytes()));
    }

    private void acknowledged(long flight, boolean heldBack, boolean waiting) {
      long before = cwnd;
      long filled = Math.min(sndbuf, rwnd);
      if (heldBack && cwnd <= window()) {
        cwnd += flight;
      } else if (cwnd < 2 * flight) {
        cwnd = Math.min(cwnd + flight, 2 * flight);
      }
      rwnd = Math.min(rwnd + 2 * (flight / link.mss() * link.mss()), link.maxWindowBytes());
      // the toxic's tcp_new_space, once a round trip: the buffer doubles as the window passes
      // what it and the receiver let fill
      if (waiting && cwnd > filled && sndbuf < link.maxWindowBytes()) {
        sndbuf = Math.min(link.sendBufferFactor() * Math.max(before, filled),
            link.maxWindowBytes());
      }
    }
  }
}
