package io.github.latencylab.demo;

import io.github.latencylab.wire.WireStats;
import java.util.List;
import java.util.Locale;

/**
 * One run of a strategy in a read-only transaction, read at the wire: what it returned, the
 * round trips and statements (both including the transaction's BEGIN and COMMIT), every
 * statement's SQL, and how long it took.
 *
 * @param wire round trips, statements and bytes on the session's connection, transaction
 *     control included: BEGIN rides along with the first query, COMMIT is a round trip
 * @param sql every statement executed, oldest first, BEGIN and COMMIT included
 * @param nanos from opening the session to closing it after the commit
 */
public record StrategyRun(NPlusOneStrategy strategy, int n, List<? extends Listing> result,
    WireStats wire, List<String> sql, long nanos) {

  public StrategyRun {
    result = List.copyOf(result);
    sql = List.copyOf(sql);
  }

  /** Round trips on the wire, everything included (the COMMIT is one). */
  public long roundTrips() {
    return wire.roundTrips();
  }

  /** The SQL statements the strategy ran: {@link #sql()} without transaction control. */
  public List<String> queries() {
    return sql.stream().filter(s -> !isTransactionControl(s)).toList();
  }

  /** How many SQL statements the strategy ran, transaction control excluded. */
  public long statements() {
    return queries().size();
  }

  public double millis() {
    return nanos / 1e6;
  }

  /** BEGIN, START TRANSACTION, COMMIT, ROLLBACK, END, SAVEPOINT, RELEASE. */
  public static boolean isTransactionControl(String sql) {
    String s = sql.stripLeading().toUpperCase(Locale.ROOT);
    return s.startsWith("BEGIN") || s.startsWith("START TRANSACTION") || s.startsWith("COMMIT")
        || s.startsWith("ROLLBACK") || s.startsWith("END") || s.startsWith("SAVEPOINT")
        || s.startsWith("RELEASE");
  }

  @Override
  public String toString() {
    return String.format(Locale.ROOT, "%s(n=%d): %d SQL statements, %d round trips, %.1f ms",
        strategy.label(), n, statements(), roundTrips(), millis());
  }
}
