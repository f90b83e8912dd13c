package io.github.latencylab.latency;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * Two of Toxiproxy's own latency toxics (client to server, server to client) that make one RTT
 * on average: the fallback where the Toxiproxy has no {@code latency_us} toxic (a user's own
 * server), or {@code latencylab.rtt.toxics=whole-ms}.
 *
 * <p>Toxiproxy delays each chunk by {@code latency + U} whole milliseconds, U uniform in
 * {@code [-jitter, jitter - 1]}, and a delay of zero or less passes the chunk at once. So a
 * direction's mean delay is {@code E[max(0, latency + U)]}: with latency 1 and jitter 1 half
 * the chunks wait 1 ms and half none, 0.5 ms on average. Whole milliseconds need no jitter;
 * fractions mix 0, 1, 2... ms delays. A plan splits the total across both directions.
 */
public record WholeMillisecondToxics(Direction upstream, Direction downstream)
    implements ToxicPlan {

  /** One direction's latency toxic, in Toxiproxy's whole milliseconds. */
  public record Direction(long latencyMs, long jitterMs) {

    public static final Direction NONE = new Direction(0, 0);

    public Direction {
      if (jitterMs < 0) {
        throw new IllegalArgumentException("jitter must not be negative: " + jitterMs);
      }
    }

    /** Mean delay in milliseconds, as Toxiproxy 2.5 draws it. */
    public double meanMs() {
      if (jitterMs == 0) {
        return Math.max(0, latencyMs);
      }
      long sum = 0;
      for (long u = -jitterMs; u < jitterMs; u++) {
        sum += Math.max(0, latencyMs + u);
      }
      return sum / (2.0 * jitterMs);
    }

    /** Variance of the delay, in ms²: 0 for a whole-millisecond toxic without jitter. */
    public double varianceMs2() {
      if (jitterMs == 0) {
        return 0;
      }
      double mean = meanMs();
      double sum = 0;
      for (long u = -jitterMs; u < jitterMs; u++) {
        double d = Math.max(0, latencyMs + u) - mean;
        sum += d * d;
      }
      return sum / (2.0 * jitterMs);
    }

    /** Largest delay a chunk can get, in milliseconds. */
    public long maxMs() {
      return Math.max(0, latencyMs + Math.max(0, jitterMs - 1));
    }

    public boolean delays() {
      return maxMs() > 0;
    }

    @Override
    public String toString() {
      return jitterMs == 0 ? latencyMs + "ms" : latencyMs + "ms±" + jitterMs;
    }
  }

  // fractional means mix delays of 0, 1 and 2 ms; beyond these, whole milliseconds
  private static final List<Direction> FRACTIONAL = fractionalDirections();

  @Override
  public double nominalMs() {
    return upstream.meanMs() + downstream.meanMs();
  }

  /** Variance of a round trip's added delay (one chunk each way), in ms². */
  public double varianceMs2() {
    return upstream.varianceMs2() + downstream.varianceMs2();
  }

  /**
   * The steadiest plan whose nominal mean is within 2% (at least 0.02 ms) of {@code targetMs}
   * (the closest one where none is): least variance, then closest, then the most even split
   * across both directions, then the smallest largest delay.
   */
  public static WholeMillisecondToxics closestTo(double targetMs) {
    if (targetMs <= 0) {
      return new WholeMillisecondToxics(Direction.NONE, Direction.NONE);
    }
    List<Direction> options = new ArrayList<>(FRACTIONAL);
    for (long ms = 0; ms <= Math.ceil(targetMs) + 1; ms++) {
      options.add(new Direction(ms, 0));
    }
    double slack = Math.max(0.02, 0.02 * targetMs);
    Comparator<WholeMillisecondToxics> simplest =
        Comparator.<WholeMillisecondToxics>comparingDouble(WholeMillisecondToxics::varianceMs2)
            .thenComparingDouble(p -> Math.abs(p.nominalMs() - targetMs))
            .thenComparingDouble(p -> Math.abs(p.upstream.meanMs() - p.downstream.meanMs()))
            .thenComparingLong(p -> Math.max(p.upstream.maxMs(), p.downstream.maxMs()));
    WholeMillisecondToxics closest = null;
    WholeMillisecondToxics best = null;
    for (Direction up : options) {
      for (Direction down : options) {
        WholeMillisecondToxics candidate = new WholeMillisecondToxics(up, down);
        double error = Math.abs(candidate.nominalMs() - targetMs);
        if (closest == null || error < Math.abs(closest.nominalMs() - targetMs)) {
          closest = candidate;
        }
        if (error <= slack && (best == null || simplest.compare(candidate, best) < 0)) {
          best = candidate;
        }
      }
    }
    return best != null ? best : closest;
  }

  private static List<Direction> fractionalDirections() {
    List<Direction> out = new ArrayList<>();
    for (long latency = -3; latency <= 3; latency++) {
      for (long jitter = 1; jitter <= 6; jitter++) {
        Direction d = new Direction(latency, jitter);
        if (d.delays() && d.maxMs() <= 2) {
          out.add(d);
        }
      }
    }
    return List.copyOf(out);
  }

  @Override
  public List<Toxic> toxics() {
    List<Toxic> toxics = new ArrayList<>();
    for (var d : List.of(Map.entry("upstream", upstream), Map.entry("downstream", downstream))) {
      if (d.getValue().delays()) {
        toxics.add(new Toxic(d.getKey(), "latency", Map.of("latency", d.getValue().latencyMs(),
            "jitter", d.getValue().jitterMs())));
      }
    }
    return toxics;
  }

  @Override
  public String describe() {
    return upstream + " up, " + downstream + " down";
  }

  @Override
  public String toString() {
    return "whole-ms toxics " + describe() + " (nominal mean " + nominalMs() + " ms)";
  }
}
