package io.github.latencylab.latency;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An added round-trip time: one request/response exchange takes this much longer.
 *
 * <p>Toxiproxy's latency toxic works in whole milliseconds per direction; the Lab makes half
 * milliseconds real on average (see {@link ToxicPlan}), so an RTT is a multiple of 0.5 ms.
 * Parses {@code "0.5ms"}, {@code "20 ms"}, {@code "320ms"}, {@code "1s"}, {@code "500us"}.
 */
public record Rtt(long micros) implements Comparable<Rtt> {

  public static final Rtt ZERO = new Rtt(0);

  private static final long RESOLUTION_MICROS = 500;
  private static final Pattern SYNTAX =
      Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*(us|µs|ms|s)", Pattern.CASE_INSENSITIVE);

  /** The sweep every suite knows: switched LAN up to intercontinental links. */
  public static final List<Rtt> SWEEP =
      parseList("0.5ms,1ms,2ms,5ms,10ms,20ms,40ms,80ms,160ms,320ms");

  public Rtt {
    if (micros < 0) {
      throw new IllegalArgumentException("RTT must not be negative, got " + micros + " us");
    }
    if (micros % RESOLUTION_MICROS != 0) {
      throw new IllegalArgumentException(
          "RTT " + micros + " us is not a multiple of 0.5 ms"
              + " (Toxiproxy's latency toxic works in whole milliseconds)");
    }
  }

  public static Rtt ofMillis(double millis) {
    return parse(millis + "ms");
  }

  /** Parses "0.5ms", "20 ms", "1s"; the message of a rejection names the input and the rule. */
  public static Rtt parse(String text) {
    if (text == null) {
      throw new IllegalArgumentException("RTT is missing: expected e.g. 0.5ms, 20ms, 320ms");
    }
    Matcher m = SYNTAX.matcher(text.trim());
    if (!m.matches()) {
      throw new IllegalArgumentException(
          "Invalid RTT '" + text + "': expected a non-negative number and a unit (us, ms, s),"
              + " e.g. 0.5ms, 20ms, 320ms");
    }
    double value = Double.parseDouble(m.group(1));
    long perUnit = switch (m.group(2).toLowerCase(Locale.ROOT)) {
      case "s" -> 1_000_000;
      case "ms" -> 1_000;
      default -> 1;
    };
    double micros = value * perUnit;
    if (micros % RESOLUTION_MICROS != 0) {
      throw new IllegalArgumentException(
          "Invalid RTT '" + text + "': must be a multiple of 0.5 ms"
              + " (Toxiproxy's latency toxic works in whole milliseconds per direction)");
    }
    return new Rtt((long) micros);
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

  /** "0.5ms", "20ms", "320ms": the same form {@link #parse} reads. */
  @Override
  public String toString() {
    return micros % 1000 == 0 ? (micros / 1000) + "ms" : millis() + "ms";
  }
}
