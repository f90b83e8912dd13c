package io.github.latencylab.latency;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RttTest {

  @ParameterizedTest
  @CsvSource({"0.5ms, 500", "20 ms, 20000", "320ms, 320000", "1s, 1000000", "500us, 500",
      "0ms, 0", "2.5MS, 2500"})
  void parses(String text, long micros) {
    assertThat(Rtt.parse(text).micros()).isEqualTo(micros);
  }

  @Test
  void printsWhatItParses() {
    assertThat(Rtt.parse("0.5ms")).hasToString("0.5ms");
    assertThat(Rtt.parse("320 ms")).hasToString("320ms");
    assertThat(Rtt.parse(Rtt.parse("1.5ms").toString())).isEqualTo(Rtt.parse("1500us"));
  }

  @Test
  void rejectsWordsWithTheInputInTheMessage() {
    assertThatThrownBy(() -> Rtt.parse("fast"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Invalid RTT 'fast': expected a non-negative number and a unit (us, ms, s),"
            + " e.g. 0.5ms, 20ms, 320ms");
  }

  @Test
  void rejectsNegativeValues() {
    assertThatThrownBy(() -> Rtt.parse("-1ms"))
        .hasMessage("Invalid RTT '-1ms': expected a non-negative number and a unit (us, ms, s),"
            + " e.g. 0.5ms, 20ms, 320ms");
    assertThatThrownBy(() -> new Rtt(-1))
        .hasMessage("RTT must not be negative, got -1 us");
  }

  @Test
  void rejectsWhatToxiproxyCannotRealise() {
    assertThatThrownBy(() -> Rtt.parse("0.1us"))
        .hasMessage("Invalid RTT '0.1us': must be a multiple of 0.5 ms"
            + " (Toxiproxy's latency toxic works in whole milliseconds per direction)");
    assertThatThrownBy(() -> Rtt.parse("0.3ms")).hasMessageContaining("'0.3ms'");
  }

  @Test
  void rejectsMissingAndEmptyInput() {
    assertThatThrownBy(() -> Rtt.parse(null))
        .hasMessage("RTT is missing: expected e.g. 0.5ms, 20ms, 320ms");
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
