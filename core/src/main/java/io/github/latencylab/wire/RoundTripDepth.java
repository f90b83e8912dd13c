package io.github.latencylab.wire;

import java.util.ArrayDeque;

/**
 * The round trips of one connection, defined so that they hold for a pipelined stream as well
 * as for a client that waits after every request: the times the client waited for the server
 * before it could go on, along the longest chain of such waits.
 *
 * <p>Every request gets a depth: one more than the deepest answer the client had received when
 * it began to send it (its first message: pgjdbc writes a batch after a BEGIN it sent as a
 * simple Query without waiting for its answer, which may come back while the batch is still
 * being written). An answer has the depth of the request it answers (the server answers in
 * order). The connection's round trips are the depth of the deepest answer received. A client
 * that waits for each reply (pgjdbc, statement by statement or one batch per Sync) pays one per
 * request, exactly what counting "a write, then the reply read" gives; a client that keeps 256
 * requests in flight pays one for the first 256, one more for those it sent once their answers
 * came back, and so on: what the time it takes pays in RTTs.
 *
 * <p>Requests are what the server must answer before the client can rely on anything: a Sync
 * or simple Query (answered up to its ReadyForQuery), a Flush (answered by what it flushes), the
 * startup message (up to the first ReadyForQuery), an SSLRequest or GSSENCRequest (one byte).
 * What continues an answer already given (COPY data after CopyInResponse, a password or SASL
 * message after an authentication request) deepens the request it continues. Messages the
 * server may answer before their Sync arrives (its send buffer filled mid-batch) are not waited
 * for, and count nothing until that Sync is answered.
 *
 * <p>Fed by the protocol taps: {@link #clientBegins()} once per chunk the client sends, before
 * its messages; the rest as the taps read messages. Thread-safe: a relay feeds the two
 * directions from two threads.
 */
final class RoundTripDepth {

  private enum Kind { READY, FLUSH, BYTE }

  private record Request(Kind kind, long depth) {
  }

  private final ArrayDeque<Request> awaited = new ArrayDeque<>();
  private long delivered; // the deepest answer received
  private long chunkDepth; // of what the client sends now
  private long open; // the depth of the request under way (its first message's); 0: none

  /** The client starts sending a chunk: its messages depend on what it has received so far. */
  synchronized void clientBegins() {
    chunkDepth = delivered + 1;
  }

  /** A typed message from the client begins (its type byte). */
  synchronized void clientMessage(char type) {
    switch (type) {
      case 'S', 'Q', 'F' -> request(Kind.READY);
      case 'H' -> request(Kind.FLUSH);
      case 'd', 'c', 'f', 'p' -> deepenLast();
      case 'X' -> {
      }
      default -> begin();
    }
  }

  /** An untyped startup message ended: the startup itself, or one answered by a byte. */
  synchronized void startupMessage(boolean answeredByByte) {
    request(answeredByByte ? Kind.BYTE : Kind.READY);
  }

  // a request's depth is its first message's: a client may go on writing one request across
  // several writes while the answer to an earlier one comes back, without waiting for it
  private void begin() {
    if (open == 0) {
      open = chunkDepth;
    }
  }

  private void request(Kind kind) {
    begin();
    awaited.addLast(new Request(kind, open));
    open = 0;
  }

  private void deepenLast() {
    Request last = awaited.pollLast();
    if (last == null) {
      begin();
    } else {
      awaited.addLast(new Request(last.kind(), Math.max(last.depth(), chunkDepth)));
    }
  }

  /**
   * A message from the server: it answers the oldest request still awaited; a ReadyForQuery
   * ends it (and any Flush before it). Returns the round trips it completed (0 or 1).
   */
  synchronized long serverMessage(char type) {
    if (type == 'Z') {
      while (awaited.peekFirst() != null && awaited.peekFirst().kind() == Kind.FLUSH
          && awaited.size() > 1) {
        awaited.removeFirst();
      }
      Request answered = awaited.pollFirst();
      return answered == null ? 0 : deliver(answered.depth());
    }
    Request head = awaited.peekFirst();
    return head == null || head.kind() == Kind.BYTE ? 0 : deliver(head.depth());
  }

  /** The one-byte answer to an SSLRequest or GSSENCRequest. */
  synchronized long serverByte() {
    Request head = awaited.peekFirst();
    if (head == null || head.kind() != Kind.BYTE) {
      return 0;
    }
    awaited.removeFirst();
    return deliver(head.depth());
  }

  private long deliver(long depth) {
    long before = delivered;
    delivered = Math.max(delivered, depth);
    return delivered - before;
  }

  /** The round trips so far: the depth of the deepest answer received. */
  synchronized long roundTrips() {
    return delivered;
  }
}
