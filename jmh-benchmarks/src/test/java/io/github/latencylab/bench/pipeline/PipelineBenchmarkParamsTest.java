package io.github.latencylab.bench.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.annotations.Param;

/**
 * The suite runs only cells that exist: each workload's client parameter lists exactly the
 * clients with a shape of their own for it, and a name given by hand that is not one of them
 * is refused with the names that are.
 */
class PipelineBenchmarkParamsTest {

  @Test
  void eachWorkloadListsExactlyItsClients() throws NoSuchFieldException {
    assertThat(clients(PipelineBenchmark.Inserts.class)).as("inserts' clients")
        .isEqualTo(ClientKind.namesFor(ClientKind.Workload.inserts))
        .isEqualTo("jdbcOneByOne,jdbcBatch,jdbcRewrite,jdbc42712Batch,jdbc42712Rewrite,vertx1,"
            + "vertx16,vertx256,r2dbcFlux,r2dbcBatch,r2dbcBind,copy");
    assertThat(clients(PipelineBenchmark.Lookups.class)).as("lookups' clients")
        .isEqualTo(ClientKind.namesFor(ClientKind.Workload.lookups))
        .isEqualTo("jdbcOneByOne,jdbcJoin,jdbcAny,vertx1,vertx16,vertx256,r2dbcFlux,r2dbcBatch,"
            + "r2dbcBind");
    assertThat(clients(PipelineBenchmark.Tpcb.class)).as("tpcb's clients")
        .isEqualTo(ClientKind.namesFor(ClientKind.Workload.tpcb))
        .isEqualTo("jdbcOneByOne,vertx1,vertx16,vertx256,r2dbcFlux,r2dbcBatch");
  }

  @Test
  void onlyInsertsHaveRows() throws NoSuchFieldException {
    assertThat(PipelineBenchmark.Inserts.class.getField("rows").getAnnotation(Param.class)
        .value()).containsExactly("100", "1000", "10000");
    assertThat(Arrays.stream(PipelineBenchmark.Lookups.class.getFields())
        .filter(f -> f.isAnnotationPresent(Param.class)).map(f -> f.getName()))
        .containsExactly("client");
    assertThat(Arrays.stream(PipelineBenchmark.Tpcb.class.getFields())
        .filter(f -> f.isAnnotationPresent(Param.class)).map(f -> f.getName()))
        .containsExactly("client");
  }

  @Test
  void aClientWithoutAShapeForTheWorkloadIsRefusedWithTheNamesThatAre() {
    assertThat(ClientKind.of("vertx16", ClientKind.Workload.tpcb)).isEqualTo(ClientKind.vertx16);
    assertThatThrownBy(() -> ClientKind.of("copy", ClientKind.Workload.lookups))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Invalid client 'copy' for lookups: it has no lookups shape of its own;"
            + " lookups takes jdbcOneByOne,jdbcJoin,jdbcAny,vertx1,vertx16,vertx256,r2dbcFlux,"
            + "r2dbcBatch,r2dbcBind (a --param client=... applies to every method of the suite:"
            + " narrow --include to PipelineBenchmark.<workload> as well)");
    assertThatThrownBy(() -> ClientKind.of("vertx8", ClientKind.Workload.tpcb))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Invalid client 'vertx8' for tpcb: expected one of jdbcOneByOne,vertx1,"
            + "vertx16,vertx256,r2dbcFlux,r2dbcBatch");
  }

  private static String clients(Class<?> state) throws NoSuchFieldException {
    return String.join(",", state.getField("client").getAnnotation(Param.class).value());
  }
}
