package io.github.latencylab.env.watch;

import io.github.latencylab.server.StatementStatistics;
import io.github.latencylab.wire.TestsRunning;
import java.util.function.LongSupplier;

/**
 * What one stretch's end read leaves for the next stretch's start, so that a suite of tests pays
 * one round trip per test, not two: the server's clock and sessions at the end, and the
 * statements' counters as read then. The next stretch starts from them instead of reading them
 * again, but only where nothing could have moved them meanwhile: no round trip, statement or
 * session on any connection the Lab counts (its {@code mark}), no other stretch open at either
 * time (in JUnit's parallel mode every stretch reads its own start), no test begun meanwhile but
 * the next stretch's own (so that what ran between is that test's or its set-up's: a test
 * between, on a connection this Lab does not count, is no budget's), and not long ago: the
 * server counts a session in pg_stat_database when its process flushes its statistics (as it
 * ends, or after seconds idle), so a gap with no traffic can still see a pool's connection of
 * long ago counted; the next test of a suite of short ones starts within milliseconds.
 */
public final class StretchCarry {

  /** How long what a stretch left stays usable. */
  static final long MAX_AGE_NANOS = 100_000_000L;

  private final LongSupplier mark;
  private long generation;
  private int open;
  private Left left;
  private long leftAtMark;
  private long leftAtNanos;
  private long leftAtTests;

  /** @param mark a sum of the Lab's counters that any traffic on its connections raises */
  public StretchCarry(LongSupplier mark) {
    this.mark = mark;
  }

  /** What the last stretch left: either part may be null, as not read. */
  record Left(UncountedSql.Ended sessions, StatementStatistics statements) {
  }

  /** One stretch's hold: what it may start from (null: read it), and whether it ran alone. */
  record Ticket(long generation, boolean alone, Left left) {
  }

  synchronized Ticket begin() {
    boolean alone = open == 0;
    Left usable = alone && left != null && leftAtMark == mark.getAsLong()
        && System.nanoTime() - leftAtNanos < MAX_AGE_NANOS
        && TestsRunning.started() - leftAtTests <= 1 ? left : null;
    left = null;
    open++;
    generation++;
    return new Ticket(generation, alone, usable);
  }

  /**
   * Ends {@code ticket}'s stretch, keeping what its end read for the next when it ran alone
   * ({@code sessions} and {@code statements} null where not read, or not whole).
   */
  synchronized void end(Ticket ticket, UncountedSql.Ended sessions,
      StatementStatistics statements) {
    open--;
    boolean alone = ticket.alone() && ticket.generation() == generation && open == 0;
    left = alone && (sessions != null || statements != null) ? new Left(sessions, statements)
        : null;
    leftAtMark = left == null ? 0 : mark.getAsLong();
    leftAtNanos = System.nanoTime();
    leftAtTests = TestsRunning.started();
  }
}
