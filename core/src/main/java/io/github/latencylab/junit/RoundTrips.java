package io.github.latencylab.junit;

import io.github.latencylab.env.Lab;
import io.github.latencylab.env.watch.StretchWatch;
import io.github.latencylab.latency.Rtt;
import io.github.latencylab.report.Format;
import io.github.latencylab.report.LatencyModel;
import io.github.latencylab.report.Series;
import io.github.latencylab.wire.JvmWide;
import io.github.latencylab.wire.WireCounter;
import io.github.latencylab.wire.WireRead;
import io.github.latencylab.wire.WireStatement;
import io.github.latencylab.wire.WireStats;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.function.ThrowingSupplier;
import org.opentest4j.AssertionFailedError;

/**
 * Assertions on what a block of code costs at the wire: round trips, SQL statements, and their
 * price at a latency, counted on every connection of the Lab that {@link LabExtension} provides
 * (or of the counter given to {@link #on}), from every thread (a parallel stream, an executor's
 * tasks). A failure lists the SQL that ran, the statements that repeated with the line of code
 * that sent them, and what was not counted.
 *
 * <pre>{@code
 * List<Author> authors = RoundTrips.assertAtMost(2, () -> repository.findAll());
 * RoundTrips.assertCostAtMost("20ms", 150, () -> service.listAuthors());
 * }</pre>
 *
 * <p>Not counted unless asked ({@link #includingOverhead()}, {@code includeOverhead = true} on
 * the annotations): connection set-up, validation, pool and driver housekeeping ({@link
 * io.github.latencylab.wire.Overhead}), so that a pool's timing cannot change a count.
 *
 * <p>A block counts what its own threads send ({@link io.github.latencylab.wire.WireScope}):
 * the block's thread, the threads it starts, and, while no other test counts at the same time,
 * every thread no test owns (a pool's, an HTTP server's). Tests run in parallel (JUnit's
 * parallel mode) keep exact counts without taking turns; what a thread no test owns sends
 * while several count is counted to none of them, and each says so in one line. Blocks nest.
 */
public final class RoundTrips {

  // the class path's copy, where a framework loaded this one again (null where this is it)
  private static final Class<?> ROOT = JvmWide.rootCopy(RoundTrips.class).orElse(null);

  private final WireCounter counter;
  private final Rtt measuredAt;
  private final boolean includeOverhead;
  private final Lab lab; // whose server's sessions are checked against the count, if any

  private RoundTrips(WireCounter counter, Rtt measuredAt, boolean includeOverhead, Lab lab) {
    this.counter = Objects.requireNonNull(counter, "counter");
    this.measuredAt = measuredAt;
    this.includeOverhead = includeOverhead;
    this.lab = lab;
  }

  /** Assertions on {@code counter}, e.g. {@code lab.wire(connection)} for one connection. */
  public static RoundTrips on(WireCounter counter) {
    return new RoundTrips(counter, Rtt.ZERO, false, null);
  }

  /**
   * Assertions on every connection of {@code lab}; SQL that reaches its database on a
   * connection it did not count fails them ({@link Lab#watchUncounted()}).
   */
  public static RoundTrips on(Lab lab) {
    return new RoundTrips(lab.wire(), lab.rtt(), false, lab);
  }

  /** These assertions, counting connection set-up, validation and housekeeping too. */
  public RoundTrips includingOverhead() {
    return new RoundTrips(counter, measuredAt, true, lab);
  }

  /** Runs {@code code}; fails if it made more than {@code max} round trips. */
  public static void assertAtMost(long max, Executable code) {
    if (ROOT != null) {
      inRoot("assertAtMost", new Class<?>[] {long.class, Executable.class}, max, code);
      return;
    }
    current().atMost(max, code);
  }

  /** Runs {@code code} and returns its value; fails if it made more than {@code max}. */
  public static <T> T assertAtMost(long max, ThrowingSupplier<T> code) {
    if (ROOT != null) {
      return inRoot("assertAtMost", new Class<?>[] {long.class, ThrowingSupplier.class}, max,
          code);
    }
    return current().atMost(max, code);
  }

