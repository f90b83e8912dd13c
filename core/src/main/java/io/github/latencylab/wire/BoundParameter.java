package io.github.latencylab.wire;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
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
