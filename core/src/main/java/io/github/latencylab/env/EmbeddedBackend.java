package io.github.latencylab.env;

import eu.rekawek.toxiproxy.Proxy;
import eu.rekawek.toxiproxy.ToxiproxyClient;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.net.URI;
import java.util.Optional;

/** Embedded PostgreSQL binaries from Maven Central plus a Toxiproxy server process. */
final class EmbeddedBackend implements Backend {

  private final EmbeddedPostgres postgres;
  private final ToxiproxyServer toxiproxy;
  private final Proxy proxy;
  private final PostgresTarget direct;
  private final PostgresTarget proxied;
  private final PostgresTarget baseline;

  private EmbeddedBackend(EmbeddedPostgres postgres, ToxiproxyServer toxiproxy, Proxy proxy,
      PostgresTarget direct, PostgresTarget proxied, PostgresTarget baseline) {
    this.postgres = postgres;
    this.toxiproxy = toxiproxy;
    this.proxy = proxy;
    this.direct = direct;
    this.proxied = proxied;
    this.baseline = baseline;
  }

  static EmbeddedBackend start(LabConfig config) throws IOException, InterruptedException {
    ToxiproxyServer toxiproxy = ToxiproxyServer.start(config);
    EmbeddedPostgres postgres = null;
    try {
      postgres = EmbeddedPostgres.builder().start();
      PostgresTarget direct =
          new PostgresTarget("127.0.0.1", postgres.getPort(), "postgres", "postgres", "");
      ToxiproxyClient client = new ToxiproxyClient("127.0.0.1", toxiproxy.port());
      String upstream = "127.0.0.1:" + postgres.getPort();
      Proxy proxy = client.createProxy("postgres", "127.0.0.1:0", upstream);
      Proxy baseline = client.createProxy("postgres-baseline", "127.0.0.1:0", upstream);
      return new EmbeddedBackend(postgres, toxiproxy, proxy, direct,
          direct.at("127.0.0.1", listenPort(proxy)), direct.at("127.0.0.1", listenPort(baseline)));
    } catch (IOException | RuntimeException e) {
      toxiproxy.close();
      if (postgres != null) {
        postgres.close();
      }
      throw e;
    }
  }

  static int listenPort(Proxy proxy) {
    return Integer.parseInt(proxy.getListen().substring(proxy.getListen().lastIndexOf(':') + 1));
  }

  long toxiproxyPid() {
    return toxiproxy.pid();
  }

  boolean toxiproxyAlive() {
    return toxiproxy.isAlive();
  }

  @Override
  public BackendKind kind() {
    return BackendKind.EMBEDDED;
  }

  @Override
  public PostgresTarget direct() {
    return direct;
  }

  @Override
  public Optional<PostgresTarget> proxied() {
    return Optional.of(proxied);
  }

  @Override
  public Optional<PostgresTarget> baseline() {
    return Optional.of(baseline);
  }

  @Override
  public Optional<ProxyToxics> toxics() {
    return Optional.of(new ProxyToxics(URI.create("http://127.0.0.1:" + toxiproxy.port()),
        proxy.getName()));
  }

  @Override
  public String describe() {
    return "embedded PostgreSQL on 127.0.0.1:" + direct.port() + ", toxiproxy-server "
        + toxiproxy.version() + " (pid " + toxiproxy.pid() + ") proxy on 127.0.0.1:"
        + proxied.port();
  }

  @Override
  public synchronized void close() {
    toxiproxy.close();
    try {
      postgres.close();
    } catch (IOException e) {
      throw new IllegalStateException("Could not stop the embedded PostgreSQL", e);
    }
  }
}