  /** Runs {@code code}; fails unless it made exactly {@code expected} round trips. */
  public static void assertExactly(long expected, Executable code) {
    if (ROOT != null) {
      inRoot("assertExactly", new Class<?>[] {long.class, Executable.class}, expected, code);
      return;
    }
    current().exactly(expected, code);
  }

  /** Runs {@code code} and returns its value; fails unless it made exactly {@code expected}. */
  public static <T> T assertExactly(long expected, ThrowingSupplier<T> code) {
    if (ROOT != null) {
      return inRoot("assertExactly", new Class<?>[] {long.class, ThrowingSupplier.class},
          expected, code);
    }
    return current().exactly(expected, code);
  }

  /** Runs {@code code}; fails if it executed more than {@code max} SQL statements. */
  public static void assertStatementsAtMost(long max, Executable code) {
    if (ROOT != null) {
      inRoot("assertStatementsAtMost", new Class<?>[] {long.class, Executable.class}, max,
          code);
      return;
    }
    current().statementsAtMost(max, code);
  }

  /** Runs {@code code} and returns its value; fails if it executed more than {@code max}. */
  public static <T> T assertStatementsAtMost(long max, ThrowingSupplier<T> code) {
    if (ROOT != null) {
      return inRoot("assertStatementsAtMost",
          new Class<?>[] {long.class, ThrowingSupplier.class}, max, code);
    }
    return current().statementsAtMost(max, code);
  }

  /**
   * Runs {@code code}; fails if, priced at {@code rtt} ("20ms"), it costs more than {@code
   * maxMillis}: its round trips x {@code rtt} plus what it waited on the server, its own time
   * not included ({@link ExpectWireCost}).
   */
  public static void assertCostAtMost(String rtt, double maxMillis, Executable code) {
    if (ROOT != null) {
      inRoot("assertCostAtMost", new Class<?>[] {String.class, double.class, Executable.class},
          rtt, maxMillis, code);
      return;
    }
    current().costAtMost(Rtt.parse(rtt), maxMillis, code);
  }

