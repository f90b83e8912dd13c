package io.github.latencylab.bench.pipeline;

import io.github.latencylab.env.Lab;
import io.github.latencylab.env.PostgresTarget;
import java.sql.SQLException;
import java.util.EnumSet;
import java.util.Set;

/**
 * The clients of {@link PipelineBenchmark}, by the names its {@code client} parameters take,
 * each with the workloads where it is a shape of its own: the suite's cells. JDBC connections
 * come from the Lab's counted data source (round trips counted at the socket) except the
 * previous driver's; every other client connects to the target it is given.
 */
public enum ClientKind {

  /** pgjdbc, a statement and a wait each: N INSERTs + COMMIT, 100 SELECTs, 6 for TPC-B. */
  jdbcOneByOne(Workload.inserts, Workload.lookups, Workload.tpcb),
  /** pgjdbc's executeBatch: a Sync every 255 statements, then the COMMIT. */
  jdbcBatch(Workload.inserts),
  /**
   * executeBatch with reWriteBatchedInserts=true: multi-row INSERTs, here of up to 8,192 rows
   * (pgjdbc 42.7.13: 65,535 parameters / 4 columns, in powers of two).
   */
  jdbcRewrite(Workload.inserts),
  /** executeBatch on pgjdbc {@value PreviousPgjdbc#VERSION}: the driver-version axis. */
  jdbc42712Batch(Workload.inserts),
  /**
   * reWriteBatchedInserts=true on pgjdbc {@value PreviousPgjdbc#VERSION}, which caps a
   * rewritten INSERT at 128 rows (42.7.13 lifted the cap: reWriteBatchedInsertsSize).
   */
  jdbc42712Rewrite(Workload.inserts),
  /** The N+1's fix: one join through the books. */
  jdbcJoin(Workload.lookups),
  /** The other fix: one {@code WHERE id = any(?)}. */
  jdbcAny(Workload.lookups),
  /** Vert.x, pipelining limit 1: futures, but one command in flight. */
  vertx1(Workload.inserts, Workload.lookups, Workload.tpcb),
  /** Vert.x, pipelining limit 16. */
  vertx16(Workload.inserts, Workload.lookups, Workload.tpcb),
  /** Vert.x, pipelining limit 256 (its default). */
  vertx256(Workload.inserts, Workload.lookups, Workload.tpcb),
  /** R2DBC, a Flux of statements. */
  r2dbcFlux(Workload.inserts, Workload.lookups, Workload.tpcb),
  /** R2DBC, createBatch(): one simple query of literal statements. */
  r2dbcBatch(Workload.inserts, Workload.lookups, Workload.tpcb),
  /** R2DBC, one statement with a binding per row (no TPC-B: its statements differ). */
  r2dbcBind(Workload.inserts, Workload.lookups),
  /** CopyLoader: COPY ... FROM STDIN, the bound for W1: 2 round trips whatever N. */
  copy(Workload.inserts);

  /** The suite's three workloads, by their benchmark methods' names. */
  public enum Workload { inserts, lookups, tpcb }

  private final Set<Workload> workloads;

  ClientKind(Workload first, Workload... more) {
    this.workloads = EnumSet.of(first, more);
  }

  /** The workloads where this client is a shape of its own. */
  public Set<Workload> workloads() {
    return EnumSet.copyOf(workloads);
  }

  /**
   * Connects this client: JDBC ones from {@code lab}'s data source (pgjdbc's previous version
   * to {@code target}), the others to {@code target}.
   */
  public PipelineClient open(Lab lab, PostgresTarget target) throws SQLException {
    return switch (this) {
      case jdbcOneByOne -> new JdbcClient(lab.dataSource().getConnection(), JdbcClient.Shape.EACH);
      case jdbcBatch -> new JdbcClient(lab.dataSource().getConnection(), JdbcClient.Shape.BATCH);
      case jdbcRewrite -> new JdbcClient(lab.dataSource()
          .withProperty("reWriteBatchedInserts", "true").getConnection(), JdbcClient.Shape.BATCH);
      case jdbc42712Batch -> new JdbcClient(PreviousPgjdbc.connect(target),
          JdbcClient.Shape.BATCH);
      case jdbc42712Rewrite -> new JdbcClient(PreviousPgjdbc.connect(
          target.withParameter("reWriteBatchedInserts", "true")), JdbcClient.Shape.BATCH);
      case jdbcJoin -> new JdbcClient(lab.dataSource().getConnection(), JdbcClient.Shape.JOIN);
      case jdbcAny -> new JdbcClient(lab.dataSource().getConnection(), JdbcClient.Shape.ANY);
      case vertx1 -> new VertxClient(target, 1);
      case vertx16 -> new VertxClient(target, 16);
      case vertx256 -> new VertxClient(target, 256);
      case r2dbcFlux -> new R2dbcClient(target, R2dbcClient.Shape.FLUX, name());
      case r2dbcBatch -> new R2dbcClient(target, R2dbcClient.Shape.BATCH, name());
      case r2dbcBind -> new R2dbcClient(target, R2dbcClient.Shape.BIND, name());
      case copy -> new JdbcClient(lab.dataSource().getConnection(), JdbcClient.Shape.COPY);
    };
  }

  /** The client named {@code name} for {@code workload}, or an error that lists the names. */
  public static ClientKind of(String name, Workload workload) {
    for (ClientKind kind : values()) {
      if (kind.name().equals(name)) {
        if (!kind.workloads.contains(workload)) {
          throw new IllegalArgumentException("Invalid client '" + name + "' for " + workload
              + ": it has no " + workload + " shape of its own; " + workload + " takes "
              + namesFor(workload) + " (a --param client=... applies to every method of the"
              + " suite: narrow --include to PipelineBenchmark.<workload> as well)");
        }
        return kind;
      }
    }
    throw new IllegalArgumentException("Invalid client '" + name + "' for " + workload
        + ": expected one of " + namesFor(workload));
  }

  /** The clients of {@code workload}, comma-separated, in declaration order. */
  public static String namesFor(Workload workload) {
    StringBuilder names = new StringBuilder();
    for (ClientKind kind : values()) {
      if (kind.workloads.contains(workload)) {
        names.append(names.length() == 0 ? "" : ",").append(kind.name());
      }
    }
    return names.toString();
  }
}
