package io.github.latencylab.junit;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What ran before a test, as the baseline keeps it: the first four bytes of SHA-256 over the
 * earlier tests' keys joined by newlines, however late and in whatever order it is asked for.
 */
class TestsBeforeTest {

  private static final List<String> KEYS = List.of("a.A.one @ 0ms", "a.A.two @ 0ms",
      "b.B.three[2] @ 0ms");

  @Test
  void eachTestsPredecessorsHashedAsTheyRan() throws Exception {
    LatencyReport.TestsBefore before = new LatencyReport.TestsBefore();
    assertThat(before.after(0)).isEqualTo("after 0 tests (" + sha256Prefix("") + ")");
    KEYS.forEach(before::add);
    // asked when the run ends, the last first: the same as asked one test at a time
    assertThat(before.after(3)).isEqualTo("after 3 tests ("
        + sha256Prefix(String.join("\n", KEYS)) + ")");
    assertThat(before.after(1)).isEqualTo("after 1 test (" + sha256Prefix(KEYS.get(0)) + ")");
    assertThat(before.after(2)).isEqualTo("after 2 tests ("
        + sha256Prefix(KEYS.get(0) + "\n" + KEYS.get(1)) + ")");
    assertThat(before.after(0)).isEqualTo("after 0 tests (e3b0c442)");
  }

  private static String sha256Prefix(String text) throws Exception {
    byte[] d = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
    return HexFormat.of().formatHex(d, 0, 4);
  }
}
