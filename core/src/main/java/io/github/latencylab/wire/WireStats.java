package io.github.latencylab.wire;

/**
 * What crossed the wire between a client and PostgreSQL: round trips, statements executed,
 * and bytes each way.
 *
 * <p>A round trip is a time the client waited for the server before it could go on, along the
 * longest chain of such waits: each request (up to a Sync, a simple Query, a Flush) is one
 * deeper than the deepest answer the client had when it began it, and the round trips are the
 * depth of the deepest answer received. A client that waits for each reply pays one per
 * request (a write, then the reply read); a pipelining client that keeps 256 requests in flight
 * pays one per wave. Counted the same at pgjdbc's socket and at the Lab's relay for any client
 * ({@link WireRelay}; docs/pipelining.md). A statement is a simple Query or an Execute message
 * (transaction commands included). Neither depends on machine speed, so regression checks can
 * be exact.
 *
 * <p>{@code windowRoundTrips}: the flights requests and replies needed beyond their first while
 * the path's TCP window grew (slow start, {@link io.github.latencylab.latency.Link}), counted by
 * the link's model from their bytes ({@link io.github.latencylab.latency.LinkWindows}); each
 * costs about one more RTT, so a workload pays roughly (round trips + window round trips) x L.
 */
public record WireStats(long roundTrips, long statements, long bytesSent, long bytesReceived,
    long windowRoundTrips) {

  public static final WireStats ZERO = new WireStats(0, 0, 0, 0, 0);

  /** Counts without window round trips (a bare delay, or a client the Lab does not count). */
  public WireStats(long roundTrips, long statements, long bytesSent, long bytesReceived) {
    this(roundTrips, statements, bytesSent, bytesReceived, 0);
  }

  /** What happened between {@code earlier} and this snapshot. */
  public WireStats minus(WireStats earlier) {
    return new WireStats(
        roundTrips - earlier.roundTrips,
        statements - earlier.statements,
        bytesSent - earlier.bytesSent,
        bytesReceived - earlier.bytesReceived,
        windowRoundTrips - earlier.windowRoundTrips);
  }

  /** This and {@code other} together, e.g. two connections' counts. */
  public WireStats plus(WireStats other) {
    return new WireStats(roundTrips + other.roundTrips, statements + other.statements,
        bytesSent + other.bytesSent, bytesReceived + other.bytesReceived,
        windowRoundTrips + other.windowRoundTrips);
  }

  @Override
  public String toString() {
    return roundTrips + " round trips, " + statements + " statements, " + bytesSent
        + " B sent, " + bytesReceived + " B received"
        + (windowRoundTrips == 0 ? "" : ", " + windowRoundTrips + " window round trips");
  }
}
