package io.github.latencylab.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The protocol reader on hand-made byte streams, cut at every possible place. */
class FrontendTapTest {

  @Test
  void readsStatementsWhereverTheStreamIsCut() {
    byte[] stream = concat(
        untyped(80877103), // SSLRequest, refused by the server
        untyped(196608, "user\0postgres\0\0"), // StartupMessage
        typed('Q', "SET x = 1\0"),
        typed('P', "S_1\0SELECT $1\0\0\0"),
        typed('B', "\0S_1\0\0\0\0\0\0\0"),
        typed('E', "\0\0\0\0\0"),
        typed('S', ""),
        typed('B', "\0S_1\0\0\0\0\0\0\0"),
        typed('E', "\0\0\0\0\0"),
        typed('d', "1,2\n"),
        typed('X', ""));
    List<String> expected = List.of("SET x = 1", "SELECT $1", "SELECT $1");
    for (int chunk = 1; chunk <= stream.length; chunk++) {
      List<String> seen = new ArrayList<>();
      FrontendTap tap = new FrontendTap((sql, simpleQuery, parameters, valueBytes) -> seen.add(sql));
      for (int at = 0; at < stream.length; at += chunk) {
        tap.sent(stream, at, Math.min(chunk, stream.length - at));
      }
      assertThat(seen).as("chunks of %d bytes", chunk).isEqualTo(expected);
      assertThat(tap.isBroken()).isFalse();
    }
  }

  @Test
  void keepsTheValuesEachExecuteWasBoundTo() {
    byte[] parse = typed('P', "S_2\0SELECT $1, $2, $3\0");
    ByteBuffer oids = ByteBuffer.allocate(2 + 12).putShort((short) 3).putInt(23).putInt(25)
        .putInt(0);
    byte[] parseWithTypes = withBody(parse, oids.array());
    byte[] name = "O'Brien".getBytes(StandardCharsets.UTF_8);
    ByteBuffer bind = ByteBuffer.allocate(5 + 8 + 8 + 8 + name.length + 4 + 2)
        .put("\0S_2\0".getBytes(StandardCharsets.UTF_8))
        .putShort((short) 3).putShort((short) 1).putShort((short) 0).putShort((short) 0)
        .putShort((short) 3).putInt(4).putInt(42).putInt(name.length).put(name).putInt(-1)
        .putShort((short) 0);
    byte[] stream = concat(untyped(196608, "user\0postgres\0\0"), parseWithTypes,
        typed('B', new String(bind.array(), StandardCharsets.ISO_8859_1), true),
        typed('E', "\0\0\0\0\0"));
    List<List<BoundParameter>> bound = new ArrayList<>();
    List<Long> bytes = new ArrayList<>();
    FrontendTap tap = new FrontendTap((sql, simpleQuery, parameters, valueBytes) -> {
      bound.add(parameters.get());
      bytes.add(valueBytes);
    });
    tap.sent(stream, 0, stream.length);
    assertThat(bound).hasSize(1);
    assertThat(bytes).containsExactly(4L + 7L); // the int4 and "O'Brien"; NULL has none
    assertThat(bound.get(0)).extracting(BoundParameter::typeOid).containsExactly(23, 25, 0);
    assertThat(bound.get(0)).extracting(BoundParameter::literal)
        .containsExactly("'42'", "'O''Brien'", "NULL");
  }

  @Test
  void givesUpOnWhatIsNotTheProtocol() {
    List<String> seen = new ArrayList<>();
    FrontendTap tap = new FrontendTap((sql, simpleQuery, parameters, valueBytes) -> seen.add(sql));
    tap.sent(untyped(80877103), 0, 8);
    byte[] tlsClientHello = {0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, (byte) 0xfc};
    tap.sent(tlsClientHello, 0, tlsClientHello.length);
    tap.sent(typed('Q', "SELECT 1\0"), 0, typed('Q', "SELECT 1\0").length);
    assertThat(tap.isBroken()).isTrue();
    assertThat(seen).isEmpty();
  }

  private static byte[] untyped(int code, String... body) {
    byte[] rest = String.join("", body).getBytes(StandardCharsets.UTF_8);
    return ByteBuffer.allocate(8 + rest.length).putInt(8 + rest.length).putInt(code).put(rest)
        .array();
  }

  static byte[] typed(char type, String body) {
    return typed(type, body, false);
  }

  private static byte[] typed(char type, String body, boolean raw) {
    byte[] b = body.getBytes(raw ? StandardCharsets.ISO_8859_1 : StandardCharsets.UTF_8);
    return ByteBuffer.allocate(5 + b.length).put((byte) type).putInt(4 + b.length).put(b).array();
  }

  // a typed message with more bytes at the end of its body
  private static byte[] withBody(byte[] message, byte[] more) {
    return ByteBuffer.allocate(message.length + more.length).put(message[0])
        .putInt(message.length - 1 + more.length).put(message, 5, message.length - 5).put(more)
        .array();
  }

  static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] p : parts) {
      out.writeBytes(p);
    }
    return out.toByteArray();
  }
}
