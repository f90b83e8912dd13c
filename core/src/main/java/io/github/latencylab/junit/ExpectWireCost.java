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
 * time model of latency-lab ({@link io.github.latencylab.report.LatencyModel}) on what the test
 * waited on the database, measured at the Lab's current added RTT (0 ms unless a test set one:
 * the test stays fast):
 *
 * <pre>T(rtt) = (round trips + window flights) x rtt + waited on the server</pre>
 *
 * <ul>
 *   <li>round trips: counted at the wire; window flights: the transfers' extra flights while
 *       the path's TCP window grows ({@link io.github.latencylab.wire.WireStats}), 0 for small
 *       exchanges;
 *   <li>waited on the server: how long the test's reads were blocked on the Lab's connections,
 *       at the socket (each read from its call, or the request's last write if later, until the
 *       server's bytes came; summed over connections and threads, as round trips are; {@link
 *       io.github.latencylab.wire.WireCounter#waitNanos()}), less the added RTT they were
 *       measured at: the server's time and the local path's.
 * </ul>
 *
 * <p>Not priced: the rest of the test's wall time, its own (JIT and class loading, a framework's
 * first request, the test's CPU): it moves from one JVM to the next and does not grow with the
 * latency. Connection set-up, validation and housekeeping are not priced either, unless {@link
 * #includeOverhead()}. A failure shows each part ({@code 86.4 ms = 4 round trips x 20ms + 6.4 ms
 * waiting on the server (measured at 0ms); the code's own time 912 ms not priced}), the round
 * trips, the statements, the repeated statements with their call sites, and the price at 0.5,
 * 20 and 320 ms.
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
