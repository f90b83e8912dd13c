package io.github.latencylab.env.watch;

import io.github.latencylab.wire.WireStatement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What the server says over one stretch of a test, read in as few round trips as it takes: at
 * the start, the sessions it has started ({@link UncountedSql}) and its statements' counters
 * ({@link ServerWork}) in one, or none where the last stretch's end left them and nothing ran
 * since ({@link StretchCarry}); at the end, after the stretch's plans (each text's read once a
 * run), the sessions again and its statements' counters in one more. Either may be absent: the
 * sessions are checked only on a database the Lab owns, the work read only where asked.
 */
public final class StretchWatch {

  private final UncountedSql uncounted;
  private final ServerWork work;
  private final StretchCarry carry;
  private final StretchCarry.Ticket ticket;
  private boolean ended;

  private StretchWatch(UncountedSql uncounted, ServerWork work, StretchCarry carry,
      StretchCarry.Ticket ticket) {
    this.uncounted = uncounted;
    this.work = work;
    this.carry = carry;
    this.ticket = ticket;
  }

  /** Starts both (either may be null, as not watched): one round trip. */
  public static StretchWatch start(UncountedSql uncounted, ServerWork work) {
    return start(uncounted, work, null);
  }

  /**
   * Starts both (either may be null), from what {@code carry} holds of the last stretch's end
   * where it may (null: always read): one round trip, or none.
   */
  public static StretchWatch start(UncountedSql uncounted, ServerWork work, StretchCarry carry) {
    StretchCarry.Ticket ticket = carry == null ? null : carry.begin();
    StretchCarry.Left left = ticket == null ? null : ticket.left();
    if (uncounted != null && left != null && left.sessions() != null) {
      uncounted.startFrom(left.sessions());
    }
    boolean workStarted = work == null
        || work.startFrom(left == null ? null : left.statements());
    List<OneTrip.Read> reads = new ArrayList<>();
    if (uncounted != null && !uncounted.started()) {
      reads.add(uncounted.startRead());
    }
    if (!workStarted) {
      work.beforeRead().ifPresent(reads::add);
    }
    if (work != null) {
      work.read(reads, "");
    } else if (uncounted != null) {
      uncounted.read(reads, "the server's clock");
    }
    if (uncounted != null && work != null && !uncounted.started()) {
      uncounted.read(List.of(uncounted.startRead()), "the server's clock");
    }
    return new StretchWatch(uncounted, work, carry, ticket);
  }

  /** What checks the server's sessions against the Lab's count, if they are checked. */
  public Optional<UncountedSql> uncounted() {
    return Optional.ofNullable(uncounted);
  }

  /** What reads the server's work, if it is read. */
  public Optional<ServerWork> work() {
    return Optional.ofNullable(work);
  }

  /**
   * The plans and work of {@code statements} ({@link ServerWork#finish}), the sessions' end
   * read in the same round trip; empty where the work is not read.
   */
  public Optional<List<ServerWork.Statement>> finish(List<WireStatement> statements) {
    if (work == null) {
      return Optional.empty();
    }
    return Optional.of(work.finish(statements, uncounted == null ? List.of()
        : List.of(uncounted.endRead())));
  }

  /**
   * Ends the stretch: the uncounted SQL it saw, if any ({@link UncountedSql#finding}, its end
   * read here unless {@link #finish} read it), and what its end read left for the next.
   */
  public Optional<String> end() {
    try {
      return uncounted == null ? Optional.empty() : uncounted.finding();
    } finally {
      close(true);
    }
  }

  /** Ends the stretch without its findings (it failed): the next one reads its own start. */
  public void abandon() {
    close(false);
  }

  private void close(boolean whole) {
    if (ended) {
      return;
    }
    ended = true;
    if (carry != null) {
      carry.end(ticket, whole && uncounted != null ? uncounted.ended() : null,
          whole && work != null ? work.left() : null);
    }
  }
}
