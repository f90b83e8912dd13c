package io.github.latencylab.bench.pipeline;

import io.github.latencylab.env.PostgresTarget;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A {@link PostgresTarget}'s pgjdbc parameters as PostgreSQL run-time parameters, for the
 * clients that are not pgjdbc: they send them in their startup message as pgjdbc does, so the
 * Lab's {@code currentSchema} costs them no round trip either.
 */
final class StartupParameters {

  private StartupParameters() {
  }

  /**
   * {@code currentSchema} as {@code search_path} and {@code ApplicationName} as
   * {@code application_name}; any other parameter (sslmode, options...) has no sure
   * translation for every client, so it is refused rather than silently dropped.
   */
  static Map<String, String> of(PostgresTarget target, String client) {
    Map<String, String> startup = new LinkedHashMap<>();
    for (Map.Entry<String, String> p : target.parameters().entrySet()) {
      switch (p.getKey()) {
        case "currentSchema" -> startup.put("search_path", p.getValue());
        case "ApplicationName" -> startup.put("application_name", p.getValue());
        default -> throw new IllegalArgumentException(client + " cannot connect with the"
            + " target's pgjdbc parameter " + p.getKey() + " (value not shown: it may be a"
            + " secret): the"
            + " pipeline suite's non-JDBC clients take only currentSchema and ApplicationName;"
            + " run them on a Lab whose URL has no other parameter (e.g. --backend embedded)");
      }
    }
    return startup;
  }
}
