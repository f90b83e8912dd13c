package io.github.latencylab.wire;

/**
 * The rows one statement got back, read at the wire: for a cursor's fetch (an Execute with a
 * row limit, pgjdbc's setFetchSize in a transaction) at most the limit; for a read without one,
 * the whole result, in one reply.
 *
 * @param values the values of those rows: each row's columns, added up (a wider select, more)
 * @param bytes the bytes of those rows' DataRow messages, in the format the driver asked for:
 *     pgjdbc reads a statement it prepared on the connection (its fifth execution on) in
 *     binary, so the same rows take other bytes on another connection of a pool
 */
public record WireRead(WireStatement statement, long rows, long values, long bytes) {
}
