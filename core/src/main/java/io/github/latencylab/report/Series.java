package io.github.latencylab.report;

import io.github.latencylab.latency.Rtt;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A row of the results: one strategy of a suite with its parameters, at any RTT. A
 * {@link Cell} is a series at one RTT.
 *
 * @param suite the suite, e.g. {@code InsertBenchmark}
 * @param strategy the benchmark method, e.g. {@code executeBatch}
 * @param params the suite's parameters other than the RTT, e.g. {@code rows=1000}
 */
public record Series(String suite, String strategy, SortedMap<String, String> params)
    implements Comparable<Series> {

  /** The parameters that give an operation's size: what a bigger cell is scaled by. */
  static final List<String> SIZES = List.of("rows", "parents");

  /** By suite, strategy, then parameters, numbers as numbers (100 before 1000). */
  private static final Comparator<Series> ORDER = Comparator.comparing(Series::suite)
      .thenComparing(Series::strategy)
      .thenComparing(Series::params, Series::compareParams);

  public Series {
    params = new TreeMap<>(params == null ? Map.of() : params);
  }

  public static Series of(String suite, String strategy, Map<String, String> params) {
    return new Series(suite, strategy, new TreeMap<>(params));
  }

  /** "InsertBenchmark.executeBatch rows=1000": the key of the row, and its name in findings. */
  public String key() {
    StringBuilder s = new StringBuilder(suite).append('.').append(strategy);
    params.forEach((k, v) -> s.append(' ').append(k).append('=').append(v));
    return s.toString();
  }

  /** "InsertBenchmark.executeBatch rows=1000 @ 20ms": its cell's key at {@code rtt}. */
  public String keyAt(Rtt rtt) {
    return key() + " @ " + rtt;
  }

  /** The value of its size parameter (rows, parents), if it has one. */
  public OptionalDouble size() {
    for (String p : SIZES) {
      if (params.containsKey(p)) {
        return OptionalDouble.of(Double.parseDouble(params.get(p)));
      }
    }
    return OptionalDouble.empty();
  }

  /** The same suite and strategy with the same parameters but for the size. */
  public boolean sameButSize(Series other) {
    if (!suite.equals(other.suite) || !strategy.equals(other.strategy)) {
      return false;
    }
    Map<String, String> a = new TreeMap<>(params);
    Map<String, String> b = new TreeMap<>(other.params);
    a.keySet().removeAll(SIZES);
    b.keySet().removeAll(SIZES);
    return a.equals(b);
  }

  @Override
  public int compareTo(Series other) {
    return ORDER.compare(this, other);
  }

  @Override
  public String toString() {
    return key();
  }

  /** Parameters by name, then value, numbers as numbers. */
  static int compareParams(Map<String, String> a, Map<String, String> b) {
    Iterator<Map.Entry<String, String>> x = byName(a).entrySet().iterator();
    Iterator<Map.Entry<String, String>> y = byName(b).entrySet().iterator();
    while (x.hasNext() && y.hasNext()) {
      Map.Entry<String, String> p = x.next();
      Map.Entry<String, String> q = y.next();
      int c = p.getKey().compareTo(q.getKey());
      if (c == 0) {
        c = compareValues(p.getValue(), q.getValue());
      }
      if (c != 0) {
        return c;
      }
    }
    return Boolean.compare(x.hasNext(), y.hasNext());
  }

  // a series' own parameters are sorted by name already: a report's sort compares thousands
  private static SortedMap<String, String> byName(Map<String, String> params) {
    return params instanceof SortedMap<String, String> sorted && sorted.comparator() == null
        ? sorted : new TreeMap<>(params);
  }

  private static int compareValues(String a, String b) {
    try {
      int c = Double.compare(Double.parseDouble(a), Double.parseDouble(b));
      return c != 0 ? c : a.compareTo(b);
    } catch (NumberFormatException e) {
      return a.compareTo(b);
    }
  }
}
