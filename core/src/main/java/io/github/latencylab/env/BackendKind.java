package io.github.latencylab.env;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** Where the Lab's PostgreSQL and Toxiproxy come from. */
public enum BackendKind {
  /** testcontainers where a Docker engine answers, embedded elsewhere. */
  AUTO,
  /** Embedded PostgreSQL binaries from Maven and a Toxiproxy server process. */
  EMBEDDED,
  /** PostgreSQLContainer and ToxiproxyContainer on one Docker network. */
  TESTCONTAINERS,
  /** A database the user runs (RDS, Aurora...), optionally behind the user's Toxiproxy. */
  EXTERNAL;

  public static BackendKind parse(String text, String source) {
    for (BackendKind kind : values()) {
      if (kind.label().equals(text.trim().toLowerCase(Locale.ROOT))) {
        return kind;
      }
    }
    throw new IllegalArgumentException(
        "Invalid backend '" + text + "' (from " + source + "): expected one of "
            + Arrays.stream(values()).map(BackendKind::label).collect(Collectors.joining(", ")));
  }

  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }
}
