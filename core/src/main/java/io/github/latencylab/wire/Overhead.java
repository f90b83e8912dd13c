package io.github.latencylab.wire;

/**
 * Round trips and statements that are not the work of the code under test, told apart at the
 * wire by who asked for them (the stack of the thread that wrote): reported separately, and
 * not counted against a test's budget unless it asks ({@code includeOverhead = true}).
 *
 * <p>A {@link WireCounter} classifies only while it traces ({@link WireCounter#trace()}), as
 * the JUnit extension's counted sections do; elsewhere (the benchmarks) everything is the
 * workload's and nothing is classified but each connection's own set-up.
 */
public enum Overhead {

  /**
   * Opening a connection: the startup packet, authentication, pgjdbc's set-up queries ({@code
   * SET extra_float_digits = 3}, {@code SET application_name = ...}) and a pool's set-up of a
   * new connection (HikariCP's {@code connectionInitSql}, its isolation look-up).
   */
  CONNECT("connection set-up"),

  /** Checking a connection is alive: {@code isValid} (an empty query), a pool's test query. */
  VALIDATE("connection validation"),

  /** The pool's own work on a connection: HikariCP's rollback or reset when it is returned. */
  POOL("pool housekeeping"),

  /** pgjdbc's own look-ups: its type cache ({@code TypeInfoCache}). */
  DRIVER("driver housekeeping"),

  /**
   * A framework's set-up of a transaction on its connection, and its reset afterwards: Spring's
   * {@code SET SESSION CHARACTERISTICS} for a {@code @Transactional(isolation = ...)} and back,
   * its {@code SET TRANSACTION READ ONLY} ({@code enforceReadOnly}). The transaction's own
   * statements and its COMMIT are the code's, and counted.
   */
  TRANSACTION("transaction set-up");

  private final String description;

  Overhead(String description) {
    this.description = description;
  }

  /** "connection set-up": what a message calls it. */
  public String description() {
    return description;
  }

  /**
   * The overhead a frame of the writing thread's stack stands for, or null: the innermost
   * frame that stands for one decides.
   */
  static Overhead of(String className, String methodName) {
    if (className.startsWith("org.postgresql.")) {
      if (className.endsWith(".ConnectionFactoryImpl") || className.equals("org.postgresql.Driver")
          || (className.equals("org.postgresql.jdbc.PgConnection")
              && methodName.equals("<init>"))) {
        return CONNECT;
      }
      if (className.equals("org.postgresql.jdbc.PgConnection")
          && methodName.equals("isValid")) {
        return VALIDATE;
      }
      if (className.equals("org.postgresql.jdbc.TypeInfoCache")) {
        return DRIVER;
      }
      return null;
    }
    if (className.equals("org.springframework.jdbc.datasource.DataSourceUtils")
        && (methodName.equals("prepareConnectionForTransaction")
            || methodName.equals("resetConnectionAfterTransaction"))
        || className.equals("org.springframework.jdbc.datasource.DataSourceTransactionManager")
        && methodName.equals("prepareTransactionalConnection")) {
      return TRANSACTION;
    }
    if (className.startsWith("com.zaxxer.hikari.pool.")) {
      if (className.endsWith(".PoolBase")) {
        if (methodName.contains("Dead") || methodName.contains("Alive")) {
          return VALIDATE;
        }
        if (methodName.equals("newConnection") || methodName.equals("setupConnection")
            || methodName.equals("checkDriverSupport") || methodName.equals("executeSql")) {
          return CONNECT;
        }
        return POOL;
      }
      if (className.endsWith(".HikariPool")
          || (className.endsWith(".ProxyConnection") && methodName.equals("close"))) {
        return POOL;
      }
    }
    return null;
  }
}
