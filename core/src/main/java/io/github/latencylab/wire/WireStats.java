package io.github.latencylab.wire;

/**
 * What crossed the wire between a client and PostgreSQL: round trips, statements executed,
 * and bytes each way.
 *
 * <p>A round trip is a client write followed by the client waiting for, and receiving, the
 * server's reply. A statement is a simple Query or an Execute message (transaction commands
 * included). Neither depends on machine speed, so regression checks can be exact.
 */
public record WireStats(long roundTrips, long statements, long bytesSent, long bytesReceived) {

  public static final WireStats ZERO = new WireStats(0, 0, 0, 0);

  /** What happened between {@code earlier} and this snapshot. */
  public WireStats minus(WireStats earlier) {
    return new WireStats(
        roundTrips - earlier.roundTrips,
        statements - earlier.statements,
        bytesSent - earlier.bytesSent,
        bytesReceived - earlier.bytesReceived);
  }

  /** This and {@code other} together, e.g. two connections' counts. */
  public WireStats plus(WireStats other) {
    return new WireStats(roundTrips + other.roundTrips, statements + other.statements,
        bytesSent + other.bytesSent, bytesReceived + other.bytesReceived);
  }

  @Override
  public String toString() {
    return roundTrips + " round trips, " + statements + " statements, " + bytesSent
        + " B sent, " + bytesReceived + " B received";
  }
}
