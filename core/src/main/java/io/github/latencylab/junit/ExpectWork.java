package io.github.latencylab.junit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * What the test method (or, on a class, each of its test methods that has none of its own) may
 * make the database and the client do, counted, so that a budget does not depend on how loaded
 * the machine is: the rows and their bytes at the wire, the server's work per statement
 * (pg_stat_statements, read on the Lab's own connection: shared buffers touched, WAL and temp
 * bytes written), the plans the server chose, and the bytes the test's thread allocated. Each
 * limit is -1 (none) unless set; a failure names the statements that did the most, with their
 * plans and call sites.
 *
 * <pre>{@code
 * @Test
 * @ExpectWork(noSeqScanOver = 10_000, maxBlocks = 200) // lookups by an index, not a scan
 * void findsOwnersByLastName() { ... }
 * }</pre>
 *
 * <p>The server's counters need pg_stat_statements (preloaded in the Lab's own servers; on an
 * external database, where it is loaded and created): a limit on them fails, never passes,
 * where they cannot be read. Plans follow the table statistics: a plan over a table of a few rows
 * means little, so give the test representative row counts and ANALYZE after loading them
 * (docs/reading-results.md).
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Inherited
@Target({ElementType.METHOD, ElementType.TYPE})
public @interface ExpectWork {

  /** At most this many rows returned to the client, counted at the wire. */
  long maxRows() default -1;

  /**
   * At most this many bytes of rows received from the server (their DataRow messages, counted
   * at the wire, in the format the driver asked for: pgjdbc reads a statement it prepared in
   * binary, which can be more or fewer bytes than text).
   */
  long maxRowBytes() default -1;

  /** At most this many shared buffers (8 kB blocks) touched by the statements, hit or read. */
  long maxBlocks() default -1;

  /** At most this many bytes of WAL written by the statements. */
  long maxWalBytes() default -1;

  /** At most this many bytes of temporary files written (sorts, hashes past work_mem). */
  long maxTempBytes() default -1;

  /** At most this many bytes allocated on the test's thread while it ran. */
  long maxAllocatedBytes() default -1;

  /** No statement's plan reads a table of more than this many rows whole (a Seq Scan). */
  long noSeqScanOver() default -1;
}
