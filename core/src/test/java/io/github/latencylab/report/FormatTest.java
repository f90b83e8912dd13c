package io.github.latencylab.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class FormatTest {

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "0.612         | 612 µs",
      "0.9996        | 1.00 ms",
      "20.4          | 20.40 ms",
      "99.996        | 100 ms",
      "612.4         | 612 ms",
      "5310          | 5.31 s",
      "318000        | 5.3 min",
      "10800000      | 3.0 h",
      "321888000     | 3.7 days", // 5,364.8 min: row by row, 1,000,000 rows at 320 ms
      "-0.0004       | 0 µs",     // never "-0"
      "-0.004        | -4 µs",
      "-0.000000001  | 0 µs",
      "NaN           | -",
  })
  void durationsAreInTheUnitAReaderExpects(double ms, String text) {
    assertThat(Format.duration(ms)).isEqualTo(text);
  }

  @Test
  void fixedPointNumbersReadAsStringFormatWritesThem() {
    java.util.Random random = new java.util.Random(7);
    for (int i = 0; i < 200_000; i++) {
      double v = switch (i % 4) {
        case 0 -> random.nextGaussian() * 1000;
        case 1 -> Math.round(random.nextDouble() * 100_000) / 1000.0 + 0.0005; // halves
        case 2 -> random.nextDouble() * Math.pow(10, random.nextInt(15) - 4);
        default -> -random.nextDouble() * Math.pow(10, random.nextInt(12) - 6);
      };
      int decimals = i % 4;
      double expectedOf = Math.round(Math.abs(v) * Math.pow(10, decimals)) == 0 ? 0 : v;
      assertThat(Format.fixed(v, decimals)).as("%s to %d decimals", v, decimals)
          .isEqualTo(String.format(java.util.Locale.ROOT, "%,." + decimals + "f", expectedOf));
      assertThat(Format.plain(v, decimals)).as("%s to %d decimals, not grouped", v, decimals)
          .isEqualTo(String.format(java.util.Locale.ROOT, "%." + decimals + "f", expectedOf));
    }
  }

  @Test
  void countsNumbersAndParameters() {
    assertThat(Format.count(1000)).isEqualTo("1,000");
    assertThat(Format.count(2.5)).isEqualTo("2.50");
    assertThat(Format.count(-0.001)).isEqualTo("0.00");
    assertThat(Format.count(Double.NaN)).isEqualTo("-");
    assertThat(Format.number(3)).isEqualTo("3");
    assertThat(Format.number(0.01)).isEqualTo("0.01");
    assertThat(Format.number(4.02)).isEqualTo("4.02");
    assertThat(Format.number(1000)).isEqualTo("1,000");
    assertThat(Format.millis(20.635)).isEqualTo("20.64 ms");
    assertThat(Format.millis(-0.001)).isEqualTo("0.00 ms");
    Map<String, String> params = new LinkedHashMap<>();
    params.put("rows", "1000");
    params.put("batch", "100");
    assertThat(Format.params(params)).isEqualTo("rows=1000, batch=100");
    assertThat(Format.tick(0.01)).isEqualTo("10 µs");
    assertThat(Format.tick(20)).isEqualTo("20 ms");
    assertThat(Format.tick(100_000)).isEqualTo("100 s");
  }
}
