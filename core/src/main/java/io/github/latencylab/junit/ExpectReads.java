package io.github.latencylab.junit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * How the test method (or, on a class, each of its test methods that has none of its own)
 * reads rows, read at the wire: the DataRows each statement got back in each reply.
 *
 * <p>{@link #maxRowsPerRoundTrip()} catches a read that ignores its fetch size: pgjdbc reads a
 * whole reply into memory before it returns the first row, and without a transaction it
 * ignores {@code setFetchSize} (a cursor needs one), so a large result comes back at once, on a
 * long path from a window that must grow for it. {@link #maxRoundTripsPerThousandRows()}
 * catches the opposite: a fetch size so small that every few rows cost a round trip. A failure
 * names the SQL and the line that sent it.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Inherited
@Target({ElementType.METHOD, ElementType.TYPE})
public @interface ExpectReads {

  /** At most this many rows in one reply to one statement; -1: no limit. */
  long maxRowsPerRoundTrip() default -1;

  /**
   * At most this many round trips for each 1,000 rows (or part of 1,000) one SQL statement
   * reads, its fetches added up; -1: no limit.
   */
  long maxRoundTripsPerThousandRows() default -1;
}
