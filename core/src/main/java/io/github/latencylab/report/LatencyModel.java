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
 * <pre>T(L) = T0 + slope x L,   slope = R</pre>
 *
 * at an added round-trip time L (the measured one, not the setting): each round trip waits L
 * once, and T0 is everything else (the server's work, the client's, the loopback).
 *
 * <p>Fitted on every measured cell of the series it is given. With one, T0 = T - R x L. With
 * several, T0 is their least-squares mean with the slope R; and where the wire's time across
 * the measured RTTs, R x (Lmax - Lmin), is at least {@value #FIT_SLOPE_ABOVE} times T0, the
 * slope is fitted too (least squares): then it is well determined by the points (noise in
 * T0 moves it by a few percent at most), and it takes in what a round trip of this
 * operation really costs beyond the probe's L (more packets, each delayed).
 *
 * <p>A prediction far below the measured RTTs is the small difference of two large times:
 * from a run at 20 ms, a 5% error in what a round trip costs there moves T(0.5 ms) by
 * R x 1 ms. {@link #farBelow} says so, and every prediction it concerns is marked.
 */
public final class LatencyModel {

  /** The wire's share over T0 above which the slope is fitted, not taken as R. */
  static final double FIT_SLOPE_ABOVE = 10;

  private final Series series;
  private final List<Cell> points;
  private final double roundTrips;
  private final double t0Ms;
  private final double slope;
  private final boolean slopeFitted;

  private LatencyModel(Series series, List<Cell> points, double roundTrips, double t0Ms,
      double slope, boolean slopeFitted) {
    this.series = series;
    this.points = points;
    this.roundTrips = roundTrips;
    this.t0Ms = t0Ms;
    this.slope = slope;
    this.slopeFitted = slopeFitted;
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
    double roundTrips = points.stream().mapToDouble(Cell::roundTripsPerOp).sum() / n;
    double meanL = points.stream().mapToDouble(Cell::addedRttMs).sum() / n;
    double meanT = points.stream().mapToDouble(Cell::timeMs).sum() / n;
    double t0 = meanT - roundTrips * meanL; // least squares with the slope R
    double span = points.get(points.size() - 1).addedRttMs() - points.get(0).addedRttMs();
    if (points.size() > 1 && roundTrips * span >= FIT_SLOPE_ABOVE * Math.abs(t0)) {
      double sxy = 0;
      double sxx = 0;
      for (Cell c : points) {
        sxy += (c.addedRttMs() - meanL) * (c.timeMs() - meanT);
        sxx += (c.addedRttMs() - meanL) * (c.addedRttMs() - meanL);
      }
      double fitted = sxy / sxx;
      if (fitted > 0) {
        return new LatencyModel(series, points, roundTrips, meanT - fitted * meanL, fitted,
            true);
      }
    }
    return new LatencyModel(series, points, roundTrips, t0, roundTrips, false);
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
            + " statements grow with the size", Format.number(factor), smaller.key()));
  }

  /** True when {@code c} has what a fit needs: a time, round trips and the added RTT. */
  public static boolean canUse(Cell c) {
    return Double.isFinite(c.timeMs()) && Double.isFinite(c.roundTripsPerOp())
        && Double.isFinite(c.addedRttMs());
  }

  /** The model's time per operation at an added RTT of {@code addedRttMs}. */
  public double timeMs(double addedRttMs) {
    return t0Ms + slope * addedRttMs;
  }

  /**
   * True when {@code addedRttMs} lies so far below the measured RTTs that the wire time the
   * prediction takes away, slope x (Lmin - L), is more than what it keeps: then the
   * prediction is the small difference of two large times, and uncertain.
   */
  public boolean farBelow(double addedRttMs) {
    double lowest = points.get(0).addedRttMs();
    return addedRttMs < lowest && slope * (lowest - addedRttMs) > timeMs(addedRttMs);
  }

  /** This series at {@code rtt}, predicted: time from the model, counts as measured. */
  public Cell predict(Rtt rtt, double addedRttMs, double baselineRttMs) {
    Cell from = points.get(points.size() - 1);
    Cell at = new Cell(series, rtt, addedRttMs, baselineRttMs, from.timeMs(), Double.NaN,
        from.roundTripsPerOp(), from.statementsPerOp(), from.rowsPerSecond(), Map.of(),
        "predicted from " + series.strategy() + " at " + measuredAt() + ": "
            + describe(addedRttMs) + (farBelow(addedRttMs) ? " (far below the measured RTTs:"
            + " uncertain)" : ""));
    return at.withTime(timeMs(addedRttMs), Double.NaN);
  }

  /**
   * How the model gets to its time at {@code addedRttMs}: "14.000 ms + 4 round trips x
   * (20.000 - 0.500) ms" from one cell, the fit's terms from several.
   */
  public String describe(double addedRttMs) {
    if (points.size() == 1) {
      Cell p = points.get(0);
      return String.format(Locale.ROOT, "%.3f ms + %s round trips x (%.3f - %.3f) ms",
          p.timeMs(), Format.number(roundTrips), addedRttMs, p.addedRttMs());
    }
    if (slopeFitted) {
      return String.format(Locale.ROOT, "least squares over %d RTTs, %.3f ms + %.3f ms per"
          + " ms of RTT (%s round trips) x %.3f ms", points.size(), t0Ms, slope,
          Format.number(roundTrips), addedRttMs);
    }
    return String.format(Locale.ROOT, "%.3f ms (T0, the mean over %d RTTs) + %s round trips"
        + " x %.3f ms", t0Ms, points.size(), Format.number(roundTrips), addedRttMs);
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

  /** Milliseconds of time per millisecond of added RTT: the round trips, or the fitted slope. */
  public double slope() {
    return slope;
  }

  public boolean slopeFitted() {
    return slopeFitted;
  }

  public double roundTrips() {
    return roundTrips;
  }

  @Override
  public String toString() {
    return String.format(Locale.ROOT, "%s: T(L) = %.3f ms + %.3f x L (%s, from %s)", series,
        t0Ms, slope, slopeFitted ? "slope fitted" : "slope = round trips", measuredAt());
  }
}
