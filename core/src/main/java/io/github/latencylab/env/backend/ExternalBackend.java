package io.github.latencylab.env.backend;

import eu.rekawek.toxiproxy.Proxy;
import eu.rekawek.toxiproxy.ToxiproxyClient;
import io.github.latencylab.env.BackendKind;
import io.github.latencylab.env.Lab;
import io.github.latencylab.env.LabConfig;
import io.github.latencylab.env.PostgresTarget;
import io.github.latencylab.env.Setting;
import io.github.latencylab.env.link.ProxyToxics;
import java.io.IOException;
import java.net.URI;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;
import org.postgresql.Driver;
import org.postgresql.PGProperty;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** A database the user runs, optionally behind a Toxiproxy the user runs too. */
public final class ExternalBackend implements Backend {

  private static final Logger LOG = LoggerFactory.getLogger(ExternalBackend.class);

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

  public static ExternalBackend start(LabConfig config) throws IOException {
    PostgresTarget direct = target(config);
    String api = config.get(Setting.TOXIPROXY_URL);
    if (api.isBlank()) {
      return new ExternalBackend(direct, null, null, null, null, null);
    }
    if ("verify-full".equals(direct.parameters().get("sslmode"))
        && !direct.parameters().containsKey("sslhostnameverifier")) {
      LOG.warn("sslmode=verify-full through Toxiproxy: pgjdbc checks the server's certificate"
          + " against the proxy's host, not {}; see docs/own-database.md#tls-through-the-proxy",
          direct.host());
    }
    URI uri = URI.create(api);
    ToxiproxyClient client = new ToxiproxyClient(uri.getHost(), uri.getPort() < 0 ? 8474 : uri.getPort());
    String upstream = direct.host() + ":" + direct.port();
    Proxy proxy = createProxy(client, "latency-lab", config, upstream);
    Proxy baseline;
    try {
      baseline = createProxy(client, "latency-lab-baseline", config, upstream);
    } catch (IOException | RuntimeException e) {
      proxy.delete();
      throw e;
    }
    return new ExternalBackend(direct, uri, proxy, reach(direct, proxy, uri), baseline,
        reach(direct, baseline, uri));
  }

  /**
   * The database the user's URL names, with every parameter the URL gives (sslmode,
   * sslrootcert, options, targetServerType...): on the direct connections and, through
   * {@link #reach}, on the proxied ones. A user or password in the URL moves to its field,
   * so that no URL the Lab builds or shows holds the password.
   */
  public static PostgresTarget target(LabConfig config) {
    String url = config.get(Setting.JDBC_URL);
    if (url.isBlank()) {
      throw new IllegalArgumentException("The external backend needs "
          + Setting.JDBC_URL.property() + " (" + Setting.JDBC_URL.environmentVariable()
          + "), e.g. -D" + Setting.JDBC_URL.property() + "=jdbc:postgresql://host:5432/db");
    }
    Properties parsed = Driver.parseURL(url, null);
    if (parsed == null) {
      throw new IllegalArgumentException(config.invalid(Setting.JDBC_URL, "pgjdbc cannot parse it"));
    }
    String[] hosts = PGProperty.PG_HOST.getOrDefault(parsed).split(",");
    if (hosts.length > 1) {
      throw new IllegalArgumentException(config.invalid(Setting.JDBC_URL, "it names "
          + hosts.length + " hosts; the Lab measures one server (and its proxy forwards to one):"
          + " give the host to measure"));
    }
    int port = Integer.parseInt(PGProperty.PG_PORT.getOrDefault(parsed).split(",")[0]);
    String database = PGProperty.PG_DBNAME.getOrDefault(parsed);
    Map<String, String> parameters = new TreeMap<>();
    for (String name : parsed.stringPropertyNames()) {
      parameters.put(name, parsed.getProperty(name));
    }
    for (String name : new String[] {"PGHOST", "PGPORT", "PGDBNAME"}) {
      parameters.remove(name);
    }
    String userInUrl = parameters.remove("user");
    String passwordInUrl = parameters.remove("password");
    for (String counting : new String[] {"socketFactory", "socketFactoryArg"}) {
      if (parameters.containsKey(counting)) {
        throw new IllegalArgumentException(config.invalid(Setting.JDBC_URL, "it sets "
            + counting + "; the Lab counts round trips with a socket factory of its own:"
            + " remove " + counting + " from the URL"));
      }
    }
    String user = config.get(Setting.JDBC_USER);
    String password = config.get(Setting.JDBC_PASSWORD);
    return new PostgresTarget(hosts[0], port, database,
        user.isEmpty() && userInUrl != null ? userInUrl : user,
        password.isEmpty() && passwordInUrl != null ? passwordInUrl : password, parameters);
  }

  private static Proxy createProxy(ToxiproxyClient client, String name, LabConfig config,
      String upstream) throws IOException {
    Proxy stale = client.getProxyOrNull(name);
    if (stale != null) {
      stale.delete();
    }
    try {
      return client.createProxy(name, config.get(Setting.TOXIPROXY_LISTEN), upstream);
    } catch (IOException e) {
      throw new IOException("Toxiproxy could not create proxy " + name + " on "
          + config.get(Setting.TOXIPROXY_LISTEN) + " (" + Setting.TOXIPROXY_LISTEN.property()
          + "): " + e.getMessage() + (String.valueOf(e.getMessage()).contains("in use")
          ? ": give it a free port, or port 0 for any" : ""), e);
    }
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

  /** The user's database outlives the Lab: what the Lab created there, it removes. */
  @Override
  public boolean ownsDatabase() {
    return false;
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
  public void restart() {
    throw new IllegalStateException("Cannot restart " + direct.jdbcUrl() + ": "
        + cannotRestart().orElseThrow());
  }

  @Override
  public Optional<String> cannotRestart() {
    return Optional.of("latency-lab does not restart a database it did not start (external"
        + " backend): restart it yourself, or change the setting where the server is managed");
  }

  @Override
  public String describe() {
    return "external " + direct.redactedUrl()
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
