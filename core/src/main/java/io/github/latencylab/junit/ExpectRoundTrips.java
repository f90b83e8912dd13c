package io.github.latencylab.junit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The test method (or, on a class, each of its test methods that has none of its own) makes
 * at most {@link #max()} (or exactly {@link #exactly()}) round trips,
 * counted at the wire on every connection of the {@link LabExtension}'s Lab while the method
 * body runs. Parameters are resolved, and {@code @BeforeEach} methods run, before counting
 * starts. On failure, the message lists the SQL that ran.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Inherited
@Target({ElementType.METHOD, ElementType.TYPE})
public @interface ExpectRoundTrips {

  /** At most this many round trips; -1: no maximum. */
  long max() default -1;

  /** Exactly this many round trips; -1: any number (up to {@link #max()}). */
  long exactly() default -1;

  /**
   * True: count connection set-up, validation, pool and driver housekeeping ({@link
   * io.github.latencylab.wire.Overhead}) too. By default they are listed apart, not counted.
   */
  boolean includeOverhead() default false;
}
