package io.github.latencylab.wire;

import static io.github.latencylab.wire.FrontendTapTest.concat;
import static io.github.latencylab.wire.FrontendTapTest.typed;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Rows per statement out of hand-made server replies, cut at every possible place. */
class BackendTapTest {

  private static WireStatement statement(String sql) {
    return new WireStatement(sql, List.of(), 0, null, null, 1, 1, null, false);
  }

  @Test
  void rowsGoToTheStatementThatAskedWhereverTheStreamIsCut() {
    WireStatement set = statement("SET x = 1");
    WireStatement cursor = statement("SELECT * FROM t");
    WireStatement fetch = statement("SELECT * FROM t");
    WireStatement failing = statement("SELECT 1/0");
    WireStatement skipped = statement("SELECT 2");
    WireStatement simple = statement("SELECT 1; SELECT 2");
    byte[] startup = concat(
        new byte[] {'N'}, // the SSLRequest refused
        typed('R', "\0\0\0\0"), typed('S', "a\0b\0"), typed('K', "12345678"), typed('Z', "I"));
    byte[] stream = concat(
        // a pipelined batch: SET; a cursor's first fetch of 2 rows; Sync
        typed('1', ""), typed('2', ""), typed('C', "SET\0"),
        typed('1', ""), typed('2', ""), typed('D', "\0\1\0\0\0\1x"), typed('D', "\0\1\0\0\0\1y"),
        typed('s', ""), typed('Z', "T"),
        // the next fetch: 1 row and done
        typed('2', ""), typed('D', "\0\1\0\0\0\1z"), typed('C', "SELECT 3\0"), typed('Z', "T"),
        // an error: the statement after it is skipped up to the Sync
        typed('1', ""), typed('E', "SERROR\0\0"), typed('Z', "E"),
        // a simple query of two statements, 1 row each, ends at ReadyForQuery
        typed('T', "\0\0"), typed('D', "\0\1\0\0\0\1a"), typed('C', "SELECT 1\0"),
        typed('T', "\0\0"), typed('D', "\0\1\0\0\0\1b"), typed('C', "SELECT 1\0"),
        typed('Z', "I"));
    for (int chunk = 1; chunk <= stream.length; chunk++) {
      List<WireRead> reads = new ArrayList<>();
      BackendTap tap = new BackendTap((s, rows, values, bytes) -> reads.add(new WireRead(s, rows, values, bytes)));
      tap.answerByteExpected();
      for (int at = 0; at < startup.length; at += chunk) {
        tap.received(startup, at, Math.min(chunk, startup.length - at));
      }
      tap.asked(set, false);
      tap.asked(cursor, false);
      tap.synced();
      tap.asked(fetch, false);
      tap.synced();
      tap.asked(failing, false);
      tap.asked(skipped, false);
      tap.synced();
      tap.asked(simple, true);
      for (int at = 0; at < stream.length; at += chunk) {
        tap.received(stream, at, Math.min(chunk, stream.length - at));
      }
      assertThat(reads).as("chunks of %d bytes", chunk).containsExactly(
          // a DataRow of one 1-byte column: its type, length, column count, length, byte
          new WireRead(cursor, 2, 2, 24), new WireRead(fetch, 1, 1, 12),
          new WireRead(simple, 2, 2, 24));
    }
  }

  @Test
  void anAcceptedSslRequestEndsTheCounting() {
    List<WireRead> reads = new ArrayList<>();
    BackendTap tap = new BackendTap((s, rows, values, bytes) -> reads.add(new WireRead(s, rows, values, bytes)));
    tap.answerByteExpected();
    tap.asked(statement("SELECT 1"), true);
    byte[] tls = concat(new byte[] {'S'}, typed('D', "\0\1\0\0\0\1x"), typed('Z', "I"));
    tap.received(tls, 0, tls.length);
    assertThat(reads).isEmpty();
  }
}
