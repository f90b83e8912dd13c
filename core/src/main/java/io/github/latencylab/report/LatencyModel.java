package io.github.latencylab.report;

import io.github.latencylab.latency.Rtt;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The time model of one series: an operation that makes R round trips takes about
 *
 * <pre>T(L) = T0 + (R + W) x L</pre>
 *
 * at an added round-trip time L (the measured one, not the setting): each round trip waits L
 * once, and T0 is everything else (the server's work, the client's, the loopback). W is the
 * flights its transfers need beyond their first while the path's TCP window grows (the link's
 * slow start, and bytes / window at its cap: both a number of RTTs, so both scale with L),
 * counted from the bytes of each request and reply ({@code Cell.windowRoundTripsPerOp}; 0 on
 * a bare delay).
 *
 * <p>Fitted on every measured cell of the series it is given: T0 is their least-squares
 * value with the slope R, the counted round trips (with one cell, T0 = T - R x L). The
 * least-squares slope the cells themselves give ({@link #fittedSlope()}, with two RTTs or more)
 * says how far a round trip's cost strays from the measured L; predictions keep R. On the full
 * sweep (docs/results/full.md: 53 series measured at 0.5, 20 and 320 ms) the fitted slope
 * predicted 320 ms from 0.5 and 20 ms with a median error of 6.6% (4.7% where the wire
 * dominates), the slope R with 0.85% (0.54%): with calibrated toxics each round trip does cost
 * the measured L, and a free slope mostly fits the noise of the low-RTT times.
 *
 * <p>A prediction far below the measured RTTs is the small difference of two large times:
 * from a run at 20 ms, a 5% error in what a round trip costs there moves T(0.5 ms) by
 * R x 1 ms. {@link #farBelow} says so, and every prediction it concerns is marked.
 */
public final class LatencyModel {

  private final Series series;
  private final List<Cell> points;
  private final double roundTrips;
  private final double windowRoundTrips;
  private final double t0Ms;
  private final double fittedSlope;

  private LatencyModel(Series series, List<Cell> points, double roundTrips,
      double windowRoundTrips, double t0Ms, double fittedSlope) {
    this.series = series;
    this.points = points;
    this.roundTrips = roundTrips;
    this.windowRoundTrips = windowRoundTrips;
    this.t0Ms = t0Ms;
    this.fittedSlope = fittedSlope;
  }

  /**
   * The model fitted on {@code measured}: measured cells of one series with a time and round
   * trips, at least one.
   */
  public static LatencyModel fit(Collection<Cell> measured) {
    List<Cell> points = measured.stream()
        .sorted(Comparator.comparingDouble(Cell::addedRttMs)).toList();
    if (points.isEmpty()) {
      throw new IllegalArgumentException("No measured cell to fit the model on");
    }
    Series series = points.get(0).series();
    for (Cell c : points) {
      if (c.predicted() || !canUse(c) || !c.series().equals(series)) {
        throw new IllegalArgumentException("Cannot fit the model of " + series + " on " + c
            + ": only measured cells of that series with a time and round trips");
      }
    }
    double n = points.size();
    double roundTrips = points.stream().mapToDouble(Cell::rttsPerOp).sum() / n;
    double windowRoundTrips = roundTrips
        - points.stream().mapToDouble(Cell::roundTripsPerOp).sum() / n;
    double meanL = points.stream().mapToDouble(Cell::addedRttMs).sum() / n;
    double meanT = points.stream().mapToDouble(Cell::timeMs).sum() / n;
    double sxx = 0;
    double sxy = 0;
    for (Cell c : points) {
      sxy += (c.addedRttMs() - meanL) * (c.timeMs() - meanT);
      sxx += (c.addedRttMs() - meanL) * (c.addedRttMs() - meanL);
    }
    // least squares of T0 with the slope R; of T0 and the slope, for what the cells say
    return new LatencyModel(series, points, roundTrips, windowRoundTrips,
        meanT - roundTrips * meanL,
        sxx > 0 ? sxy / sxx : Double.NaN);
  }

  /**
   * The model check of every measured cell that has measured cells below it (lower RTTs) in
   * its series: the model fitted on those, by the cell's key. A cell well above its model
   * took time its round trips do not explain.
   */
  public static Map<String, LatencyModel> fromBelow(Collection<Cell> cells) {
    Map<Series, List<Cell>> bySeries = cells.stream().filter(c -> !c.predicted() && canUse(c))
        .collect(Collectors.groupingBy(Cell::series, TreeMap::new, Collectors.toList()));
    Map<String, LatencyModel> models = new LinkedHashMap<>();
    bySeries.values().forEach(series -> {
      series.sort(Cell.ORDER);
      for (int i = 1; i < series.size(); i++) {
        models.put(series.get(i).key(), fit(series.subList(0, i)));
      }
    });
    return models;
  }

  /**
   * {@code smaller}'s cell scaled to {@code bigger}'s size: time, round trips and statements
   * grow with the size, rows per second stay. An estimate for a cell that nothing of its own
   * series could measure in time.
   */
  public static Cell scale(Cell smaller, Series bigger) {
    double factor = bigger.size().orElseThrow() / smaller.series().size().orElseThrow();
    return new Cell(bigger, smaller.rtt(), smaller.addedRttMs(), smaller.baselineRttMs(),
        smaller.timeMs() * factor, Double.NaN, smaller.roundTripsPerOp() * factor,
        smaller.statementsPerOp() * factor, smaller.rowsPerSecond(), Map.of(),
        String.format(Locale.ROOT, "predicted by scaling x%s from %s: time, round trips and"
            + " statements grow with the size", Format.number(factor), smaller.key()),
        smaller.windowRoundTripsPerOp() * factor, null);
  }

  /** True when {@code c} has what a fit needs: a time, round trips and the added RTT. */
  public static boolean canUse(Cell c) {
    return Double.isFinite(c.timeMs()) && Double.isFinite(c.roundTripsPerOp())
        && Double.isFinite(c.addedRttMs());
  }

  /** The model's time per operation at an added RTT of {@code addedRttMs}. */
  public double timeMs(double addedRttMs) {
    return t0Ms + roundTrips * addedRttMs;
  }

  /**
   * True when {@code addedRttMs} lies so far below the measured RTTs that the wire time the
   * prediction takes away, R x (Lmin - L), is more than what it keeps: then the
   * prediction is the small difference of two large times, and uncertain.
   */
  public boolean farBelow(double addedRttMs) {
    double lowest = points.get(0).addedRttMs();
    return addedRttMs < lowest && roundTrips * (lowest - addedRttMs) > timeMs(addedRttMs);
  }

  /**
   * This series at {@code rtt}, predicted: time from the model; counts and server counters
   * per operation (they do not depend on the RTT) as measured at the highest RTT.
   */
  public Cell predict(Rtt rtt, double addedRttMs, double baselineRttMs) {
    Cell from = points.get(points.size() - 1);
    Cell at = new Cell(series, rtt, addedRttMs, baselineRttMs, from.timeMs(), Double.NaN,
        from.roundTripsPerOp(), from.statementsPerOp(), from.rowsPerSecond(), from.server(),
        "predicted from " + series.strategy() + " at " + measuredAt() + ": "
            + describe(addedRttMs) + (farBelow(addedRttMs) ? " (far below the measured RTTs:"
            + " uncertain)" : ""), from.windowRoundTripsPerOp(), null);
    return at.withTime(timeMs(addedRttMs), Double.NaN);
  }

  /**
   * How the model gets to its time at {@code addedRttMs}: "14.000 ms + 4 round trips x
   * (20.000 - 0.500) ms" from one cell, T0's least-squares value from several.
   */
  public String describe(double addedRttMs) {
    if (points.size() == 1) {
      Cell p = points.get(0);
      return Format.plain(p.timeMs(), 3) + " ms + " + paidRtts() + " x ("
          + Format.plain(addedRttMs, 3) + " - " + Format.plain(p.addedRttMs(), 3) + ") ms";
    }
    return Format.plain(t0Ms, 3) + " ms (T0, least squares over " + points.size() + " RTTs) + "
        + paidRtts() + " x " + Format.plain(addedRttMs, 3) + " ms";
  }

  // "4 round trips", or "1 round trip + 5 window flights" where the window made transfers wait
  private String paidRtts() {
    if (windowRoundTrips < 0.005) {
      return Format.number(roundTrips) + " round trips";
    }
    return Format.number(roundTrips - windowRoundTrips) + " round trips + "
        + Format.number(windowRoundTrips) + " window flights";
  }

  /** "0.5ms, 20ms": the RTTs the model was fitted on. */
  public String measuredAt() {
    return points.stream().map(c -> c.rtt().toString()).collect(Collectors.joining(", "));
  }

  /** The RTT settings of the cells it was fitted on, lowest first. */
  public List<Rtt> rtts() {
    List<Rtt> rtts = new ArrayList<>();
    points.forEach(c -> rtts.add(c.rtt()));
    return rtts;
  }

  public Series series() {
    return series;
  }

  /** T(0): the time of an operation without added latency. */
  public double t0Ms() {
    return t0Ms;
  }

  /**
   * The least-squares slope of time against the added RTT over the cells (ms per ms): what
   * each round trip of this operation cost beyond the probe's L when it strays from R; NaN
   * with fewer than two RTTs. Predictions use R (see the class comment for why).
   */
  public double fittedSlope() {
    return fittedSlope;
  }

  /** The RTTs an operation pays, R + W: round trips and window flights. */
  public double roundTrips() {
    return roundTrips;
  }

  /** W: the window flights among {@link #roundTrips()}. */
  public double windowRoundTrips() {
    return windowRoundTrips;
  }

  @Override
  public String toString() {
    return String.format(Locale.ROOT, "%s: T(L) = %.3f ms + %s x L (from %s)", series, t0Ms,
        Format.number(roundTrips), measuredAt());
  }
}
