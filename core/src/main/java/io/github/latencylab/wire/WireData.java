package io.github.latencylab.wire;

/**
 * The data the statements carried, read off the protocol: the rows they got back and their
 * values (rows x columns: each DataRow's column count), and the bytes of the values they sent
 * (Bind parameters, a simple Query's text; {@link WireStatement#valueBytes()}). Unlike the
 * bytes on the wire, these do not depend on what the driver prepared before.
 */
public record WireData(long rows, long values, long valueBytesSent) {

  public static final WireData ZERO = new WireData(0, 0, 0);

  /** What was carried between {@code earlier} and this snapshot. */
  public WireData minus(WireData earlier) {
    return new WireData(rows - earlier.rows, values - earlier.values,
        valueBytesSent - earlier.valueBytesSent);
  }

  /** This and {@code other} together, e.g. two connections'. */
  public WireData plus(WireData other) {
    return new WireData(rows + other.rows, values + other.values,
        valueBytesSent + other.valueBytesSent);
  }
}
