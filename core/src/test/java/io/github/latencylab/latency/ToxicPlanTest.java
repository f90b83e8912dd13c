package io.github.latencylab.latency;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.github.latencylab.latency.ToxicPlan.Direction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ToxicPlanTest {

  @Test
  void meanFollowsToxiproxysDraw() {
    // latency + U, U uniform in [-jitter, jitter - 1], negative delays pass at once
    assertThat(new Direction(10, 0).meanMs()).isEqualTo(10);
    assertThat(new Direction(1, 1).meanMs()).isEqualTo(0.5); // 0 or 1 ms
    assertThat(new Direction(0, 2).meanMs()).isEqualTo(0.25); // 0, 0, 0, 1 ms
    assertThat(new Direction(-1, 3).meanMs()).isCloseTo(1 / 6.0, within(1e-12));
    assertThat(new Direction(-5, 0).meanMs()).isZero();
  }

  @Test
  void varianceIsZeroForWholeMilliseconds() {
    assertThat(new Direction(7, 0).varianceMs2()).isZero();
    assertThat(new Direction(1, 1).varianceMs2()).isEqualTo(0.25);
  }

  @Test
  void wholeMillisecondsSplitEvenlyWithoutJitter() {
    assertThat(ToxicPlan.closestTo(320))
        .isEqualTo(new ToxicPlan(new Direction(160, 0), new Direction(160, 0)));
    assertThat(ToxicPlan.closestTo(20))
        .isEqualTo(new ToxicPlan(new Direction(10, 0), new Direction(10, 0)));
    ToxicPlan five = ToxicPlan.closestTo(5);
    assertThat(five.meanMs()).isEqualTo(5);
    assertThat(five.varianceMs2()).isZero();
    assertThat(Math.abs(five.upstream().latencyMs() - five.downstream().latencyMs())).isEqualTo(1);
  }

  @Test
  void halfAMillisecondMixesZeroAndOne() {
    ToxicPlan half = ToxicPlan.closestTo(0.5);
    assertThat(half.meanMs()).isEqualTo(0.5);
    assertThat(Math.max(half.upstream().maxMs(), half.downstream().maxMs())).isEqualTo(1);
  }

  @ParameterizedTest
  @ValueSource(doubles = {0.3, 0.42, 0.5, 0.9, 1.0, 1.85, 4.4, 19.1, 80, 318.5})
  void nominalMeanIsWithinTwoPercentOfTheTarget(double target) {
    assertThat(ToxicPlan.closestTo(target).meanMs())
        .isCloseTo(target, within(Math.max(0.02, 0.02 * target)));
  }

  @Test
  void nothingForZero() {
    assertThat(ToxicPlan.closestTo(0)).isEqualTo(ToxicPlan.NONE);
    assertThat(ToxicPlan.NONE.upstream().delays()).isFalse();
  }
}
