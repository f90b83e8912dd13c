package io.github.latencylab.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** A measured cell's samples: median, IQR, and why its interval is wider than asked. */
class TimeSpreadTest {

  @Test
  void withinWhatWasAskedItIsNotNoisy() {
    TimeSpread s = TimeSpread.of(new double[] {10, 11, 9, 10.5, 9.5, 10}, 10, 0.9, 0.10, false);

    assertThat(s.samples()).isEqualTo(6);
    assertThat(s.medianMs()).isEqualTo(10);
    assertThat(s.q1Ms()).isEqualTo(9.625);
    assertThat(s.q3Ms()).isEqualTo(10.375);
    assertThat(s.noisy()).isNull();
    assertThat(s.describe()).isEqualTo("median 10.00 ms (IQR 9.63 ms\u201310.38 ms, 6 samples)");
    assertThat(TimeSpread.of(new double[] {10, 30}, 20, 50, 0, false).noisy())
        .as("nothing asked").isNull();
  }

  @Test
  void aSampleFarOutIsNamedWithHowFar() {
    double[] samples = {10, 10.2, 9.9, 10.1, 31, 10, 9.8, 10.1};

    TimeSpread s = TimeSpread.of(samples, 12.64, 7.6, 0.10, false);

    assertThat(s.noisy()).isEqualTo("\u00b1 60.2% of the mean (asked: 10%): 1 of 8 samples far out"
        + " (the slowest 3.08x the median): the median and IQR say more");
    assertThat(s.medianMs()).isCloseTo(10.05, within(1e-9));
  }

  @Test
  void aDriftAndASpentBudgetAreNamed() {
    double[] samples = {10, 10.4, 10.2, 12.5, 12.9, 12.7};

    assertThat(TimeSpread.of(samples, 11.45, 2.1, 0.10, true).noisy()).isEqualTo("\u00b1 18.4% of"
        + " the mean (asked: 10%): a drift: the later samples' median 1.25x the earlier's;"
        + " 6 samples, what the cell's budget held");
  }

  @Test
  void otherwiseTheirScatter() {
    double[] samples = {8, 12, 9, 11, 10, 13, 7, 10};

    assertThat(TimeSpread.of(samples, 10, 1.5, 0.10, false).noisy()).isEqualTo("\u00b1 15% of"
        + " the mean (asked: 10%): the samples scatter (CV 20% over 8)");
  }

  @Test
  void anIntervalJustWiderThanAskedNeverReadsAsTheAsk() {
    assertThat(TimeSpread.percent(0.1003)).isEqualTo("10.1%");
    assertThat(TimeSpread.percent(0.10)).isEqualTo("10%");
    assertThat(TimeSpread.percent(0.056)).isEqualTo("5.6%");
    assertThat(TimeSpread.percent(1.54)).isEqualTo("154%");
  }
}
