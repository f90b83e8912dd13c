package com.example.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The application's own test, as it was before latency-lab: it names none of latency-lab, and
 * runs on the Lab all the same (latency-lab-micronaut gives every @MicronautTest context its
 * datasource), whichever of the test classes runs first.
 */
@MicronautTest
class CatalogApplicationTest {

  @Inject
  CatalogService catalog;

  @Inject
  ManufacturerRepository manufacturers;

  @Inject
  ProductRepository products;

  @BeforeEach
  void seed() {
    CatalogData.seed(manufacturers, products);
  }

  @Test
  void listsEachManufacturersProducts() {
    Map<String, List<String>> catalogue = catalog.catalogue();
    assertThat(catalogue).hasSize(CatalogData.MANUFACTURERS);
    assertThat(catalogue.get("Maker 01"))
        .containsExactly("Product 1.1", "Product 1.2", "Product 1.3");
  }

  @Test
  void theFixListsWhatTheLoopListed() {
    assertThat(catalog.catalogue()).isEqualTo(catalog.productNamesByManufacturer());
  }
}
