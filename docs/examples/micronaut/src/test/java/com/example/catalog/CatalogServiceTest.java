package com.example.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.latencylab.junit.ExpectRoundTrips;
import io.github.latencylab.junit.ExpectStatements;
import io.github.latencylab.junit.LabExtension;
import io.github.latencylab.junit.RoundTrips;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The catalogue's latency budgets, counted at the wire on Micronaut's own HikariCP pool, whose
 * datasource latency-lab-micronaut points at the Lab: the fix in 2 round trips, and the loop
 * before it, an N+1 named at the loop's line, not at Micronaut's generated classes
 * ({@code ProductRepository$Intercepted}, {@code CatalogService$Intercepted}) around it.
 */
// snippet-begin micronaut-budgets
@ExtendWith(LabExtension.class)       // the budgets (the datasource is the Lab's without it)
@MicronautTest(transactional = false) // the service's own transaction, its COMMIT counted
class CatalogServiceTest {

  @Inject
  CatalogService catalog;

  @BeforeEach
  void seed(ManufacturerRepository manufacturers, ProductRepository products) {
    CatalogData.seed(manufacturers, products);
  }

  @Test
  @ExpectRoundTrips(exactly = 2) // the join (BEGIN READ ONLY rides along), then the COMMIT
  @ExpectStatements(exactly = 3) // BEGIN READ ONLY, the select with its join, COMMIT
  void theCatalogueIsOneQuery() {
    Map<String, List<String>> catalogue = catalog.catalogue();
    assertThat(catalogue).hasSize(CatalogData.MANUFACTURERS);
    assertThat(catalogue.get("Maker 01")).hasSize(CatalogData.PRODUCTS_EACH);
  }

  @Test
  void theLoopIsAnNPlusOneNamedAtItsLine() {
    assertThatThrownBy(() -> RoundTrips.assertAtMost(2, catalog::productNamesByManufacturer))
        .satisfies(failure -> assertThat(withoutOverhead(failure.getMessage())).isEqualTo(
            "expected at most 2 round trips, but there were 12 (13 SQL statements); the SQL,"
                + " read at the wire:\n"
                + "     1  BEGIN READ ONLY\n"
                + "     2  SELECT manufacturer_.\"id\",manufacturer_.\"name\" FROM"
                + " \"manufacturer\" manufacturer_ ORDER BY manufacturer_.\"name\" ASC\n"
                + "     3  SELECT product_.\"id\",product_.\"name\",product_.\"manufacturer_id\""
                + " FROM \"product\" product_ WHERE (product_.\"manufacturer_id\" = $1) ORDER BY"
                + " product_.\"name\" ASC\n"
                + "        ... the same 9 more times (4-12)\n"
                + "    13  COMMIT\n"
                + "repeated: `SELECT ... FROM \"product\" product_ WHERE"
                + " (product_.\"manufacturer_id\" = ?) ORDER BY product_.\"name\" ASC` ran 10"
                + " times from"
                + " `CatalogService.productNamesByManufacturer(CatalogService.java:26)`: an N+1;"
                + " fetch them in one query (join fetch, entity graph, batch fetch) or load by"
                + " ids\n"));
  }
  // snippet-end micronaut-budgets

  /**
   * The message without its last line about the pool's validation of a connection idle for
   * more than 500 ms (HikariCP's), which is not counted, and is there or not by timing.
   */
  private static String withoutOverhead(String message) {
    return message.replaceFirst("not counted \\(overhead[^\n]*\n$", "");
  }
}
