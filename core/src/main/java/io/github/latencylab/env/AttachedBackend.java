package io.github.latencylab.env;

import eu.rekawek.toxiproxy.Proxy;
import java.util.Optional;

/**
 * Another JVM's Lab, reached through its {@link LabHandle}: the same PostgreSQL and proxies,
 * nothing started here and nothing stopped on close. The RTT stays the other Lab's to set.
 */
final class AttachedBackend implements Backend {

  private final BackendKind kind;
  private final String description;
  private final PostgresTarget direct;
  private final Optional<PostgresTarget> proxied;
  private final Optional<PostgresTarget> baseline;

  AttachedBackend(BackendKind kind, String description, PostgresTarget direct,
      Optional<PostgresTarget> proxied, Optional<PostgresTarget> baseline) {
    this.kind = kind;
    this.description = description;
    this.direct = direct;
    this.proxied = proxied;
    this.baseline = baseline;
  }

  @Override
  public BackendKind kind() {
    return kind;
  }

  @Override
  public PostgresTarget direct() {
    return direct;
  }

  @Override
  public Optional<PostgresTarget> proxied() {
    return proxied;
  }

  @Override
  public Optional<PostgresTarget> baseline() {
    return baseline;
  }

  /** None: the Lab this one is attached to owns the toxics. */
  @Override
  public Optional<Proxy> proxy() {
    return Optional.empty();
  }

  @Override
  public String describe() {
    return description;
  }

  @Override
  public void close() {
    // the other JVM's Lab stops what it started
  }
}
