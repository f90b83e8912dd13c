package io.github.latencylab.wire;

/**
 * The rows one statement got back, read at the wire: for a cursor's fetch (an Execute with a
 * row limit, pgjdbc's setFetchSize in a transaction) at most the limit; for a read without one,
 * the whole result, in one reply.
 *
 * @param bytes the bytes of those rows' DataRow messages: the data itself, whatever the
 *     protocol around it (a statement prepared once is described once)
 */
public record WireRead(WireStatement statement, long rows, long bytes) {
}
