package io.github.latencylab.wire;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/**
 * Reads the PostgreSQL frontend protocol out of the bytes a client sends, as they are sent,
 * to see which statements it executes: each simple Query, and each Execute of a portal
 * (whose SQL came with its Parse). Parse alone, Describe or Sync execute nothing.
 *
 * <p>Gives up, for the rest of the connection, on anything it does not understand, such as
 * TLS after an accepted SSLRequest: then statements are not counted on that connection.
 */
final class FrontendTap {

  private static final int SSL_REQUEST = 80877103;
  private static final int GSS_ENC_REQUEST = 80877104;
  private static final int KEEP_BODY_BYTES = 1 << 20;
  // the server's own limit (MAX_STARTUP_PACKET_LENGTH); TLS bytes read as a length exceed it
  private static final int MAX_STARTUP_LENGTH = 10_000;
  private static final String KNOWN_TYPES = "QPBEDCSHXdcfFp";

  interface Listener {
    void executed(String sql, boolean simpleQuery);

    /** A Sync: the server answers everything before it, then says it is ready. */
    default void synced() {
    }

    /** An SSLRequest or GSSENCRequest: the server answers with one bare byte. */
    default void answerByteExpected() {
    }

    /** A typed message begins: its type byte has been read. */
    default void began(char type) {
    }

    /** An untyped startup message ended; {@code answeredByByte} for an SSL/GSS request. */
    default void startupSent(boolean answeredByByte) {
    }
  }

  private final Listener listener;
  private final Map<String, String> statements = new HashMap<>(); // statement name -> SQL
  private final Map<String, String> portals = new HashMap<>(); // portal name -> SQL
  private boolean startup = true;
  private boolean broken;
  private final byte[] header = new byte[5];
  private int headerFill;
  private int bodyRemaining = -1;
  private byte type;
  private final ByteArrayOutputStream body = new ByteArrayOutputStream();

  FrontendTap(Listener listener) {
    this.listener = listener;
  }

  boolean isBroken() {
    return broken;
  }

  void sent(byte[] buf, int off, int len) {
    int i = off;
    int end = off + len;
    while (i < end && !broken) {
      if (bodyRemaining < 0) {
        // untyped startup messages have a 4-byte length; typed ones a type byte first
        int headerSize = startup ? 4 : 5;
        while (headerFill < headerSize && i < end) {
          header[headerFill++] = buf[i++];
        }
        if (headerFill < headerSize) {
          return;
        }
        int length = startup ? int32(header, 0) : int32(header, 1);
        type = startup ? 0 : header[0];
        if (length < 4 || length > (startup ? MAX_STARTUP_LENGTH : 1 << 30)
            || (!startup && KNOWN_TYPES.indexOf((char) type) < 0)) {
          broken = true;
          return;
        }
        bodyRemaining = length - 4;
        body.reset();
        headerFill = 0;
        if (!startup) {
          listener.began((char) type);
        }
      }
      int take = Math.min(bodyRemaining, end - i);
      if (keepsBody() && body.size() < KEEP_BODY_BYTES) {
        body.write(buf, i, Math.min(take, KEEP_BODY_BYTES - body.size()));
      }
      i += take;
      bodyRemaining -= take;
      if (bodyRemaining == 0) {
        bodyRemaining = -1;
        message(body.toByteArray());
      }
    }
  }

  private boolean keepsBody() {
    return startup || type == 'Q' || type == 'P' || type == 'B' || type == 'E' || type == 'C';
  }

  private void message(byte[] b) {
    if (startup) {
      int code = b.length >= 4 ? int32(b, 0) : 0;
      // SSLRequest / GSSENCRequest are answered by one byte and followed by the real startup
      startup = code == SSL_REQUEST || code == GSS_ENC_REQUEST;
      if (startup) {
        listener.answerByteExpected();
      }
      listener.startupSent(startup);
      return;
    }
    switch (type) {
      case 'Q' -> listener.executed(cstring(b, 0), true);
      case 'P' -> {
        String name = cstring(b, 0);
        statements.put(name, cstring(b, name.getBytes(StandardCharsets.UTF_8).length + 1));
      }
      case 'B' -> {
        String portal = cstring(b, 0);
        String statement = cstring(b, portal.getBytes(StandardCharsets.UTF_8).length + 1);
        portals.put(portal, statements.getOrDefault(statement, "(unknown statement)"));
      }
      case 'E' -> listener.executed(portals.getOrDefault(cstring(b, 0), "(unknown portal)"),
          false);
      case 'S' -> listener.synced();
      case 'C' -> {
        if (b.length > 0 && b[0] == 'S') {
          statements.remove(cstring(b, 1));
        }
      }
      default -> {
      }
    }
  }

  private static int int32(byte[] b, int at) {
    return ((b[at] & 0xff) << 24) | ((b[at + 1] & 0xff) << 16) | ((b[at + 2] & 0xff) << 8)
        | (b[at + 3] & 0xff);
  }

  private static String cstring(byte[] b, int from) {
    int to = from;
    while (to < b.length && b[to] != 0) {
      to++;
    }
    return from >= b.length ? "" : new String(b, from, to - from, StandardCharsets.UTF_8);
  }
}
