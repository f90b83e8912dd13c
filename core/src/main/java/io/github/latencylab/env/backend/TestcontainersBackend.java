package io.github.latencylab.env.backend;

import eu.rekawek.toxiproxy.Proxy;
import eu.rekawek.toxiproxy.ToxiproxyClient;
import io.github.latencylab.env.BackendKind;
import io.github.latencylab.env.LabConfig;
import io.github.latencylab.env.PostgresTarget;
import io.github.latencylab.env.Setting;
import io.github.latencylab.env.link.ProxyToxics;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.Network;
import org.testcontainers.lifecycle.Startables;
import org.testcontainers.postgresql.PostgreSQLContainer;
import org.testcontainers.toxiproxy.ToxiproxyContainer;
import org.testcontainers.utility.DockerImageName;
import org.testcontainers.utility.MountableFile;

/**
 * PostgreSQLContainer and ToxiproxyContainer on one Docker network. The Toxiproxy container
 * runs latency-lab's own server (built for the engine's Linux, copied in, made the entrypoint),
 * so any Toxiproxy image does; without Go to build it, the image's own server, and whole
 * milliseconds. PostgreSQLContainer starts {@code postgres -c fsync=off}; the Lab's runs
 * {@code postgres} alone: stock settings, each changeable with ALTER SYSTEM. PostgreSQL's host
 * port is fixed at creation, so that a {@code docker restart} keeps it.
 */
public final class TestcontainersBackend implements Backend {

  private static final Logger LOG = LoggerFactory.getLogger(TestcontainersBackend.class);
  private static final String OWN_SERVER = "/latency-lab/toxiproxy-server";

  private static final String POSTGRES_ALIAS = "postgres";
  // the first of the ports ToxiproxyContainer exposes for proxies
  private static final int PROXY_PORT = 8666;
  private static final int BASELINE_PORT = 8667;

  private final Network network;
  private final PostgreSQLContainer postgres;
  private final ToxiproxyContainer toxiproxy;
  private final Proxy proxy;
  private final boolean ownServer;

  private TestcontainersBackend(Network network, PostgreSQLContainer postgres,
      ToxiproxyContainer toxiproxy, Proxy proxy, boolean ownServer) {
    this.network = network;
    this.postgres = postgres;
    this.toxiproxy = toxiproxy;
    this.proxy = proxy;
    this.ownServer = ownServer;
  }

  @SuppressWarnings("resource") // closed by close(), or below when start fails
  public static TestcontainersBackend start(LabConfig config)
      throws IOException, InterruptedException {
    Path server = ownServer(config);
    Network network = Network.newNetwork();
    PostgreSQLContainer postgres = new PostgreSQLContainer(
        DockerImageName.parse(config.get(Setting.POSTGRES_IMAGE))
            .asCompatibleSubstituteFor("postgres"))
        .withNetwork(network)
        .withNetworkAliases(POSTGRES_ALIAS)
        // the server's work per statement, as the embedded server's configuration has it
        .withCommand("postgres", "-c", "shared_preload_libraries=pg_stat_statements");
    postgres.setPortBindings(List.of(freePort() + ":" + PostgreSQLContainer.POSTGRESQL_PORT));
    ToxiproxyContainer toxiproxy = new ToxiproxyContainer(
        DockerImageName.parse(config.get(Setting.TOXIPROXY_IMAGE))
            .asCompatibleSubstituteFor("ghcr.io/shopify/toxiproxy"))
        .withNetwork(network);
    if (server != null) {
      toxiproxy.withCopyFileToContainer(MountableFile.forHostPath(server, 0755), OWN_SERVER)
          .withCreateContainerCmdModifier(cmd -> cmd.withEntrypoint(OWN_SERVER)
              .withCmd("-host=0.0.0.0"));
    }
    try {
      // both at once: neither needs the other until the proxies are made
      await(Startables.deepStart(postgres, toxiproxy));
      ToxiproxyClient client =
          new ToxiproxyClient(toxiproxy.getHost(), toxiproxy.getControlPort());
      String upstream = POSTGRES_ALIAS + ":" + PostgreSQLContainer.POSTGRESQL_PORT;
      Proxy proxy = client.createProxy("postgres", "0.0.0.0:" + PROXY_PORT, upstream);
      client.createProxy("postgres-baseline", "0.0.0.0:" + BASELINE_PORT, upstream);
      return new TestcontainersBackend(network, postgres, toxiproxy, proxy, server != null);
    } catch (IOException | RuntimeException e) {
      stop(postgres, toxiproxy, network);
      throw e;
    }
  }

  // what starting or stopping a container threw, as it would have thrown it in this thread
  private static void await(CompletableFuture<Void> done) {
    try {
      done.join();
    } catch (CompletionException e) {
      throw e.getCause() instanceof RuntimeException cause ? cause : e;
    }
  }

  private static void stop(PostgreSQLContainer postgres, ToxiproxyContainer toxiproxy,
      Network network) {
    try {
      // on a thread of its own: the common pool has one on two cores
      CompletableFuture<Void> proxyStopped = CompletableFuture.runAsync(toxiproxy::stop,
          stop -> new Thread(stop, "latency-lab-toxiproxy-container-stop").start());
      postgres.stop();
      await(proxyStopped);
    } finally {
      network.close();
    }
  }

  /** latency-lab's server built for the Docker engine's platform; null without Go. */
  private static Path ownServer(LabConfig config) throws IOException, InterruptedException {
    String arch = switch (DockerClientFactory.instance().getInfo().getArchitecture()) {
      case "aarch64", "arm64" -> "arm64";
      default -> "amd64";
    };
    String hostArch = switch (System.getProperty("os.arch")) {
      case "aarch64", "arm64" -> "arm64";
      default -> "amd64";
    };
    boolean hostIsLinux = System.getProperty("os.name").toLowerCase(Locale.ROOT).contains("linux");
    try {
      return ToxiproxyServer.ownBinary(config,
          hostIsLinux && arch.equals(hostArch) ? null : "linux/" + arch);
    } catch (IllegalStateException noGo) {
      LOG.warn("{}; the Toxiproxy container runs its image's own server", noGo.getMessage());
      return null;
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
  public Optional<ProxyToxics> toxics() {
    return Optional.of(new ProxyToxics(URI.create("http://" + toxiproxy.getHost() + ":"
        + toxiproxy.getControlPort()), proxy.getName()));
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  @Override
  @SuppressWarnings("try") // a connection opened only to see the server answer
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
        + toxiproxy.getDockerImageName() + (ownServer ? " running latency-lab's toxiproxy-server"
        : "");
  }

  @Override
  public synchronized void close() {
    stop(postgres, toxiproxy, network);
  }
}
