package io.github.latencylab.env;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.github.latencylab.env.link.LatencyControl;
import org.junit.jupiter.api.Test;

class LatencyControlTest {

  @Test
  void aPassAsksForTheLastAskLessItsError() {
    assertThat(LatencyControl.corrected(0.5, 0.06)).isCloseTo(0.44, within(1e-9));
    assertThat(LatencyControl.corrected(0.44, -0.02)).isCloseTo(0.46, within(1e-9));
    assertThat(LatencyControl.corrected(20, 0.28)).isCloseTo(19.72, within(1e-9));
  }

  // CI once saw a 0.5 ms calibration settle on no toxics: one pass measured ~0.5 ms over, the
  // next asked for nothing, and its noisy measurement happened to be the closest
  @Test
  void aPassALoadSpikePushedFarOverHalvesTheAskAtMost() {
    assertThat(LatencyControl.corrected(0.5, 0.5)).isEqualTo(0.25);
    assertThat(LatencyControl.corrected(0.5, 3)).isEqualTo(0.25);
    assertThat(LatencyControl.corrected(0.25, 0.2)).isEqualTo(0.125);
  }
}
