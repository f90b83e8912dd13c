package io.github.latencylab.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** Otava's method, checked on series whose answer is known, and its t distribution. */
class ChangePointsTest {

  @Test
  void studentsTailMatchesTheTables() {
    // t = 2.228 at 10 degrees of freedom: two-sided 5%; t = 4.587: 0.1%
    assertThat(ChangePoints.Student.twoSidedP(2.228, 10)).isCloseTo(0.05, within(1e-4));
    assertThat(ChangePoints.Student.twoSidedP(4.587, 10)).isCloseTo(0.001, within(1e-5));
    assertThat(ChangePoints.Student.twoSidedP(0, 10)).isCloseTo(1, within(1e-12));
    assertThat(ChangePoints.Student.twoSidedP(1.0, 1)).isCloseTo(0.5, within(1e-12));
  }

  @Test
  void twoStepsUpAreBothFound() {
    double[] xs = {10, 10.2, 9.9, 10.1, 9.8, 10, 15, 15.2, 14.9, 15.1, 15, 14.8,
        22.1, 21.9, 22, 22.2, 21.8, 22};

    assertThat(ChangePoints.of(xs)).extracting(ChangePoints.Point::index)
        .containsExactly(6, 12);
  }

  @Test
  void aShortExcursionThatComesBackIsNotAStep() {
    // the first split is tested against the whole rest (15s and 10s together): p about 0.03,
    // not below 0.01, so Otava's method stops there, as its Python does
    double[] xs = {10, 10.2, 9.9, 10.1, 9.8, 10, 15, 15.2, 14.9, 15.1, 15, 14.8,
        10.1, 9.9, 10, 10.2, 9.8, 10};

    assertThat(ChangePoints.of(xs)).isEmpty();
  }

  @Test
  void aConstantSeriesHasNone() {
    assertThat(ChangePoints.of(new double[] {3, 3, 3, 3, 3, 3})).isEmpty();
  }

  @Test
  void aSeriesLongerThanTheWindowIsSearchedWindowByWindow() {
    double[] xs = new double[120];
    for (int i = 0; i < xs.length; i++) {
      xs[i] = (i < 80 ? 4 : 5) + 0.05 * Math.sin(i * 1.7);
    }

    assertThat(ChangePoints.of(xs)).extracting(ChangePoints.Point::index)
        .containsExactly(80);
  }
}
