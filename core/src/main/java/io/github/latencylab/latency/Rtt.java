package io.github.latencylab.latency;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An added round-trip time: one request/response exchange takes this much longer.
 *
 * <p>Whole microseconds, zero or from {@value #MIN_MICROS} µs (0.1 ms) up: below that, a
 * toxic's own wake-up is a large part of the delay and no setting can be met. Parses
 * {@code "0.25ms"}, {@code "20 ms"}, {@code "320ms"}, {@code "1s"}, {@code "250us"}.
 */
public record Rtt(long micros) implements Comparable<Rtt> {

  public static final Rtt ZERO = new Rtt(0);

  /** The smallest added RTT other than zero, in microseconds: 0.1 ms. */
  public static final long MIN_MICROS = 100;
  private static final long MAX_MICROS = 3_600_000_000L;
  private static final String BELOW_MINIMUM = "below 0.1 ms, the smallest added RTT the Lab"
      + " can realise (a toxic's own wake-up takes some 0.05 ms); use 0 or 0.1ms and up";
  private static final String EXAMPLES = "e.g. 0.25ms, 20ms, 320ms";
  private static final Pattern SYNTAX =
      Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*(us|µs|ms|s)", Pattern.CASE_INSENSITIVE);

  /** The sweep every suite knows: switched LAN up to intercontinental links. */
  public static final List<Rtt> SWEEP =
      parseList("0.5ms,1ms,2ms,5ms,10ms,20ms,40ms,80ms,160ms,320ms");

  public Rtt {
    if (micros < 0) {
      throw new IllegalArgumentException("RTT must not be negative, got " + micros + " us");
    }
    if (micros > 0 && micros < MIN_MICROS) {
      throw new IllegalArgumentException("RTT " + micros + " us: " + BELOW_MINIMUM);
    }
  }

  /** {@code millis} rounded to the microsecond. */
  public static Rtt ofMillis(double millis) {
    return new Rtt(Math.round(millis * 1000));
  }

  /** Parses "0.25ms", "20 ms", "1s"; the message of a rejection names the input and the rule. */
  public static Rtt parse(String text) {
    if (text == null) {
      throw new IllegalArgumentException("RTT is missing: expected " + EXAMPLES);
    }
    Matcher m = SYNTAX.matcher(text.trim());
    if (!m.matches()) {
      throw new IllegalArgumentException(
          "Invalid RTT '" + text + "': expected a non-negative number and a unit (us, ms, s),"
              + " " + EXAMPLES);
    }
    int scale = switch (m.group(2).toLowerCase(Locale.ROOT)) {
      case "s" -> 6;
      case "ms" -> 3;
      default -> 0;
    };
    BigDecimal micros = new BigDecimal(m.group(1)).movePointRight(scale);
    if (micros.stripTrailingZeros().scale() > 0) {
      throw new IllegalArgumentException("Invalid RTT '" + text + "': the Lab's resolution is"
          + " one microsecond (0.001 ms); round it, e.g. " + roundedExample(micros));
    }
    if (micros.compareTo(BigDecimal.valueOf(MAX_MICROS)) > 0) {
      throw new IllegalArgumentException("Invalid RTT '" + text + "': more than an hour");
    }
    long value = micros.longValueExact();
    if (value > 0 && value < MIN_MICROS) {
      throw new IllegalArgumentException("Invalid RTT '" + text + "': " + BELOW_MINIMUM);
    }
    return new Rtt(value);
  }

  private static String roundedExample(BigDecimal micros) {
    return new Rtt(Math.max(MIN_MICROS, micros.setScale(0, RoundingMode.HALF_UP).longValue()))
        .toString();
  }

  /** Parses a comma-separated list such as "0.5ms,1ms,20ms". */
  public static List<Rtt> parseList(String text) {
    List<Rtt> out = new ArrayList<>();
    for (String part : text.split(",")) {
      if (!part.isBlank()) {
        out.add(parse(part));
      }
    }
    if (out.isEmpty()) {
      throw new IllegalArgumentException("Invalid RTT list '" + text + "': no value in it");
    }
    return List.copyOf(out);
  }

  public double millis() {
    return micros / 1000.0;
  }

  public Duration duration() {
    return Duration.ofNanos(micros * 1000);
  }

  @Override
  public int compareTo(Rtt other) {
    return Long.compare(micros, other.micros);
  }

  /** "0.25ms", "20ms", "320ms", "0.125ms": the same form {@link #parse} reads. */
  @Override
  public String toString() {
    return BigDecimal.valueOf(micros, 3).stripTrailingZeros().toPlainString() + "ms";
  }
}
