package io.github.latencylab.env;

import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * How the Lab's own PostgreSQL (embedded, testcontainers) treats a commit
 * ({@link Setting#DURABILITY}). An external database keeps what it has.
 */
public enum Durability {
  /** PostgreSQL's defaults: a commit waits until its WAL is flushed to disk. */
  STOCK(Map.of()),
  /**
   * A commit waits for nothing: fine for quick local test runs, never for numbers that claim
   * to say what production pays.
   */
  FAST(Map.of("fsync", "off", "synchronous_commit", "off", "full_page_writes", "off"));

  private final Map<String, String> settings;

  Durability(Map<String, String> settings) {
    this.settings = settings;
  }

  /** The server settings this choice changes from PostgreSQL's defaults. */
  public Map<String, String> settings() {
    return settings;
  }

  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static Durability parse(String text, String source) {
    for (Durability d : values()) {
      if (d.label().equals(text.trim().toLowerCase(Locale.ROOT))) {
        return d;
      }
    }
    throw new IllegalArgumentException("Invalid " + Setting.DURABILITY.property() + " '" + text
        + "' (from " + source + "): expected one of " + Arrays.stream(values())
        .map(Durability::label).collect(Collectors.joining(", ")));
  }
}
