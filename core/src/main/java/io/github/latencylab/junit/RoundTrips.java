package io.github.latencylab.junit;

import io.github.latencylab.env.Lab;
import io.github.latencylab.wire.WireCounter;
import io.github.latencylab.wire.WireStats;
import java.util.List;
import java.util.Objects;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.function.ThrowingSupplier;
import org.opentest4j.AssertionFailedError;

/**
 * Assertions on what a block of code costs at the wire: round trips and SQL statements,
 * counted on every connection of the Lab that {@link LabExtension} provides (or of the
 * counter given to {@link #on}). A failure lists the SQL that ran.
 *
 * <pre>{@code
 * List<Author> authors = RoundTrips.assertAtMost(2, () -> repository.findAll());
 * }</pre>
 *
 * <p>Counts cover everything the Lab's connections do while the block runs; run such tests
 * one at a time (JUnit's default), not in parallel with other tests on the same Lab.
 */
public final class RoundTrips {

  private final WireCounter counter;

  private RoundTrips(WireCounter counter) {
    this.counter = Objects.requireNonNull(counter, "counter");
  }

  /** Assertions on {@code counter}, e.g. {@code lab.wire(connection)} for one connection. */
  public static RoundTrips on(WireCounter counter) {
    return new RoundTrips(counter);
  }

  /** Assertions on every connection of {@code lab}. */
  public static RoundTrips on(Lab lab) {
    return new RoundTrips(lab.wire());
  }

  /** Runs {@code code}; fails if it made more than {@code max} round trips. */
  public static void assertAtMost(long max, Executable code) {
    current().atMost(max, code);
  }

  /** Runs {@code code} and returns its value; fails if it made more than {@code max}. */
  public static <T> T assertAtMost(long max, ThrowingSupplier<T> code) {
    return current().atMost(max, code);
  }

  /** Runs {@code code}; fails unless it made exactly {@code expected} round trips. */
  public static void assertExactly(long expected, Executable code) {
    current().exactly(expected, code);
  }

  /** Runs {@code code} and returns its value; fails unless it made exactly {@code expected}. */
  public static <T> T assertExactly(long expected, ThrowingSupplier<T> code) {
    return current().exactly(expected, code);
  }

  /** Runs {@code code}; fails if it executed more than {@code max} SQL statements. */
  public static void assertStatementsAtMost(long max, Executable code) {
    current().statementsAtMost(max, code);
  }

  /** Runs {@code code} and returns its value; fails if it executed more than {@code max}. */
  public static <T> T assertStatementsAtMost(long max, ThrowingSupplier<T> code) {
    return current().statementsAtMost(max, code);
  }

  /** Fails if {@code code} made more than {@code max} round trips. */
  public void atMost(long max, Executable code) {
    check(Bound.atMost(Unit.ROUND_TRIPS, max), null, asSupplier(code));
  }

  public <T> T atMost(long max, ThrowingSupplier<T> code) {
    return check(Bound.atMost(Unit.ROUND_TRIPS, max), null, code);
  }

  /** Fails unless {@code code} made exactly {@code expected} round trips. */
  public void exactly(long expected, Executable code) {
    check(Bound.exactly(Unit.ROUND_TRIPS, expected), null, asSupplier(code));
  }

  public <T> T exactly(long expected, ThrowingSupplier<T> code) {
    return check(Bound.exactly(Unit.ROUND_TRIPS, expected), null, code);
  }

  /** Fails if {@code code} executed more than {@code max} SQL statements. */
  public void statementsAtMost(long max, Executable code) {
    check(Bound.atMost(Unit.STATEMENTS, max), null, asSupplier(code));
  }

  public <T> T statementsAtMost(long max, ThrowingSupplier<T> code) {
    return check(Bound.atMost(Unit.STATEMENTS, max), null, code);
  }

  /** Fails unless {@code code} executed exactly {@code expected} SQL statements. */
  public void statementsExactly(long expected, Executable code) {
    check(Bound.exactly(Unit.STATEMENTS, expected), null, asSupplier(code));
  }

  public <T> T statementsExactly(long expected, ThrowingSupplier<T> code) {
    return check(Bound.exactly(Unit.STATEMENTS, expected), null, code);
  }

  private static RoundTrips current() {
    return new RoundTrips(LabExtension.currentLab().wire());
  }

  private static ThrowingSupplier<Void> asSupplier(Executable code) {
    Objects.requireNonNull(code, "code");
    return () -> {
      code.execute();
      return null;
    };
  }

  /** Runs {@code code} and checks every bound; {@code subject} names it in the message. */
  <T> T check(Bound bound, String subject, ThrowingSupplier<T> code) {
    return check(List.of(bound), subject, code);
  }

  <T> T check(List<Bound> bounds, String subject, ThrowingSupplier<T> code) {
    WireStats before = counter.snapshot();
    T value;
    try {
      value = code.get();
    } catch (Throwable t) {
      throw RoundTrips.<RuntimeException>rethrow(t);
    }
    WireStats cost = counter.snapshot().minus(before);
    for (Bound bound : bounds) {
      long actual = bound.unit() == Unit.ROUND_TRIPS ? cost.roundTrips() : cost.statements();
      if (!bound.accepts(actual)) {
        List<String> sql = counter.sqlSince(before);
        String message = (subject == null ? "" : subject + ": ") + "expected "
            + bound.describe() + ", but " + describe(cost, bound.unit()) + "; the SQL, read"
            + " at the wire:\n" + SqlListing.of(sql, cost.statements());
        throw new AssertionFailedError(message, bound.limit(), actual);
      }
    }
    return value;
  }

  private static String describe(WireStats cost, Unit unit) {
    return unit == Unit.ROUND_TRIPS
        ? "there were " + cost.roundTrips() + " (" + plural(cost.statements(), "SQL statement")
            + ")"
        : plural(cost.statements(), "SQL statement") + " ran (" + plural(cost.roundTrips(),
            "round trip") + ")";
  }

  static String plural(long n, String what) {
    return n + " " + what + (n == 1 ? "" : "s");
  }

  @SuppressWarnings("unchecked")
  private static <E extends Throwable> E rethrow(Throwable t) throws E {
    throw (E) t;
  }

  enum Unit {
    ROUND_TRIPS("round trip"), STATEMENTS("SQL statement");

    final String noun;

    Unit(String noun) {
      this.noun = noun;
    }
  }

  /** "at most 2 round trips", "exactly 1 SQL statement". */
  record Bound(Unit unit, long limit, boolean exact) {

    Bound {
      if (limit < 0) {
        throw new IllegalArgumentException("A bound of " + unit.noun + "s must be 0 or more,"
            + " got " + limit);
      }
    }

    static Bound atMost(Unit unit, long max) {
      return new Bound(unit, max, false);
    }

    static Bound exactly(Unit unit, long expected) {
      return new Bound(unit, expected, true);
    }

    boolean accepts(long actual) {
      return exact ? actual == limit : actual <= limit;
    }

    String describe() {
      return (exact ? "exactly " : "at most ") + plural(limit, unit.noun);
    }
  }
}
