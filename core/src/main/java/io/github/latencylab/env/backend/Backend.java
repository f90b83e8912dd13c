package io.github.latencylab.env.backend;

import io.github.latencylab.env.BackendKind;
import io.github.latencylab.env.PostgresTarget;
import io.github.latencylab.env.link.ProxyToxics;
import java.util.Map;
import java.util.Optional;

/** What a backend started: PostgreSQL, maybe a Toxiproxy proxy in front of it. */
public interface Backend extends AutoCloseable {

  BackendKind kind();

  /** PostgreSQL without the proxy. */
  PostgresTarget direct();

  /** PostgreSQL through the proxy; absent when the backend has no Toxiproxy. */
  Optional<PostgresTarget> proxied();

  /**
   * PostgreSQL through a second proxy of the same Toxiproxy that never gets a toxic: the
   * probe alternates between it and {@link #proxied()}, so machine noise cancels out.
   */
  Optional<PostgresTarget> baseline();

  /** The toxics of the proxy that sets the latency; absent when there is no Toxiproxy. */
  Optional<ProxyToxics> toxics();

  /**
   * Restarts PostgreSQL on the same data directory and port (proxies stay valid; open
   * connections break), or throws with {@link #cannotRestart()}'s reason.
   */
  void restart();

  /** Why {@link #restart()} cannot work here, or empty when it can. */
  Optional<String> cannotRestart();

  /**
   * Starts PostgreSQL, down after a failed {@link #restart()}, with {@code settings} on its
   * command line over its configuration files; throws where the backend cannot.
   */
  default void startWith(Map<String, String> settings) {
    throw new IllegalStateException("the " + kind().label() + " backend cannot start"
        + " PostgreSQL with settings on its command line");
  }

  /**
   * Whether the database goes away with the backend (embedded, testcontainers): then what the
   * Lab created there goes with it; otherwise (external) the Lab removes it on close.
   */
  default boolean ownsDatabase() {
    return true;
  }

  /** One line for logs and result files: what runs where; never a password. */
  String describe();

  /** Stops whatever this backend started; idempotent. */
  @Override
  void close();
}
