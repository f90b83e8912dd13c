package io.github.latencylab.env.watch;

import io.github.latencylab.wire.WireStatement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What the server says over one stretch of a test, read in as few round trips as it takes: at
 * the start, the sessions it has started ({@link UncountedSql}) and its statements' counters
 * ({@link ServerWork}) in one; at the end, after the stretch's plans (each text's read once a
 * run), the sessions again and its statements' counters in one more. Either may be absent: the
 * sessions are checked only on a database the Lab owns, the work read only where asked.
 */
public final class StretchWatch {

  private final UncountedSql uncounted;
  private final ServerWork work;

  private StretchWatch(UncountedSql uncounted, ServerWork work) {
    this.uncounted = uncounted;
    this.work = work;
  }

  /** Starts both (either may be null, as not watched): one round trip. */
  public static StretchWatch start(UncountedSql uncounted, ServerWork work) {
    List<OneTrip.Read> reads = new ArrayList<>();
    if (uncounted != null) {
      reads.add(uncounted.startRead());
    }
    if (work != null) {
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
    return new StretchWatch(uncounted, work);
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
}
