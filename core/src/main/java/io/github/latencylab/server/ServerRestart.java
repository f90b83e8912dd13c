package io.github.latencylab.server;

/**
 * Restarts the server on the same data directory and port, so that connections made after it
 * (through the proxy too) reach the restarted server. Provided by the Lab's backend.
 */
@FunctionalInterface
public interface ServerRestart {

  void restart();
}
