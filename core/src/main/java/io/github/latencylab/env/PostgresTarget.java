package io.github.latencylab.env;

import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Where a client reaches PostgreSQL, directly or through the proxy: host, port, database,
 * credentials, and pgjdbc connection parameters (the user's URL's, such as {@code sslmode},
 * and the Lab's {@code currentSchema}). The password is never part of {@link #jdbcUrl()} or
 * {@link #toString()}.
 */
public record PostgresTarget(String host, int port, String database, String user,
    String password, Map<String, String> parameters) {

  /** Parameters whose values are secrets: masked wherever a URL is shown. */
  private static final Pattern SECRET_VALUE =
      Pattern.compile("(?i)([?&](?:password|sslpassword)=)[^&]*");

  public PostgresTarget {
    parameters = Collections.unmodifiableMap(new LinkedHashMap<>(parameters));
    for (String name : parameters.keySet()) {
      if (name.equalsIgnoreCase("password") || name.equalsIgnoreCase("user")) {
        throw new IllegalArgumentException("The " + name + " is a field of PostgresTarget,"
            + " never a URL parameter");
      }
    }
  }

  public PostgresTarget(String host, int port, String database, String user, String password) {
    this(host, port, database, user, password, Map.of());
  }

  /** The same database, user and parameters at another address (a relay's, a proxy's). */
  public PostgresTarget at(java.net.InetSocketAddress address) {
    return new PostgresTarget(address.getHostString(), address.getPort(), database, user,
        password, parameters);
  }

  /** pgjdbc's URL: host, port, database and every parameter; never user or password. */
  public String jdbcUrl() {
    String h = host.contains(":") ? "[" + host + "]" : host;
    StringBuilder url = new StringBuilder("jdbc:postgresql://" + h + ":" + port + "/"
        + encode(database));
    char separator = '?';
    for (Map.Entry<String, String> p : parameters.entrySet()) {
      url.append(separator).append(p.getKey()).append('=').append(encode(p.getValue()));
      separator = '&';
    }
    return url.toString();
  }

  // pgjdbc URL-decodes names and values: escape what decoding or splitting would change,
  // keep the rest readable (/tmp/root.crt, -c statement_timeout=5s)
  private static String encode(String value) {
    StringBuilder out = new StringBuilder(value.length());
    for (byte b : value.getBytes(StandardCharsets.UTF_8)) {
      char c = (char) (b & 0xff);
      if (c > ' ' && c < 0x7f && "%+&#?".indexOf(c) < 0) {
        out.append(c);
      } else {
        out.append('%').append(String.format(java.util.Locale.ROOT, "%02X", (int) c));
      }
    }
    return out.toString();
  }

  /** {@link #jdbcUrl()} with secret parameters ({@code sslpassword}) masked, for logs. */
  public String redactedUrl() {
    return redact(jdbcUrl());
  }

  /** The schema the Lab's connections work in ({@code currentSchema}), or null. */
  public String schema() {
    return parameters.get("currentSchema");
  }

  /** This target with one more pgjdbc parameter, or another value for it. */
  public PostgresTarget withParameter(String name, String value) {
    Map<String, String> more = new LinkedHashMap<>(parameters);
    more.put(name, value);
    return new PostgresTarget(host, port, database, user, password, more);
  }

  public PostgresTarget at(String newHost, int newPort) {
    return new PostgresTarget(newHost, newPort, database, user, password, parameters);
  }

  /**
   * The same connection for a libpq tool (psql, pgbench) as {@code PG*} environment variables:
   * host, port, database, user, the password in {@code PGPASSWORD} (never on a command line),
   * the schema as {@code -c search_path=} in {@code PGOPTIONS} after the URL's own
   * {@code options}, and the URL's {@code sslmode}, {@code sslrootcert}, {@code sslcert},
   * {@code sslkey}, {@code ApplicationName} and {@code connectTimeout}. Other pgjdbc
   * parameters have no libpq twin and are not passed.
   */
  public Map<String, String> libpqEnvironment() {
    Map<String, String> env = new LinkedHashMap<>();
    env.put("PGHOST", host);
    env.put("PGPORT", Integer.toString(port));
    env.put("PGDATABASE", database);
    env.put("PGUSER", user);
    if (password != null && !password.isEmpty()) {
      env.put("PGPASSWORD", password);
    }
    String options = parameters.getOrDefault("options", "");
    if (schema() != null) {
      options = (options + " -c search_path=" + schema()).strip();
    }
    if (!options.isEmpty()) {
      env.put("PGOPTIONS", options);
    }
    Map<String, String> twins = Map.of("sslmode", "PGSSLMODE", "sslrootcert", "PGSSLROOTCERT",
        "sslcert", "PGSSLCERT", "sslkey", "PGSSLKEY", "ApplicationName", "PGAPPNAME",
        "connectTimeout", "PGCONNECT_TIMEOUT");
    twins.forEach((parameter, variable) -> {
      if (parameters.containsKey(parameter)) {
        env.put(variable, parameters.get(parameter));
      }
    });
    return env;
  }

  /**
   * The pgjdbc parameters as PostgreSQL run-time parameters, for a client that is not pgjdbc
   * (Vert.x, R2DBC) to send in its startup message as pgjdbc does, so that the Lab's schema
   * costs it no round trip either: {@code currentSchema} as {@code search_path},
   * {@code ApplicationName} as {@code application_name}. Any other parameter (sslmode,
   * options...) has no sure translation for every client: refused, naming {@code client},
   * rather than silently dropped.
   */
  public Map<String, String> startupParameters(String client) {
    Map<String, String> startup = new LinkedHashMap<>();
    for (Map.Entry<String, String> p : parameters.entrySet()) {
      switch (p.getKey()) {
        case "currentSchema" -> startup.put("search_path", p.getValue());
        case "ApplicationName" -> startup.put("application_name", p.getValue());
        default -> throw new IllegalArgumentException(client + " cannot connect with the"
            + " target's pgjdbc parameter " + p.getKey() + " (value not shown: it may be a"
            + " secret): clients other than pgjdbc take only currentSchema and"
            + " ApplicationName; run them on a Lab whose URL has no other parameter (e.g."
            + " --backend embedded)");
      }
    }
    return startup;
  }

  /** {@code url} with the values of secret parameters (password, sslpassword) masked. */
  static String redact(String url) {
    return SECRET_VALUE.matcher(url).replaceAll("$1***");
  }

  @Override
  public String toString() {
    return "PostgresTarget[" + redactedUrl() + ", user=" + user + "]";
  }
}
