package io.github.latencylab.server;

import java.util.Map;

/**
 * Settings {@link ServerSettings#set} changed; {@link #close()} puts back what was there
 * before (in postgresql.auto.conf), with a reload or, for a setting that takes effect only at
 * server start, a restart. Idempotent.
 */
public final class SettingChange implements AutoCloseable {

  private final ServerSettings owner;
  private final Map<String, String> applied;
  private final Map<String, String> previousAutoConf;
  private boolean restored;

  SettingChange(ServerSettings owner, Map<String, String> applied,
      Map<String, String> previousAutoConf) {
    this.owner = owner;
    this.applied = Map.copyOf(applied);
    this.previousAutoConf = previousAutoConf;
  }

  /** What was set, by name. */
  public Map<String, String> applied() {
    return applied;
  }

  public boolean restored() {
    return restored;
  }

  @Override
  public synchronized void close() {
    if (restored) {
      return;
    }
    restored = true;
    owner.restore(this, previousAutoConf);
  }

  @Override
  public String toString() {
    return "SettingChange" + applied + (restored ? " (restored)" : "");
  }
}
