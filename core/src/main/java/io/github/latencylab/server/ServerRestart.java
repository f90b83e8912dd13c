package io.github.latencylab.server;

import java.util.Map;

/**
 * Restarts the server on the same data directory and port, so that connections made after it
 * (through the proxy too) reach the restarted server. Provided by the Lab's backend.
 */
@FunctionalInterface
public interface ServerRestart {

  void restart();

  /**
   * Starts the server after a restart that failed, with {@code settings} on its command line,
   * over its configuration files (so that a setting it could not start with can be put back);
   * throws where this server cannot be started that way.
   */
  default void startWith(Map<String, String> settings) {
    throw new IllegalStateException("this server cannot be started with settings on its"
        + " command line");
  }
}
