package io.github.latencylab.wire;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

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
    /**
     * A statement executes; {@code parameters} gives them as its Bind sent them, read only when
     * asked (empty for a simple Query, null where they were not all kept): only a tracing
     * counter keeps them; {@code valueBytes} their bytes (a simple Query's text).
     */
    void executed(String sql, boolean simpleQuery, Supplier<List<BoundParameter>> parameters,
        long valueBytes);

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
  private final Map<String, Parsed> statements = new HashMap<>(); // by statement name
  private final Map<String, Bound> portals = new HashMap<>(); // by portal name
  private boolean startup = true;
  private boolean broken;
  private final byte[] header = new byte[5];
  private int headerFill;
  private int bodyRemaining = -1;
  private byte type;
  private final ByteArrayOutputStream body = new ByteArrayOutputStream();

  private record Parsed(String sql, int[] typeOids) {
  }

  // a Bind's body (its own array) and where its values begin, read into parameters on demand
  private record Bound(String sql, byte[] body, int valuesAt, int[] typeOids, long valueBytes) {
    List<BoundParameter> parameters() {
      return typeOids == null ? null : FrontendTap.parameters(body, valuesAt, typeOids);
    }
  }

  private static final Bound UNKNOWN_PORTAL = new Bound("(unknown portal)", null, 0, null, 0);

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
      case 'Q' -> listener.executed(cstring(b, 0), true, List::of, Math.max(0, b.length - 1));
      case 'P' -> {
        String name = cstring(b, 0);
        int at = length(name) + 1;
        String sql = cstring(b, at);
        statements.put(name, new Parsed(sql, typeOids(b, at + length(sql) + 1)));
      }
      case 'B' -> {
        String portal = cstring(b, 0);
        String statement = cstring(b, length(portal) + 1);
        Parsed parsed = statements.get(statement);
        int valuesAt = length(portal) + length(statement) + 2;
        portals.put(portal, new Bound(parsed == null ? "(unknown statement)" : parsed.sql(), b,
            valuesAt, parsed == null ? null : parsed.typeOids(), valueBytes(b, valuesAt)));
      }
      case 'E' -> {
        Bound bound = portals.getOrDefault(cstring(b, 0), UNKNOWN_PORTAL);
        listener.executed(bound.sql(), false, bound::parameters, bound.valueBytes());
      }
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

  private static int length(String s) {
    return s.getBytes(StandardCharsets.UTF_8).length;
  }

  // Parse: Int16 count, Int32 type oid each (a body cut at KEEP_BODY_BYTES: none known)
  private static int[] typeOids(byte[] b, int at) {
    if (at + 2 > b.length) {
      return new int[0];
    }
    int n = int16(b, at);
    if (at + 2 + 4 * n > b.length) {
      return new int[0];
    }
    int[] oids = new int[n];
    for (int i = 0; i < n; i++) {
      oids[i] = int32(b, at + 2 + 4 * i);
    }
    return oids;
  }

  /**
   * Bind after its names: Int16 format count, Int16 formats, Int16 value count, then each
   * value's Int32 length (-1: NULL) and bytes. Null where one is too long to keep, or the body
   * was cut.
   */
  private static List<BoundParameter> parameters(byte[] b, int at, int[] typeOids) {
    if (at + 2 > b.length) {
      return null;
    }
    int formats = int16(b, at);
    int formatsAt = at + 2;
    int valuesAt = formatsAt + 2 * formats;
    if (valuesAt + 2 > b.length) {
      return null;
    }
    int n = int16(b, valuesAt);
    List<BoundParameter> out = new ArrayList<>(n);
    int i = valuesAt + 2;
    for (int p = 0; p < n; p++) {
      if (i + 4 > b.length) {
        return null;
      }
      int len = int32(b, i);
      i += 4;
      if (len > BoundParameter.MAX_KEPT || i + Math.max(len, 0) > b.length) {
        return null;
      }
      int format = formats == 0 ? 0 : int16(b, formatsAt + 2 * (formats == 1 ? 0 : p));
      out.add(new BoundParameter(p < typeOids.length ? typeOids[p] : 0, format == 1,
          len < 0 ? null : Arrays.copyOfRange(b, i, i + len)));
      i += Math.max(len, 0);
    }
    return out;
  }

  // a Bind's parameter values' bytes (NULLs none), however many are kept
  private static long valueBytes(byte[] b, int at) {
    if (at + 2 > b.length) {
      return 0;
    }
    int i = at + 2 + 2 * int16(b, at);
    if (i + 2 > b.length) {
      return 0;
    }
    int n = int16(b, i);
    i += 2;
    long bytes = 0;
    for (int p = 0; p < n && i + 4 <= b.length; p++) {
      int len = int32(b, i);
      i += 4 + Math.max(len, 0);
      bytes += Math.max(len, 0);
    }
    return bytes;
  }

  private static int int16(byte[] b, int at) {
    return ((b[at] & 0xff) << 8) | (b[at + 1] & 0xff);
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
