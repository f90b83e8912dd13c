package io.github.latencylab.bench.runner;

import io.github.latencylab.bench.runner.BenchCommand.Planned;
import io.github.latencylab.latency.Rtt;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The progress line's "~4 min left": each cell's estimate as {@link Shard} weighs it (its
 * forks' start and iterations; nothing for a cell the budget predicts whatever it measures),
 * in the order the run goes (RTT by RTT, the plan's order at each), scaled by how long the
 * cells measured so far took against their estimates: a fork's setup and an operation's own
 * time are unknown before they run. A cell the runner predicted after all (over the budget)
 * leaves both sums. The caller gives the elapsed time, so nothing here reads a clock.
 */
final class TimeLeft {

  private final List<Long> estimates = new ArrayList<>();
  private long left;
  private long measuredEstimate;
  private int done;

  TimeLeft(List<Planned> plan, List<Rtt> sweep, Profile.Budget budget) {
    for (int i = 0; i < sweep.size(); i++) {
      for (Planned p : plan) {
        long ms = Shard.cellMs(p, sweep.get(i), i == 0, budget, Map.of());
        estimates.add(ms);
        left += ms;
      }
    }
  }

  /** The plan's estimate of the whole run, before anything ran. */
  long plannedMs() {
    return estimates.stream().mapToLong(Long::longValue).sum();
  }

  /** The cells the plan expects to measure (the budget may still predict a witness). */
  long plannedCells() {
    return estimates.stream().filter(ms -> ms > 0).count();
  }

  /** The next cell is done: {@code measured}, or predicted by the model (no fork). */
  void step(boolean measured) {
    long ms = estimates.get(done++);
    left -= ms;
    if (measured) {
      measuredEstimate += ms;
    }
  }

  /**
   * What is left after {@code elapsedMs} of the run: the estimates of the cells to come,
   * times how long the measured ones took against theirs (the plan's own estimate until one
   * is measured).
   */
  long leftMs(long elapsedMs) {
    double scale = measuredEstimate == 0 ? 1 : (double) elapsedMs / measuredEstimate;
    return Math.round(left * scale);
  }

  /** " (~4 min left)", or " (~40 s left)" near the end, for the progress line. */
  String describe(long elapsedMs) {
    long ms = leftMs(elapsedMs);
    return ms >= 90_000
        ? String.format(Locale.ROOT, " (~%d min left)", Math.round(ms / 60_000.0))
        : String.format(Locale.ROOT, " (~%d s left)", Math.round(ms / 1000.0));
  }

  /** "~4.0 min": the plan's estimate, for the run's first line and --list. */
  static String minutes(long ms) {
    return String.format(Locale.ROOT, "~%.1f min", ms / 60_000.0);
  }
}
