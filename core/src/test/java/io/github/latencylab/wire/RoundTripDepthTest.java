package io.github.latencylab.wire;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The round-trip definition on message sequences as a client and PostgreSQL exchange them:
 * "c:" what the client sends in one go, "s:" what it receives in one go, one character per
 * message type (the wire tests check the same counts on real connections).
 */
class RoundTripDepthTest {

  private final RoundTripDepth depth = new RoundTripDepth();

  private void client(String types) {
    depth.clientBegins();
    for (char t : types.toCharArray()) {
      depth.clientMessage(t);
    }
  }

  private void server(String types) {
    for (char t : types.toCharArray()) {
      depth.serverMessage(t);
    }
  }

  @Test
  void aClientThatWaitsForEachReplyPaysOnePerRequest() {
    for (int i = 0; i < 5; i++) {
      client("Q");
      server("TDCZ");
    }
    assertThat(depth.roundTrips()).isEqualTo(5);
  }

  @Test
  void requestsSentBeforeAnyAnswerPayOneTogether() {
    client("PBDES".repeat(100));
    server("12TCZ".repeat(100));
    assertThat(depth.roundTrips()).isEqualTo(1);
  }

  @Test
  void aPipelineOfSixteenInFlightPaysOnePerSixteen() {
    // 64 requests, at most 16 unanswered: 16 go at once, each answer lets one more go
    client("BES".repeat(16));
    for (int answered = 0; answered < 64; answered++) {
      server("2CZ");
      if (answered + 16 < 64) {
        client("BES");
      }
    }
    assertThat(depth.roundTrips()).isEqualTo(4);
  }

  @Test
  void answersTheServerFlushesBeforeTheSyncArrivesAreNotWaitedFor() {
    // pgjdbc's batch: the server's send buffer fills and is flushed mid-batch
    client("PBE" + "BE".repeat(50));
    server("12C" + "2C".repeat(50));
    client("BE".repeat(50) + "S");
    server("2C".repeat(50) + "Z");
    assertThat(depth.roundTrips()).isEqualTo(1);
  }

  @Test
  void aBatchWrittenAfterABeginItDidNotWaitForIsOneRoundTrip() {
    // pgjdbc: BEGIN as a simple Query, then the batch, whose writes outlast BEGIN's answer
    client("QPBDE");
    server("CZ");
    client("BDE".repeat(100) + "S");
    server("12" + "2C".repeat(100) + "Z");
    assertThat(depth.roundTrips()).isEqualTo(1);
  }

  @Test
  void copyInWaitsForCopyInResponseThenForItsEnd() {
    client("Q");
    server("G");
    client("ddddc");
    server("CZ");
    assertThat(depth.roundTrips()).isEqualTo(2);
  }

  @Test
  void startupWithSslRefusedAndScramPaysFour() {
    depth.clientBegins();
    depth.startupMessage(true); // SSLRequest
    depth.serverByte(); // 'N'
    depth.clientBegins();
    depth.startupMessage(false);
    server("R"); // SASL
    client("p");
    server("R"); // SASL continue
    client("p");
    server("RRSSSKZ"); // final, ok, parameters, key, ready
    assertThat(depth.roundTrips()).isEqualTo(4);
  }

  @Test
  void aFlushIsAnsweredWithoutItsSync() {
    client("PDH");
    server("1tT");
    client("BES");
    server("2DCZ");
    assertThat(depth.roundTrips()).isEqualTo(2);
  }

  @Test
  void anErrorInAPipelineStillEndsAtEachSync() {
    client("BES".repeat(3));
    server("E" + "Z" + "2CZ" + "2CZ");
    client("Q");
    server("CZ");
    assertThat(depth.roundTrips()).isEqualTo(2);
  }

  @Test
  void terminateIsNeverAnswered() {
    client("Q");
    server("CZ");
    client("X");
    assertThat(depth.roundTrips()).isEqualTo(1);
  }
}
