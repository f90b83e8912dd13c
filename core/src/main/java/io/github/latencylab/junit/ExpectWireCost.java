package io.github.latencylab.junit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The test method (or, on a class, each of its test methods that has none of its own) costs at
 * most {@link #maxMillis()} at an added round-trip time of {@link #rtt()}, priced by the one
 * time model of latency-lab ({@link io.github.latencylab.report.LatencyModel}): its round trips
 * counted at the wire and its time measured, both at the Lab's current added RTT (0 ms unless
 * a test set one: the test stays fast), give
 *
 * <pre>T(rtt) = measured time + round trips x (rtt - the added RTT measured at)</pre>
 *
 * <p>A failure shows that arithmetic, the round trips, the statements, the repeated statements
 * with their call sites, and the cost at 0.5, 20 and 320 ms.
 *
 * <pre>{@code
 * @Test
 * @ExpectWireCost(rtt = "20ms", maxMillis = 150) // cross-region: 7 round trips at most
 * void listsAuthorsWithTheirBooks() { ... }
 * }</pre>
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Inherited
@Target({ElementType.METHOD, ElementType.TYPE})
public @interface ExpectWireCost {

  /** The added round-trip time to price at, as {@code Rtt.parse} reads it: "20ms", "0.5ms". */
  String rtt();

  /** The most the code may cost at {@link #rtt()}, in milliseconds. */
  double maxMillis();

  /** True: price connection set-up, validation and housekeeping round trips too. */
  boolean includeOverhead() default false;
}
