package io.github.latencylab.junit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The test method makes at most {@link #max()} (or exactly {@link #exactly()}) round trips,
 * counted at the wire on every connection of the {@link LabExtension}'s Lab while the method
 * body runs. Parameters are resolved, and {@code @BeforeEach} methods run, before counting
 * starts. On failure, the message lists the SQL that ran.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface ExpectRoundTrips {

  /** At most this many round trips; -1: no maximum. */
  long max() default -1;

  /** Exactly this many round trips; -1: any number (up to {@link #max()}). */
  long exactly() default -1;
}
