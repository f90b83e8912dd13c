package io.github.latencylab.env;

import eu.rekawek.toxiproxy.Proxy;
import java.util.Optional;

/** What a backend started: PostgreSQL, maybe a Toxiproxy proxy in front of it. */
interface Backend extends AutoCloseable {

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

  /** The proxy whose toxics set the latency; absent when the backend has no Toxiproxy. */
  Optional<Proxy> proxy();

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
