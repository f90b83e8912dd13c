package io.github.latencylab.bench.runner;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** How many more iterations a cell wider than asked is given, and how many its budget holds. */
class PrecisionTest {

  private final Precision tenPercent = new Precision(0.10, 2);
  private final Iterations full = new Iterations(1, 1, Duration.ofSeconds(2), 6,
      Duration.ofMillis(500));

  @Test
  void theIterationsLackingAreThoseTheScatterNeedsAtStudentsT() {
    // 6 samples at +-20%: a CV of 7.1%; t(10) x 7.1% / sqrt(11) = 9.9%
    assertThat(tenPercent.more(6, 0.20)).isEqualTo(5);
    assertThat(tenPercent.more(6, 0.80)).as("four times as wide: a CV of 29%").isEqualTo(88);
    assertThat(tenPercent.more(6, 0.11)).as("at least two").isEqualTo(2);
    assertThat(tenPercent.more(1, Double.NaN)).as("one sample: no interval yet").isEqualTo(2);
  }

  @Test
  void theBudgetLeftPaysAForkAWarmUpAndAnOperationAnIteration() {
    Duration limit = Duration.ofSeconds(60);
    // 60 s - 10 s spent - 2 s a fork's start - 2 s warm-up = 46 s of 500 ms iterations
    assertThat(Precision.fitting(200, full, 3, limit, Duration.ofSeconds(10))).isEqualTo(92);
    assertThat(Precision.fitting(18, full, 3, limit, Duration.ofSeconds(10))).isEqualTo(18);
    // 5 s operations: 60 - 40 - 2 - 5 = 13 s, two operations
    assertThat(Precision.fitting(18, full, 5_000, limit, Duration.ofSeconds(40))).isEqualTo(2);
    assertThat(Precision.fitting(18, full, 5_000, limit, Duration.ofSeconds(59))).isZero();
  }
}
