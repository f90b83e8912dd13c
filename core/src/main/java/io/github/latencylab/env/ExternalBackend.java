package io.github.latencylab.env;

import eu.rekawek.toxiproxy.Proxy;
import eu.rekawek.toxiproxy.ToxiproxyClient;
import io.github.latencylab.latency.ProxyToxics;
import java.io.IOException;
import java.net.URI;
import java.util.Optional;
import org.postgresql.PGProperty;
import org.postgresql.Driver;

/** A database the user runs, optionally behind a Toxiproxy the user runs too. */
final class ExternalBackend implements Backend {

  private final PostgresTarget direct;
  private final URI api;
  private final Proxy proxy;
  private final PostgresTarget proxied;
  private final Proxy baselineProxy;
  private final PostgresTarget baseline;

  private ExternalBackend(PostgresTarget direct, URI api, Proxy proxy, PostgresTarget proxied,
      Proxy baselineProxy, PostgresTarget baseline) {
    this.direct = direct;
    this.api = api;
    this.proxy = proxy;
    this.proxied = proxied;
    this.baselineProxy = baselineProxy;
    this.baseline = baseline;
  }

  static ExternalBackend start(LabConfig config) throws IOException {
    String url = config.get(Setting.JDBC_URL);
    if (url.isBlank()) {
      throw new IllegalArgumentException("The external backend needs "
          + Setting.JDBC_URL.property() + " (" + Setting.JDBC_URL.environmentVariable()
          + "), e.g. -D" + Setting.JDBC_URL.property() + "=jdbc:postgresql://host:5432/db");
    }
    var parsed = Driver.parseURL(url, null);
    if (parsed == null) {
      throw new IllegalArgumentException(config.invalid(Setting.JDBC_URL, "pgjdbc cannot parse it"));
    }
    String host = PGProperty.PG_HOST.getOrDefault(parsed).split(",")[0];
    int port = Integer.parseInt(PGProperty.PG_PORT.getOrDefault(parsed).split(",")[0]);
    String database = PGProperty.PG_DBNAME.getOrDefault(parsed);
    PostgresTarget direct = new PostgresTarget(host, port, database,
        config.get(Setting.JDBC_USER), config.get(Setting.JDBC_PASSWORD));

    String api = config.get(Setting.TOXIPROXY_URL);
    if (api.isBlank()) {
      return new ExternalBackend(direct, null, null, null, null, null);
    }
    URI uri = URI.create(api);
    ToxiproxyClient client = new ToxiproxyClient(uri.getHost(), uri.getPort() < 0 ? 8474 : uri.getPort());
    Proxy proxy = createProxy(client, "latency-lab", config, host + ":" + port);
    Proxy baseline = createProxy(client, "latency-lab-baseline", config, host + ":" + port);
    return new ExternalBackend(direct, uri, proxy, reach(direct, proxy, uri), baseline,
        reach(direct, baseline, uri));
  }

  private static Proxy createProxy(ToxiproxyClient client, String name, LabConfig config,
      String upstream) throws IOException {
    Proxy stale = client.getProxyOrNull(name);
    if (stale != null) {
      stale.delete();
    }
    return client.createProxy(name, config.get(Setting.TOXIPROXY_LISTEN), upstream);
  }

  // a proxy listening on every interface is reached at the API's host
  private static PostgresTarget reach(PostgresTarget direct, Proxy proxy, URI api) {
    String listen = proxy.getListen();
    String host = listen.substring(0, listen.lastIndexOf(':'));
    int port = Integer.parseInt(listen.substring(listen.lastIndexOf(':') + 1));
    boolean anyInterface = host.isEmpty() || host.equals("0.0.0.0") || host.equals("[::]");
    return direct.at(anyInterface ? api.getHost() : host, port);
  }

  @Override
  public BackendKind kind() {
    return BackendKind.EXTERNAL;
  }

  @Override
  public PostgresTarget direct() {
    return direct;
  }

  @Override
  public Optional<PostgresTarget> proxied() {
    return Optional.ofNullable(proxied);
  }

  @Override
  public Optional<PostgresTarget> baseline() {
    return Optional.ofNullable(baseline);
  }

  @Override
  public Optional<ProxyToxics> toxics() {
    return proxy == null ? Optional.empty() : Optional.of(new ProxyToxics(api, proxy.getName()));
  }

  @Override
  public String describe() {
    return "external " + direct.jdbcUrl()
        + (proxy == null ? " (no Toxiproxy: real network latency)" : " via Toxiproxy " + proxied.host() + ":" + proxied.port());
  }

  @Override
  public synchronized void close() {
    for (Proxy p : new Proxy[] {proxy, baselineProxy}) {
      if (p != null) {
        try {
          p.delete();
        } catch (IOException e) {
          throw new IllegalStateException("Could not delete the Toxiproxy proxy " + p.getName(), e);
        }
      }
    }
  }
}
