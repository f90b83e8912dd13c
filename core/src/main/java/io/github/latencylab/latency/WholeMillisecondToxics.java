package io.github.latencylab.latency;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The two Toxiproxy latency toxics (client to server, server to client) that make one RTT.
 *
 * <p>Toxiproxy delays each chunk by {@code latency + U} whole milliseconds, U uniform in
 * {@code [-jitter, jitter - 1]}, and a delay of zero or less passes the chunk at once. So a
 * direction's mean delay is {@code E[max(0, latency + U)]}: with latency 1 and jitter 1 half
 * the chunks wait 1 ms and half none, 0.5 ms on average. Whole milliseconds need no jitter;
 * fractions mix 0, 1, 2... ms delays. A plan splits the total across both directions.
 */
public record ToxicPlan(Direction upstream, Direction downstream) {

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

  public static final ToxicPlan NONE = new ToxicPlan(Direction.NONE, Direction.NONE);

  // fractional means mix delays of 0, 1 and 2 ms; beyond these, whole milliseconds
  private static final List<Direction> FRACTIONAL = fractionalDirections();

  public double meanMs() {
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
  public static ToxicPlan closestTo(double targetMs) {
    if (targetMs <= 0) {
      return NONE;
    }
    List<Direction> options = new ArrayList<>(FRACTIONAL);
    for (long ms = 0; ms <= Math.ceil(targetMs) + 1; ms++) {
      options.add(new Direction(ms, 0));
    }
    double slack = Math.max(0.02, 0.02 * targetMs);
    Comparator<ToxicPlan> simplest =
        Comparator.<ToxicPlan>comparingDouble(ToxicPlan::varianceMs2)
            .thenComparingDouble(p -> Math.abs(p.meanMs() - targetMs))
            .thenComparingDouble(p -> Math.abs(p.upstream.meanMs() - p.downstream.meanMs()))
            .thenComparingLong(p -> Math.max(p.upstream.maxMs(), p.downstream.maxMs()));
    ToxicPlan closest = null;
    ToxicPlan best = null;
    for (Direction up : options) {
      for (Direction down : options) {
        ToxicPlan candidate = new ToxicPlan(up, down);
        double error = Math.abs(candidate.meanMs() - targetMs);
        if (closest == null || error < Math.abs(closest.meanMs() - targetMs)) {
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
  public String toString() {
    return "up " + upstream + " / down " + downstream + " (mean " + meanMs() + " ms)";
  }
}
