package io.github.latencylab.latency;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.github.latencylab.latency.ToxicPlan.Toxic;
import io.github.latencylab.latency.WholeMillisecondToxics.Direction;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ToxicPlanTest {

  // ---------------------------------------------------------------- latency_us

  @Test
  void microsecondsSplitEvenlyFromHalfAMillisecond() {
    MicrosecondToxics plan = MicrosecondToxics.forSetting(Rtt.parse("20ms"), 19_801);
    assertThat(plan).isEqualTo(new MicrosecondToxics(9_900, 9_901));
    assertThat(plan.nominalMs()).isEqualTo(19.801);
    assertThat(plan.describe()).isEqualTo("9.9ms up, 9.901ms down");
    assertThat(plan.toxics()).containsExactly(
        new Toxic("upstream", "latency_us", Map.of("latency", 9_900L)),
        new Toxic("downstream", "latency_us", Map.of("latency", 9_901L)));
    assertThat(MicrosecondToxics.forSetting(Rtt.parse("0.5ms"), 400))
        .isEqualTo(new MicrosecondToxics(200, 200));
  }

  @Test
  void belowHalfAMillisecondOneDirectionCarriesItAll() {
    // each delayed direction costs a wake-up's overshoot: one of them leaves room at 0.1 ms
    MicrosecondToxics plan = MicrosecondToxics.forSetting(Rtt.parse("0.25ms"), 190);
    assertThat(plan).isEqualTo(new MicrosecondToxics(0, 190));
    assertThat(plan.describe()).isEqualTo("0.19ms down");
    assertThat(plan.toxics()).containsExactly(
        new Toxic("downstream", "latency_us", Map.of("latency", 190L)));
  }

  @Test
  void aCorrectionBelowZeroAsksForNoDelay() {
    assertThat(MicrosecondToxics.forSetting(Rtt.parse("0.1ms"), -20).toxics()).isEmpty();
    assertThat(ToxicPlan.NONE.toxics()).isEmpty();
    assertThat(ToxicPlan.NONE.describe()).isEqualTo("none");
  }

  // ---------------------------------------------------------------- whole milliseconds

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
    assertThat(WholeMillisecondToxics.closestTo(320))
        .isEqualTo(new WholeMillisecondToxics(new Direction(160, 0), new Direction(160, 0)));
    WholeMillisecondToxics twenty = WholeMillisecondToxics.closestTo(20);
    assertThat(twenty)
        .isEqualTo(new WholeMillisecondToxics(new Direction(10, 0), new Direction(10, 0)));
    assertThat(twenty.describe()).isEqualTo("10ms up, 10ms down");
    assertThat(twenty.toxics()).containsExactly(
        new Toxic("upstream", "latency", Map.of("latency", 10L, "jitter", 0L)),
        new Toxic("downstream", "latency", Map.of("latency", 10L, "jitter", 0L)));
    WholeMillisecondToxics five = WholeMillisecondToxics.closestTo(5);
    assertThat(five.nominalMs()).isEqualTo(5);
    assertThat(five.varianceMs2()).isZero();
    assertThat(Math.abs(five.upstream().latencyMs() - five.downstream().latencyMs())).isEqualTo(1);
  }

  @Test
  void halfAMillisecondMixesZeroAndOne() {
    WholeMillisecondToxics half = WholeMillisecondToxics.closestTo(0.5);
    assertThat(half.nominalMs()).isEqualTo(0.5);
    assertThat(Math.max(half.upstream().maxMs(), half.downstream().maxMs())).isEqualTo(1);
  }

  @ParameterizedTest
  @ValueSource(doubles = {0.3, 0.42, 0.5, 0.9, 1.0, 1.85, 4.4, 19.1, 80, 318.5})
  void nominalMeanIsWithinTwoPercentOfTheTarget(double target) {
    assertThat(WholeMillisecondToxics.closestTo(target).nominalMs())
        .isCloseTo(target, within(Math.max(0.02, 0.02 * target)));
  }

  @Test
  void nothingForZero() {
    WholeMillisecondToxics none = WholeMillisecondToxics.closestTo(0);
    assertThat(none.nominalMs()).isZero();
    assertThat(none.toxics()).isEmpty();
  }
}
