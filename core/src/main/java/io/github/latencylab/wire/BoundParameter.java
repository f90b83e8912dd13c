package io.github.latencylab.wire;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.Map;
import java.util.StringJoiner;
import java.util.UUID;

/**
 * One parameter of an Execute, as its Bind sent it: so that the server can be asked, later and
 * on a connection of its own, how it plans that statement for these very values.
 *
 * @param typeOid the type its Parse declared (0: the server infers it)
 * @param binary whether the value is in binary format
 * @param value its bytes, or null for SQL NULL
 */
public record BoundParameter(int typeOid, boolean binary, byte[] value) {

  /** Values longer than this are not kept: the plan is then read without values. */
  static final int MAX_KEPT = 8192;

  /**
   * The value as a quoted SQL literal ({@code NULL}, {@code '42'}, {@code 'O''Brien'}), or null
   * for a binary value of a type it cannot read.
   */
  public String literal() {
    if (value == null) {
      return "NULL";
    }
    String text = binary ? binaryAsText() : new String(value, StandardCharsets.UTF_8);
    return text == null ? null : "'" + text.replace("'", "''") + "'";
  }

  // the binary formats pgjdbc sends (PostgreSQL's send functions of these types)
  private String binaryAsText() {
    return ARRAYS.containsKey(typeOid) ? arrayAsText() : scalarAsText(typeOid, value);
  }

  /** Array types by their element types: what pgjdbc sends binary ({@code = any (?)}). */
  private static final Map<Integer, Integer> ARRAYS = Map.of(1000, 16, 1005, 21, 1007, 23,
      1016, 20, 1021, 700, 1022, 701, 2951, 2950, 1009, 25, 1015, 1043);

  // a one-dimensional array: ndim, has-nulls, element type, size, lower bound, elements
  private String arrayAsText() {
    ByteBuffer b = ByteBuffer.wrap(value);
    if (value.length < 12) {
      return null;
    }
    int dimensions = b.getInt();
    b.getInt();
    int elementType = b.getInt();
    if (dimensions == 0) {
      return "{}";
    }
    if (dimensions != 1 || value.length < 20) {
      return null;
    }
    int size = b.getInt();
    b.getInt();
    StringJoiner out = new StringJoiner(",", "{", "}");
    for (int i = 0; i < size; i++) {
      if (b.remaining() < 4) {
        return null;
      }
      int len = b.getInt();
      if (len < 0) {
        out.add("NULL");
        continue;
      }
      if (b.remaining() < len) {
        return null;
      }
      byte[] element = new byte[len];
      b.get(element);
      String text = elementType == 25 || elementType == 1043
          ? new String(element, StandardCharsets.UTF_8) : scalarAsText(elementType, element);
      if (text == null) {
        return null;
      }
      out.add("\"" + text.replace("\\", "\\\\").replace("\"", "\\\"") + "\"");
    }
    return out.toString();
  }

  private static String scalarAsText(int typeOid, byte[] value) {
    ByteBuffer b = ByteBuffer.wrap(value);
    return switch (typeOid) {
      case 16 -> value.length == 1 ? (value[0] != 0 ? "true" : "false") : null; // bool
      case 17 -> "\\x" + HexFormat.of().formatHex(value); // bytea
      case 20 -> value.length == 8 ? Long.toString(b.getLong()) : null; // int8
      case 21 -> value.length == 2 ? Short.toString(b.getShort()) : null; // int2
      case 23, 26 -> value.length == 4 ? Integer.toUnsignedString(b.getInt()) : null; // int4, oid
      case 700 -> value.length == 4 ? Float.toString(b.getFloat()) : null; // float4
      case 701 -> value.length == 8 ? Double.toString(b.getDouble()) : null; // float8
      case 2950 -> value.length == 16 ? new UUID(b.getLong(), b.getLong()).toString() : null;
      default -> null;
    };
  }
}
