package io.github.latencylab.env;

import io.github.latencylab.latency.ProxyToxics;
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

  /** The toxics of the proxy that sets the latency; absent when there is no Toxiproxy. */
  Optional<ProxyToxics> toxics();

  /** One line for logs and result files: what runs where. */
  String describe();

  /** Stops whatever this backend started; idempotent. */
  @Override
  void close();
}