  /** The same, returning the block's value. */
  public static <T> T assertCostAtMost(String rtt, double maxMillis, ThrowingSupplier<T> code) {
    if (ROOT != null) {
      return inRoot("assertCostAtMost",
          new Class<?>[] {String.class, double.class, ThrowingSupplier.class}, rtt, maxMillis,
          code);
    }
    return current().costAtMost(Rtt.parse(rtt), maxMillis, code);
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

  /** Fails if {@code code}, priced at {@code rtt}, costs more than {@code maxMillis}. */
  public void costAtMost(Rtt rtt, double maxMillis, Executable code) {
    costAtMost(rtt, maxMillis, asSupplier(code));
  }

  public <T> T costAtMost(Rtt rtt, double maxMillis, ThrowingSupplier<T> code) {
    return check(new Spec(List.of(), new Cost(rtt, maxMillis), includeOverhead), null,
        (Recording) null, code);
  }

  private static RoundTrips current() {
    return on(LabExtension.currentLab());
  }

  /**
   * The same assertion in the copy of latency-lab on the class path, where a framework loaded
   * this one again (a {@code @QuarkusTest} class's): that copy keeps the run's Lab, and JUnit's
   * types are the same in both.
   */
  private static <T> T inRoot(String method, Class<?>[] types, Object... args) {
    return JvmWide.inRootCopy(RoundTrips.class, method, types, args);
  }

  private static ThrowingSupplier<Void> asSupplier(Executable code) {
    Objects.requireNonNull(code, "code");
    return () -> {
      code.execute();
      return null;
    };
  }

  private <T> T check(Bound bound, String subject, ThrowingSupplier<T> code) {
    return check(new Spec(List.of(bound), null, includeOverhead), subject, (Recording) null,
        code);
  }

  /**
   * What a counted block's cost goes to beyond its budget (the report): {@code cost} takes it;
   * {@code uncounted}, where given, takes SQL the Lab did not count (one line) instead of a
   * failure, and nothing is recorded then; {@code work}: the server's plans and work are read
   * for it (the report's, not an audit's alone).
   */
  record Recording(Consumer<BlockCost> cost, Consumer<String> uncounted, boolean work) {
  }

  /**
   * Runs {@code code}, counted, then hands what it cost to {@code recording} (if any) and
   * checks {@code spec}; {@code subject} names the block in the message.
   */
  <T> T check(Spec spec, String subject, Recording recording, ThrowingSupplier<T> code) {
    Consumer<BlockCost> recorder = recording == null ? null : recording.cost();
    Consumer<String> uncountedSink = recording == null ? null : recording.uncounted();
    // the server's sessions, and its plans and work for the report and a work budget (not
    // every assertion): read at the start and at the end, one round trip each (the start none
    // where the last stretch's end left it and nothing ran since)
    Optional<StretchWatch> watch = lab == null ? Optional.empty()
        : Optional.of(lab.watchStretch(recorder != null && recording.work()
            || spec.work() != null));
    BlockCost.Measured<T> measured;
    try {
      measured = BlockCost.run(counter, measuredAt, spec.includeOverhead(),
          watch.orElse(null), recorder != null || spec.work() != null, code);
    } catch (Throwable t) {
      watch.ifPresent(StretchWatch::abandon);
      throw RoundTrips.<RuntimeException>rethrow(t);
    }
    String prefix = subject == null ? "" : subject + ": ";
    // a count that missed the application's connections proves nothing, within budget or not
    Optional<String> uncounted = watch.flatMap(StretchWatch::end);
    if (uncounted.isPresent()) {
      if (uncountedSink == null) {
        throw new AssertionFailedError(prefix + uncounted.get());
      }
      uncountedSink.accept(uncounted.get());
      return measured.value();
    }
    BlockCost m = measured.cost();
    if (m.unattributed != null) {
      System.out.println("latency-lab: " + prefix + m.unattributed);
    }
    if (recorder != null) {
      recorder.accept(m);
    }
    WireStats cost = m.counted();
    for (Bound bound : spec.bounds()) {
      long actual = bound.unit() == Unit.ROUND_TRIPS ? cost.roundTrips() : cost.statements();
      if (!bound.accepts(actual)) {
        String message = prefix + "expected " + bound.describe() + ", but "
            + describe(cost, bound.unit()) + "; the SQL, read at the wire:\n"
            + details(m);
        throw new AssertionFailedError(message, bound.limit(), actual);
      }
    }
    if (spec.reads() != null) {
      String violation = spec.reads().violation(m.countedReads());
      if (violation != null) {
        throw new AssertionFailedError(prefix + violation + "\nthe SQL, read at the wire:\n"
            + details(m));
      }
    }
    if (spec.work() != null) {
      String violation = spec.work().violation(m);
      if (violation != null) {
        throw new AssertionFailedError(prefix + violation);
      }
    }
    if (spec.cost() != null) {
      Cost c = spec.cost();
      LatencyModel model = m.model(Series.of("block", subject == null ? "block" : subject,
          Map.of()));
      double priced = model.timeMs(c.rtt().millis());
      if (priced > c.maxMillis()) {
        String message = prefix + String.format(Locale.ROOT, "expected a wire cost of at most"
            + " %s at %s, but it is %s%n  %s%n  priced %s%nthe SQL, read at the wire:%n%s",
            Format.duration(c.maxMillis()), c.rtt(), m.priceLine(model, c.rtt()),
            m.countsLine(), m.pricedLine(model), details(m));
        throw new AssertionFailedError(message, c.maxMillis(), priced);
      }
    }
    return measured.value();
  }

  /** The listing of the statements that count, the repeated shapes, the overhead. */
  static String details(BlockCost m) {
    List<WireStatement> counted = m.countedStatements();
    List<String> sql = new ArrayList<>(counted.size());
    counted.forEach(s -> sql.add(s.sql()));
    return SqlListing.of(sql, m.counted().statements()) + Repeats.section(counted)
        + m.overheadLine() + (m.unattributed == null ? "" : "not counted: " + m.unattributed
        + "\n");
  }

  private static String describe(WireStats cost, Unit unit) {
    return unit == Unit.ROUND_TRIPS
        ? "there were " + cost.roundTrips() + " (" + plural(cost.statements(), "SQL statement")
            + ")"
        : plural(cost.statements(), "SQL statement") + " ran (" + plural(cost.roundTrips(),
            "round trip") + ")";
  }

  static String plural(long n, String what) {
    return Format.count(n) + " " + what + (n == 1 ? "" : "s");
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

  /** What a counted block must respect: bounds on counts, a price, overhead counted or not. */
  record Spec(List<Bound> bounds, Cost cost, boolean includeOverhead, Reads reads,
      WorkBudget work) {

    Spec(List<Bound> bounds, Cost cost, boolean includeOverhead) {
      this(bounds, cost, includeOverhead, null, null);
    }

    boolean isEmpty() {
      return bounds.isEmpty() && cost == null && reads == null && work == null;
    }
  }

  /** {@link ExpectReads}' limits; -1: none. */
  record Reads(long maxRowsPerRoundTrip, long maxRoundTripsPerThousandRows) {

    /** The first read that breaks a limit, said with its SQL and call site; null if none. */
    String violation(List<WireRead> reads) {
      for (WireRead r : reads) {
        if (maxRowsPerRoundTrip >= 0 && r.rows() > maxRowsPerRoundTrip) {
          return "expected at most " + Format.count(maxRowsPerRoundTrip) + " rows per round"
              + " trip, but " + sent(r.statement()) + " got " + Format.count(r.rows())
              + " rows in one reply. pgjdbc holds a whole reply in memory before it returns"
              + " the first row, and without a transaction it ignores setFetchSize: read it in"
              + " a transaction (setAutoCommit(false)) with setFetchSize("
              + Format.count(maxRowsPerRoundTrip).replace(",", "") + ") or the connection"
              + " property defaultRowFetchSize: a cursor, a round trip per that many rows";
        }
      }
      if (maxRoundTripsPerThousandRows >= 0) {
        Map<String, List<WireRead>> bySql = new LinkedHashMap<>();
        reads.forEach(r -> bySql.computeIfAbsent(r.statement().sql(), k -> new ArrayList<>())
            .add(r));
        for (List<WireRead> same : bySql.values()) {
          long rows = same.stream().mapToLong(WireRead::rows).sum();
          long trips = same.stream().map(r -> r.statement().connection() + ":"
              + r.statement().roundTrip()).distinct().count();
          long thousands = Math.max(1, (rows + 999) / 1000);
          if (trips > maxRoundTripsPerThousandRows * thousands) {
            return "expected at most " + Format.count(maxRoundTripsPerThousandRows)
                + " round trips per 1,000 rows, but " + sent(same.get(0).statement())
                + " read " + Format.count(rows) + " rows in " + plural(trips, "round trip")
                + ", about " + Format.count(rows / trips) + " a round trip: its fetch size is"
                + " that small; raise it (setFetchSize(1000) reads 1,000 rows a round trip)";
          }
        }
      }
      return null;
    }

    private static String sent(WireStatement s) {
      return "`" + s.sql() + "`" + (s.callSite() == null ? "" : " from `" + s.callSite() + "`");
    }
  }

  /** At most {@code maxMillis} priced at {@code rtt}. */
  record Cost(Rtt rtt, double maxMillis) {

    Cost {
      if (!(maxMillis >= 0) || Double.isInfinite(maxMillis)) {
        throw new IllegalArgumentException("A wire cost's maxMillis must be a finite number of"
            + " milliseconds, 0 or more, got " + maxMillis);
      }
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
