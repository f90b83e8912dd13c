package io.github.latencylab.latency;

import java.util.List;
import java.util.Map;

/**
 * The Toxiproxy toxics that realise one RTT setting: {@link MicrosecondToxics} where the
 * Toxiproxy has latency-lab's {@code latency_us} toxic, {@link WholeMillisecondToxics} (real on
 * average only) where it has only upstream's whole-millisecond one.
 */
public sealed interface ToxicPlan permits MicrosecondToxics, WholeMillisecondToxics {

  /** No toxics at all. */
  ToxicPlan NONE = new MicrosecondToxics(0, 0);

  /** What the toxics add to a round trip by their settings, before any wake-up overshoot. */
  double nominalMs();

  /** The toxics in a few words, e.g. "125us up, 125us down" or "1ms±1 up, 0ms±2 down". */
  String describe();

  /** The toxics to create: one per direction that delays, upstream first. */
  List<Toxic> toxics();

  /** One toxic as Toxiproxy's API takes it. */
  record Toxic(String stream, String type, Map<String, Long> attributes) {
  }
}
