package com.example.catalog;

import java.util.ArrayList;
import java.util.List;

/** The tests' catalogue: 10 manufacturers of 3 products each, afresh. */
final class CatalogData {

  static final int MANUFACTURERS = 10;
  static final int PRODUCTS_EACH = 3;

  private CatalogData() {
  }

  static void seed(ManufacturerRepository manufacturers, ProductRepository products) {
    products.deleteAll();
    manufacturers.deleteAll();
    List<Product> all = new ArrayList<>();
    for (int m = 1; m <= MANUFACTURERS; m++) {
      Manufacturer manufacturer = manufacturers.save(new Manufacturer(String.format("Maker %02d", m)));
      for (int p = 1; p <= PRODUCTS_EACH; p++) {
        all.add(new Product("Product " + m + "." + p, manufacturer));
      }
    }
    products.saveAll(all);
  }
}
