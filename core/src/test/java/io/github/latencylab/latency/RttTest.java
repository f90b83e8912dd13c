package io.github.latencylab.latency;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RttTest {

  @ParameterizedTest
  @CsvSource({"0.5ms, 500", "20 ms, 20000", "320ms, 320000", "1s, 1000000", "500us, 500",
      "0ms, 0", "2.5MS, 2500", "0.25ms, 250", "0.3ms, 300", "0.1ms, 100", "100µs, 100",
      "0.125ms, 125", "1.000ms, 1000", "0.0005s, 500"})
  void parsesToTheMicrosecond(String text, long micros) {
    assertThat(Rtt.parse(text).micros()).isEqualTo(micros);
  }

  @Test
  void printsWhatItParses() {
    assertThat(Rtt.parse("0.5ms")).hasToString("0.5ms");
    assertThat(Rtt.parse("320 ms")).hasToString("320ms");
    assertThat(Rtt.parse("250us")).hasToString("0.25ms");
    assertThat(Rtt.parse("0.125ms")).hasToString("0.125ms");
    assertThat(Rtt.ZERO).hasToString("0ms");
    for (String s : new String[] {"1.5ms", "0.333ms", "12.001ms", "1s"}) {
      assertThat(Rtt.parse(Rtt.parse(s).toString())).isEqualTo(Rtt.parse(s));
    }
  }

  @Test
  void ofMillisRoundsToTheMicrosecond() {
    assertThat(Rtt.ofMillis(0.25)).isEqualTo(Rtt.parse("250us"));
    assertThat(Rtt.ofMillis(0.1 + 0.2)).isEqualTo(Rtt.parse("0.3ms"));
  }

  @Test
  void rejectsWordsWithTheInputInTheMessage() {
    assertThatThrownBy(() -> Rtt.parse("fast"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Invalid RTT 'fast': expected a non-negative number and a unit (us, ms, s),"
            + " e.g. 0.25ms, 20ms, 320ms");
  }

  @Test
  void rejectsNegativeValues() {
    assertThatThrownBy(() -> Rtt.parse("-1ms"))
        .hasMessage("Invalid RTT '-1ms': expected a non-negative number and a unit (us, ms, s),"
            + " e.g. 0.25ms, 20ms, 320ms");
    assertThatThrownBy(() -> new Rtt(-1))
        .hasMessage("RTT must not be negative, got -1 us");
  }

  @Test
  void rejectsWhatTheLabCannotRealise() {
    assertThatThrownBy(() -> Rtt.parse("0.05ms"))
        .hasMessage("Invalid RTT '0.05ms': below 0.1 ms, the smallest added RTT the Lab can"
            + " realise (a toxic's own wake-up takes some 0.05 ms); use 0 or 0.1ms and up");
    assertThatThrownBy(() -> new Rtt(99)).hasMessageStartingWith("RTT 99 us: below 0.1 ms");
    assertThatThrownBy(() -> Rtt.parse("0.2505ms"))
        .hasMessage("Invalid RTT '0.2505ms': the Lab's resolution is one microsecond"
            + " (0.001 ms); round it, e.g. 0.251ms");
    assertThatThrownBy(() -> Rtt.parse("0.1us")).hasMessageContaining("e.g. 0.1ms");
    assertThatThrownBy(() -> Rtt.parse("2h")).hasMessageContaining("'2h'");
    assertThatThrownBy(() -> Rtt.parse("7200s"))
        .hasMessage("Invalid RTT '7200s': more than an hour");
  }

  @Test
  void rejectsMissingAndEmptyInput() {
    assertThatThrownBy(() -> Rtt.parse(null))
        .hasMessage("RTT is missing: expected e.g. 0.25ms, 20ms, 320ms");
    assertThatThrownBy(() -> Rtt.parseList(" , "))
        .hasMessage("Invalid RTT list ' , ': no value in it");
  }

  @Test
  void parsesTheSweep() {
    assertThat(Rtt.parseList("0.5ms, 1ms,20ms")).containsExactly(
        Rtt.parse("0.5ms"), Rtt.parse("1ms"), Rtt.parse("20ms"));
    assertThat(Rtt.SWEEP).hasSize(10).first().isEqualTo(Rtt.parse("0.5ms"));
    assertThat(Rtt.SWEEP).last().isEqualTo(Rtt.parse("320ms"));
  }
}
