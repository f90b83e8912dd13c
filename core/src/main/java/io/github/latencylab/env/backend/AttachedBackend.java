package io.github.latencylab.env.backend;

import io.github.latencylab.env.BackendKind;
import io.github.latencylab.env.PostgresTarget;
import io.github.latencylab.env.link.ProxyToxics;
import java.util.Optional;

/**
 * Another JVM's Lab, reached through its {@link io.github.latencylab.env.LabHandle}: the same
 * PostgreSQL and proxies, nothing started here and nothing stopped on close. The RTT stays the other Lab's to set.
 */
public final class AttachedBackend implements Backend {

  private final BackendKind kind;
  private final String description;
  private final PostgresTarget direct;
  private final Optional<PostgresTarget> proxied;
  private final Optional<PostgresTarget> baseline;
  private final Optional<ProxyToxics> ownersToxics;

  public AttachedBackend(BackendKind kind, String description, PostgresTarget direct,
      Optional<PostgresTarget> proxied, Optional<PostgresTarget> baseline,
      Optional<ProxyToxics> ownersToxics) {
    this.kind = kind;
    this.description = description;
    this.direct = direct;
    this.proxied = proxied;
    this.baseline = baseline;
    this.ownersToxics = ownersToxics;
  }

  /**
   * The other Lab's proxy toxics, for {@link io.github.latencylab.env.Lab#restartWindows()}
   * only: the RTT is its own.
   */
  public Optional<ProxyToxics> ownersToxics() {
    return ownersToxics;
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
  public Optional<ProxyToxics> toxics() {
    return Optional.empty();
  }

  @Override
  public void restart() {
    throw new IllegalStateException("Cannot restart the server: " + cannotRestart().orElseThrow());
  }

  /** The Lab this one is attached to started the server; only it can restart it. */
  @Override
  public Optional<String> cannotRestart() {
    return Optional.of("this Lab is attached to another process's Lab (a JMH fork to its"
        + " runner's), which owns the server: restart it there");
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
