package io.github.latencylab.env.watch;

import io.github.latencylab.server.QueryPlan;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * The plans {@link ServerWork} read, by statement text, for the rest of a run: a text's plan is
 * read once (with the values of the first statement that sent it), not once per test, until
 * something that can change a plan went over the Lab's wire ({@code changes}: DDL, ANALYZE,
 * VACUUM, a setting the Lab changed), which empties it. A plan that moves only with a table's
 * growth is the first one read.
 */
public final class PlanCache {

  static final int KEPT = 10_000;

  private final LongSupplier changes;
  private long seen;
  private final Map<String, QueryPlan> plans = new LinkedHashMap<>(16, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, QueryPlan> eldest) {
      return size() > KEPT;
    }
  };

  /** {@code changes}: how many statements that may change a plan the Lab has seen so far. */
  public PlanCache(LongSupplier changes) {
    this.changes = changes;
    this.seen = changes.getAsLong();
  }

  synchronized QueryPlan get(String sql) {
    long now = changes.getAsLong();
    if (now != seen) {
      plans.clear();
      seen = now;
    }
    return plans.get(sql);
  }

  synchronized void put(String sql, QueryPlan plan) {
    plans.put(sql, plan);
  }

  /** Forgets every plan: a setting changed. */
  public synchronized void clear() {
    plans.clear();
  }
}
