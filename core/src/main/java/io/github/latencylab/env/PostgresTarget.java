package io.github.latencylab.env;

/** Where a client reaches PostgreSQL: directly, or through the proxy. */
public record PostgresTarget(String host, int port, String database, String user,
    String password) {

  public String jdbcUrl() {
    String h = host.contains(":") ? "[" + host + "]" : host;
    return "jdbc:postgresql://" + h + ":" + port + "/" + database;
  }

  PostgresTarget at(String newHost, int newPort) {
    return new PostgresTarget(newHost, newPort, database, user, password);
  }
}
