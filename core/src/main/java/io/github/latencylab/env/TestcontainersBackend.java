package io.github.latencylab.env;

import eu.rekawek.toxiproxy.Proxy;
import eu.rekawek.toxiproxy.ToxiproxyClient;
import java.io.IOException;
import java.net.ServerSocket;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.testcontainers.containers.Network;
import org.testcontainers.postgresql.PostgreSQLContainer;
import org.testcontainers.toxiproxy.ToxiproxyContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * PostgreSQLContainer and ToxiproxyContainer on one Docker network. PostgreSQLContainer starts
 * {@code postgres -c fsync=off}; the Lab's runs {@code postgres} alone: stock settings, each
 * changeable with ALTER SYSTEM. PostgreSQL's host port is fixed at creation, so that a
 * {@code docker restart} keeps it.
 */
final class TestcontainersBackend implements Backend {

  private static final String POSTGRES_ALIAS = "postgres";
  // the first of the ports ToxiproxyContainer exposes for proxies
  private static final int PROXY_PORT = 8666;
  private static final int BASELINE_PORT = 8667;

  private final Network network;
  private final PostgreSQLContainer postgres;
  private final ToxiproxyContainer toxiproxy;
  private final Proxy proxy;

  private TestcontainersBackend(Network network, PostgreSQLContainer postgres,
      ToxiproxyContainer toxiproxy, Proxy proxy) {
    this.network = network;
    this.postgres = postgres;
    this.toxiproxy = toxiproxy;
    this.proxy = proxy;
  }

  @SuppressWarnings("resource") // closed by close(), or below when start fails
  static TestcontainersBackend start(LabConfig config) throws IOException {
    Network network = Network.newNetwork();
    PostgreSQLContainer postgres = new PostgreSQLContainer(
        DockerImageName.parse(config.get(Setting.POSTGRES_IMAGE))
            .asCompatibleSubstituteFor("postgres"))
        .withNetwork(network)
        .withNetworkAliases(POSTGRES_ALIAS)
        .withCommand("postgres");
    postgres.setPortBindings(List.of(freePort() + ":" + PostgreSQLContainer.POSTGRESQL_PORT));
    ToxiproxyContainer toxiproxy = new ToxiproxyContainer(
        DockerImageName.parse(config.get(Setting.TOXIPROXY_IMAGE))
            .asCompatibleSubstituteFor("ghcr.io/shopify/toxiproxy"))
        .withNetwork(network);
    try {
      postgres.start();
      toxiproxy.start();
      ToxiproxyClient client =
          new ToxiproxyClient(toxiproxy.getHost(), toxiproxy.getControlPort());
      String upstream = POSTGRES_ALIAS + ":" + PostgreSQLContainer.POSTGRESQL_PORT;
      Proxy proxy = client.createProxy("postgres", "0.0.0.0:" + PROXY_PORT, upstream);
      client.createProxy("postgres-baseline", "0.0.0.0:" + BASELINE_PORT, upstream);
      return new TestcontainersBackend(network, postgres, toxiproxy, proxy);
    } catch (IOException | RuntimeException e) {
      toxiproxy.stop();
      postgres.stop();
      network.close();
      throw e;
    }
  }

  @Override
  public BackendKind kind() {
    return BackendKind.TESTCONTAINERS;
  }

  @Override
  public PostgresTarget direct() {
    return new PostgresTarget(postgres.getHost(),
        postgres.getMappedPort(PostgreSQLContainer.POSTGRESQL_PORT),
        postgres.getDatabaseName(), postgres.getUsername(), postgres.getPassword());
  }

  @Override
  public Optional<PostgresTarget> proxied() {
    return Optional.of(direct().at(toxiproxy.getHost(), toxiproxy.getMappedPort(PROXY_PORT)));
  }

  @Override
  public Optional<PostgresTarget> baseline() {
    return Optional.of(direct().at(toxiproxy.getHost(), toxiproxy.getMappedPort(BASELINE_PORT)));
  }

  @Override
  public Optional<Proxy> proxy() {
    return Optional.of(proxy);
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  @Override
  public synchronized void restart() {
    postgres.getDockerClient().restartContainerCmd(postgres.getContainerId()).withTimeout(30)
        .exec();
    PostgresTarget target = direct();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    SQLException last = null;
    while (System.nanoTime() < deadline) {
      try (Connection c = DriverManager.getConnection(target.jdbcUrl(), target.user(),
          target.password())) {
        return;
      } catch (SQLException notYet) {
        last = notYet;
      }
      try {
        Thread.sleep(200);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("Interrupted while restarting " + describe(), e);
      }
    }
    throw new IllegalStateException("PostgreSQL in " + postgres.getContainerName()
        + " did not accept connections within 60 s of docker restart: "
        + (last == null ? "" : last.getMessage()));
  }

  @Override
  public Optional<String> cannotRestart() {
    return Optional.empty();
  }

  @Override
  public String describe() {
    return "testcontainers " + postgres.getDockerImageName() + " + "
        + toxiproxy.getDockerImageName();
  }

  @Override
  public synchronized void close() {
    toxiproxy.stop();
    postgres.stop();
    network.close();
  }
}
