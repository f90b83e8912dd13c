package io.github.latencylab.latency;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The path between the application and the database, beyond its round-trip time: how many
 * bytes a connection may have in flight. On a real path TCP starts a connection at an initial
 * window, doubles it each round trip while it is the limit (slow start), is capped by the
 * socket buffers, and (Linux with CUBIC or Reno) shrinks it again after an idle longer than the
 * retransmission timeout. So a transfer of n bytes pays the RTT more than once: a 577 kB COPY
 * at 320 ms takes about seven round trips' time on the kernel's own TCP, not one.
 *
 * <p>Realised by latency-lab's {@code tcp_window} toxic, one per direction, before the
 * {@code latency_us} one: per connection and direction, bytes wait until the window has room.
 * {@link #DELAY_ONLY} keeps a bare delay (every transfer pays the RTT about once).
 *
 * @param name the preset it came from: {@code linux}, {@code linux-bbr} or {@code delay-only}
 * @param initialWindowSegments segments in flight at a connection's start (RFC 6928: 10)
 * @param mss bytes a segment carries (1448: a 1500-byte MTU less IPv4, TCP and timestamps)
 * @param maxWindowBytes the most bytes in flight (what the path's socket buffers allow; the
 *     congestion window itself may grow past it, as Linux's does)
 * @param rtoMinMicros Linux's lower bound of the retransmission timeout (TCP_RTO_MIN, 200 ms):
 *     once the RTT is steady, the timeout is RTT + this
 * @param slowStartAfterIdle whether a window idle for longer than the timeout shrinks again
 *     (Linux's net.ipv4.tcp_slow_start_after_idle, on by default, for CUBIC and Reno; RFC 2861);
 *     BBR keeps its window
 * @param initialReceiveWindowBytes what the receiver lets a new connection's peer send (Linux's
 *     rcv_ssthresh, measured here at 64,088 B); it grows by twice every full segment received
 * @param initialSendBufferBytes what the sender's own buffer holds on a new connection (Linux's
 *     tcp_sndbuf_expand: twice the initial window, a segment a slot, three times with BBR); it
 *     grows to {@link #sendBufferFactor()} windows whenever the application waits on it while
 *     the window has room it cannot fill
 * @param bbr whether the sender is Linux's BBR in its startup: it paces its sends at 2.89x the
 *     best delivery rate it measured (at first 2.89x the initial window per RTT, so a warm 14 kB
 *     reply at 320 ms takes 1.3 RTTs), and grows its window by every segment acknowledged while
 *     under 2.89x the bandwidth-delay product, full or not
 */
public record Link(String name, int initialWindowSegments, int mss, long maxWindowBytes,
    long rtoMinMicros, boolean slowStartAfterIdle, long initialReceiveWindowBytes,
    long initialSendBufferBytes, boolean bbr) {

  /** The toxic type latency-lab's Toxiproxy server registers. */
  public static final String TYPE = "tcp_window";

  /** Linux's defaults with CUBIC (or Reno): the default link. */
  public static final Link LINUX = new Link("linux", 10, 1448, 4L << 20, 200_000, true,
      64_088, 28_960, false);
  /** Linux with BBR: the same buffers, a window that survives an idle, and pacing. */
  public static final Link LINUX_BBR = new Link("linux-bbr", 10, 1448, 4L << 20, 200_000,
      false, 64_088, 43_440, true);
  /** A bare delay: any transfer pays the RTT about once (latency-lab before the link). */
  public static final Link DELAY_ONLY = new Link("delay-only", 0, 0, 0, 0, false, 0, 0, false);

  public Link {
    if (!name.equals(DELAY_ONLY_NAME)) {
      if (initialWindowSegments < 1 || mss < 1 || maxWindowBytes < 1 || rtoMinMicros < 0
          || initialReceiveWindowBytes < 1 || initialSendBufferBytes < 1) {
        throw new IllegalArgumentException("a link needs an initial window, a segment size, a"
            + " cap, a receive window and a send buffer of at least 1 and no negative timeout: "
            + initialWindowSegments + " segments of " + mss + " B, cap " + maxWindowBytes
            + " B, RTO min " + rtoMinMicros + " us, receive window "
            + initialReceiveWindowBytes + " B, send buffer " + initialSendBufferBytes + " B");
      }
    }
  }

  private static final String DELAY_ONLY_NAME = "delay-only";

  /** The preset called {@code name}, or null. */
  public static Link preset(String name) {
    for (Link link : List.of(LINUX, LINUX_BBR, DELAY_ONLY)) {
      if (link.name.equals(name.trim().toLowerCase(Locale.ROOT))) {
        return link;
      }
    }
    return null;
  }

  public boolean delayOnly() {
    return name.equals(DELAY_ONLY_NAME);
  }

  /** Windows the sender's buffer grows to hold: Linux's 2, BBR's 3 (bbr_sndbuf_expand). */
  public int sendBufferFactor() {
    return bbr ? 3 : 2;
  }

  public long initialWindowBytes() {
    return (long) initialWindowSegments * mss;
  }

  public Link withInitialWindowSegments(int segments) {
    return new Link(name, segments, mss, maxWindowBytes, rtoMinMicros, slowStartAfterIdle,
        initialReceiveWindowBytes, initialSendBufferBytes, bbr);
  }

  public Link withMss(int bytes) {
    return new Link(name, initialWindowSegments, bytes, maxWindowBytes, rtoMinMicros,
        slowStartAfterIdle, initialReceiveWindowBytes, initialSendBufferBytes, bbr);
  }

  public Link withMaxWindowBytes(long bytes) {
    return new Link(name, initialWindowSegments, mss, bytes, rtoMinMicros, slowStartAfterIdle,
        initialReceiveWindowBytes, initialSendBufferBytes, bbr);
  }

  public Link withRtoMinMicros(long micros) {
    return new Link(name, initialWindowSegments, mss, maxWindowBytes, micros,
        slowStartAfterIdle, initialReceiveWindowBytes, initialSendBufferBytes, bbr);
  }

  public Link withInitialReceiveWindowBytes(long bytes) {
    return new Link(name, initialWindowSegments, mss, maxWindowBytes, rtoMinMicros,
        slowStartAfterIdle, bytes, initialSendBufferBytes, bbr);
  }

  public Link withInitialSendBufferBytes(long bytes) {
    return new Link(name, initialWindowSegments, mss, maxWindowBytes, rtoMinMicros,
        slowStartAfterIdle, initialReceiveWindowBytes, bytes, bbr);
  }

  /**
   * The toxics for a path of {@code rtt}: one {@code tcp_window} per direction, to go before
   * the delay's; none for a bare delay or no RTT.
   */
  public List<ToxicPlan.Toxic> toxics(Rtt rtt) {
    if (delayOnly() || rtt.micros() == 0) {
      return List.of();
    }
    Map<String, Long> attributes = Map.of("rtt", rtt.micros(),
        "initial_window", initialWindowBytes(), "max_window", maxWindowBytes,
        "rto_min", rtoMinMicros, "slow_start_after_idle", slowStartAfterIdle ? 1L : 0L,
        "initial_receive_window", initialReceiveWindowBytes, "mss", (long) mss,
        "initial_send_buffer", initialSendBufferBytes, "bbr", bbr ? 1L : 0L);
    return List.of(new ToxicPlan.Toxic("upstream", TYPE, attributes),
        new ToxicPlan.Toxic("downstream", TYPE, attributes));
  }

  /**
   * Round trips a transfer of {@code bytes} in one direction takes from a window of
   * {@code windowBytes}: 1 while it fits, one more for each time slow start doubles the window,
   * then one per full window at the cap. The bare delay's answer is always 1.
   */
  public long flightsFor(long bytes, long windowBytes) {
    if (delayOnly() || bytes <= 0) {
      return 1;
    }
    long window = Math.min(Math.max(1, windowBytes), maxWindowBytes);
    long flights = 1;
    for (long left = bytes - window; left > 0; left -= window) {
      window = Math.min(2 * window, maxWindowBytes);
      flights++;
    }
    return flights;
  }

  /** The link as one line of text, for another JVM ({@link #fromProperty}). */
  public String toProperty() {
    return String.join(",", name, Integer.toString(initialWindowSegments),
        Integer.toString(mss), Long.toString(maxWindowBytes), Long.toString(rtoMinMicros),
        Boolean.toString(slowStartAfterIdle), Long.toString(initialReceiveWindowBytes),
        Long.toString(initialSendBufferBytes), Boolean.toString(bbr));
  }

  /** The link {@link #toProperty()} wrote. */
  public static Link fromProperty(String text) {
    String[] f = text.split(",");
    if (f.length != 9) {
      throw new IllegalArgumentException("not a link: '" + text + "'");
    }
    return new Link(f[0], Integer.parseInt(f[1]), Integer.parseInt(f[2]), Long.parseLong(f[3]),
        Long.parseLong(f[4]), Boolean.parseBoolean(f[5]), Long.parseLong(f[6]),
        Long.parseLong(f[7]), Boolean.parseBoolean(f[8]));
  }

  /**
   * In a few words, for results and logs: "linux: 10 x 1448 B initial window, slow start, a
   * send buffer from 28960 B, 4 MiB in flight at most, shrinks after an idle over its timeout
   * (RTT + 200 ms or more)"; "linux-bbr: ..., kept across idles, paced as BBR's startup".
   */
  public String describe() {
    if (delayOnly()) {
      return "delay-only: a bare delay, no window (any transfer pays the RTT about once)";
    }
    return String.format(Locale.ROOT, "%s: %d x %d B initial window, slow start, a send buffer"
        + " from %s, %s in flight at most, %s", name, initialWindowSegments, mss,
        bytes(initialSendBufferBytes), bytes(maxWindowBytes),
        slowStartAfterIdle ? "shrinks after an idle over its timeout (RTT + "
            + rtoMinMicros / 1000 + " ms or more)" : "kept across idles")
        + (bbr ? ", paced as BBR's startup (2.89x its best delivery rate)" : "");
  }

  static String bytes(long n) {
    if (n % (1L << 20) == 0) {
      return n / (1L << 20) + " MiB";
    }
    if (n % 1024 == 0) {
      return n / 1024 + " KiB";
    }
    return n + " B";
  }

  @Override
  public String toString() {
    return describe();
  }
}
