package io.github.latencylab.latency;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * latency-lab's {@code latency_us} toxics: each chunk leaves this many microseconds after it
 * reached the proxy, plus a near-constant wake-up overshoot (some 0.05 ms per delayed
 * direction) that calibration measures and subtracts.
 *
 * <p>An RTT of 0.5 ms and more is split evenly between the two directions, as a network's would
 * be. Below, all of it goes downstream: each delayed direction costs its own overshoot, and two
 * of them would leave nothing to ask for at 0.1 ms.
 */
public record MicrosecondToxics(long upstreamMicros, long downstreamMicros) implements ToxicPlan {

  /** The toxic type latency-lab's Toxiproxy server registers. */
  public static final String TYPE = "latency_us";
  static final long SPLIT_FROM_MICROS = 500;

  public MicrosecondToxics {
    if (upstreamMicros < 0 || downstreamMicros < 0) {
      throw new IllegalArgumentException("negative delay: " + upstreamMicros + " us up, "
          + downstreamMicros + " us down");
    }
  }

  /** {@code askedMicros} in total for the setting {@code target}, split as the class says. */
  public static MicrosecondToxics forSetting(Rtt target, long askedMicros) {
    long asked = Math.max(0, askedMicros);
    if (target.micros() < SPLIT_FROM_MICROS) {
      return new MicrosecondToxics(0, asked);
    }
    return new MicrosecondToxics(asked / 2, asked - asked / 2);
  }

  public long totalMicros() {
    return upstreamMicros + downstreamMicros;
  }

  @Override
  public double nominalMs() {
    return totalMicros() / 1000.0;
  }

  @Override
  public String describe() {
    if (totalMicros() == 0) {
      return "none";
    }
    if (upstreamMicros == 0) {
      return ms(downstreamMicros) + " down";
    }
    return ms(upstreamMicros) + " up, " + ms(downstreamMicros) + " down";
  }

  // "0.19ms", "9.917ms", "160ms": Rtt's form
  private static String ms(long micros) {
    return BigDecimal.valueOf(micros, 3).stripTrailingZeros().toPlainString() + "ms";
  }

  @Override
  public List<Toxic> toxics() {
    List<Toxic> toxics = new ArrayList<>();
    if (upstreamMicros > 0) {
      toxics.add(new Toxic("upstream", TYPE, Map.of("latency", upstreamMicros)));
    }
    if (downstreamMicros > 0) {
      toxics.add(new Toxic("downstream", TYPE, Map.of("latency", downstreamMicros)));
    }
    return toxics;
  }

  @Override
  public String toString() {
    return "latency_us toxics " + describe();
  }
}
