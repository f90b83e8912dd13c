package io.github.latencylab.demo;

import io.github.latencylab.env.PostgresTarget;
import io.r2dbc.postgresql.PostgresqlConnectionConfiguration;
import io.r2dbc.postgresql.PostgresqlConnectionFactory;
import io.r2dbc.postgresql.api.PostgresqlConnection;
import io.vertx.core.Future;
import io.vertx.pgclient.PgConnectOptions;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ExecutionException;

/**
 * A {@link PostgresTarget} for the clients that are not pgjdbc: its address, credentials and
 * schema (in the startup message, {@link PostgresTarget#startupParameters}), as the demo's
 * reactive rows and the pipeline suite connect them.
 */
public final class ReactiveConnections {

  private ReactiveConnections() {
  }

  /** Vert.x's options for {@code target}, prepared statements cached; {@code client} names it. */
  public static PgConnectOptions vertx(PostgresTarget target, String client) {
    PgConnectOptions options = new PgConnectOptions()
        .setHost(target.host())
        .setPort(target.port())
        .setDatabase(target.database())
        .setUser(target.user())
        .setPassword(target.password())
        .setCachePreparedStatements(true);
    target.startupParameters(client).forEach(options::addProperty);
    return options;
  }

  /**
   * {@code future}'s result on the calling thread (never Vert.x's event loop); its failure
   * rethrown as it is.
   */
  public static <T> T await(Future<T> future) {
    try {
      return future.toCompletionStage().toCompletableFuture().get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while waiting for Vert.x", e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      throw new IllegalStateException(e.getCause().getMessage(), e.getCause());
    }
  }

  /** One R2DBC connection (r2dbc-postgresql) to {@code target}; {@code client} names it. */
  public static PostgresqlConnection r2dbc(PostgresTarget target, String client) {
    Map<String, String> startup = new LinkedHashMap<>(target.startupParameters(client));
    PostgresqlConnectionConfiguration.Builder config = PostgresqlConnectionConfiguration.builder()
        .host(target.host())
        .port(target.port())
        .database(target.database())
        .username(target.user())
        .password(target.password());
    String applicationName = startup.remove("application_name");
    if (applicationName != null) {
      config.applicationName(applicationName);
    }
    return new PostgresqlConnectionFactory(config.options(startup).build()).create().block();
  }
}
