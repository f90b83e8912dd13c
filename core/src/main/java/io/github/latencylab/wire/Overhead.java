package io.github.latencylab.wire;

import java.util.function.Supplier;

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
    return of(className, () -> methodName);
  }

  /**
   * The same, the method's name read only where the class alone does not decide: a stack's
   * frames are asked for every round trip a test traces, and most are a driver's or a pool's
   * that stand for nothing.
   */
  static Overhead of(String className, Supplier<String> method) {
    if (className.startsWith("org.postgresql.")) {
      if (className.endsWith(".ConnectionFactoryImpl")
          || className.equals("org.postgresql.Driver")) {
        return CONNECT;
      }
      if (className.equals("org.postgresql.jdbc.TypeInfoCache")) {
        return DRIVER;
      }
      if (className.equals("org.postgresql.jdbc.PgConnection")) {
        String name = method.get();
        return name.equals("<init>") ? CONNECT : name.equals("isValid") ? VALIDATE : null;
      }
      return null;
    }
    if (className.equals("org.springframework.jdbc.datasource.DataSourceUtils")) {
      String name = method.get();
      return name.equals("prepareConnectionForTransaction")
          || name.equals("resetConnectionAfterTransaction") ? TRANSACTION : null;
    }
    if (className.equals("org.springframework.jdbc.datasource.DataSourceTransactionManager")) {
      return method.get().equals("prepareTransactionalConnection") ? TRANSACTION : null;
    }
    if (className.startsWith("com.zaxxer.hikari.pool.")) {
      if (className.endsWith(".PoolBase")) {
        String name = method.get();
        if (name.contains("Dead") || name.contains("Alive")) {
          return VALIDATE;
        }
        if (name.equals("newConnection") || name.equals("setupConnection")
            || name.equals("checkDriverSupport") || name.equals("executeSql")) {
          return CONNECT;
        }
        return POOL;
      }
      if (className.endsWith(".HikariPool")
          || (className.endsWith(".ProxyConnection") && method.get().equals("close"))) {
        return POOL;
      }
    }
    return null;
  }
}
