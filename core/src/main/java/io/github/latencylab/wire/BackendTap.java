package io.github.latencylab.wire;

import java.util.ArrayDeque;

/**
 * Reads the PostgreSQL backend protocol out of the bytes a client receives, as they arrive, to
 * count the rows (DataRow messages) each statement got back. The server answers in the order
 * the client asked: an Execute's rows end at its CommandComplete, PortalSuspended (a cursor's
 * fetch), EmptyQueryResponse or ErrorResponse; a simple Query's (which may hold several
 * statements) at ReadyForQuery, which also ends whatever an error made the server skip up to
 * the Sync.
 *
 * <p>Gives up, for the rest of the connection, on anything it does not understand, such as TLS
 * after an accepted SSLRequest.
 */
final class BackendTap {

  interface Listener {
    /**
     * The rows a statement got back in one reply, their values (rows x columns) and their
     * DataRow messages' bytes.
     */
    void rowsReturned(WireStatement statement, long rows, long values, long bytes);

    /** A message begins (its type byte read), or, for type 0, the one-byte SSL/GSS answer. */
    default void answered(char type) {
    }

    /** The server's BackendKeyData named the process serving this connection. */
    default void backendPid(int pid) {
    }
  }

  private static final Object SYNC = new Object();

  private final Listener listener;
  private final ArrayDeque<Object> pending = new ArrayDeque<>(); // Asked, or SYNC
  private boolean answerByteExpected;
  private boolean broken;
  private final byte[] header = new byte[5];
  private int headerFill;
  private long bodyRemaining = -1;
  // of a BackendKeyData: the bytes of its process id still to read, and those read
  private int pidBytesWanted;
  private int pid;
  private int columnBytesWanted; // a DataRow's column count, read into the statement it answers
  private int columns;
  private Asked columnsOf;

  BackendTap(Listener listener) {
    this.listener = listener;
  }

  synchronized boolean isBroken() {
    return broken;
  }

  /** A statement sent: its rows come back after those of everything sent before it. */
  synchronized void asked(WireStatement statement, boolean simpleQuery) {
    pending.addLast(new Asked(statement, simpleQuery));
  }

  /** A Sync sent: the ReadyForQuery that answers it ends everything asked before it. */
  synchronized void synced() {
    pending.addLast(SYNC);
  }

  /** An SSLRequest or GSSENCRequest sent: the server answers with one bare byte. */
  synchronized void answerByteExpected() {
    answerByteExpected = true;
  }

  synchronized void received(byte[] buf, int off, int len) {
    int i = off;
    int end = off + len;
    while (i < end && !broken) {
      if (answerByteExpected) {
        answerByteExpected = false;
        broken = buf[i++] != 'N'; // accepted: what follows is TLS (or GSSAPI)
        listener.answered((char) 0);
        continue;
      }
      if (bodyRemaining < 0) {
        while (headerFill < 5 && i < end) {
          header[headerFill++] = buf[i++];
        }
        if (headerFill < 5) {
          return;
        }
        headerFill = 0;
        long length = ((header[1] & 0xffL) << 24) | ((header[2] & 0xff) << 16)
            | ((header[3] & 0xff) << 8) | (header[4] & 0xff);
        if (length < 4) {
          broken = true;
          return;
        }
        message((char) header[0], length + 1);
        listener.answered((char) header[0]);
        bodyRemaining = length - 4;
        pidBytesWanted = header[0] == 'K' && bodyRemaining >= 4 ? 4 : 0;
        columnBytesWanted = header[0] == 'D' && columnsOf != null && bodyRemaining >= 2 ? 2 : 0;
        columns = 0;
      }
      while (columnBytesWanted > 0 && i < end) {
        columns = (columns << 8) | (buf[i++] & 0xff);
        bodyRemaining--;
        if (--columnBytesWanted == 0) {
          columnsOf.values += columns;
        }
      }
      while (pidBytesWanted > 0 && i < end) {
        pid = (pid << 8) | (buf[i++] & 0xff);
        bodyRemaining--;
        if (--pidBytesWanted == 0) {
          listener.backendPid(pid);
        }
      }
      long take = Math.min(bodyRemaining, end - i);
      i += (int) take;
      bodyRemaining -= take;
      if (bodyRemaining == 0) {
        bodyRemaining = -1;
      }
    }
  }

  private void message(char type, long bytes) {
    switch (type) {
      case 'D' -> {
        columnsOf = pending.peekFirst() instanceof Asked asked ? asked : null;
        if (columnsOf != null) {
          columnsOf.rows++;
          columnsOf.rowBytes += bytes;
        }
      }
      case 'C', 's', 'I', 'E' -> {
        if (pending.peekFirst() instanceof Asked asked && !asked.simpleQuery) {
          finish();
        }
      }
      case 'Z' -> {
        if (pending.peekFirst() instanceof Asked asked && asked.simpleQuery) {
          finish();
          return;
        }
        while (!pending.isEmpty()) {
          if (pending.peekFirst() == SYNC) {
            pending.removeFirst();
            return;
          }
          finish();
        }
      }
      default -> {
      }
    }
  }

  private void finish() {
    Asked asked = (Asked) pending.removeFirst();
    if (asked.rows > 0) {
      listener.rowsReturned(asked.statement, asked.rows, asked.values, asked.rowBytes);
    }
  }

  private static final class Asked {
    final WireStatement statement;
    final boolean simpleQuery;
    long rows;
    long values;
    long rowBytes;

    Asked(WireStatement statement, boolean simpleQuery) {
      this.statement = statement;
      this.simpleQuery = simpleQuery;
    }
  }
}
