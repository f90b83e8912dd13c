package com.example.catalog;

import io.micronaut.transaction.annotation.ReadOnly;
import jakarta.inject.Singleton;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The catalogue: each manufacturer's product names, by manufacturer name. */
@Singleton
public class CatalogService {

  private final ManufacturerRepository manufacturers;
  private final ProductRepository products;

  public CatalogService(ManufacturerRepository manufacturers, ProductRepository products) {
    this.manufacturers = manufacturers;
    this.products = products;
  }

  /** The catalogue as first written: the manufacturers, then a query per manufacturer (N+1). */
  @ReadOnly
  public Map<String, List<String>> productNamesByManufacturer() {
    Map<String, List<String>> catalogue = new LinkedHashMap<>();
    for (Manufacturer manufacturer : manufacturers.findAllOrderByName()) {
      List<Product> theirs = products.findByManufacturerIdOrderByName(manufacturer.id());
      catalogue.put(manufacturer.name(), theirs.stream().map(Product::name).toList());
    }
    return catalogue;
  }

  /** The same catalogue in one query: the manufacturers joined with their products. */
  @ReadOnly
  public Map<String, List<String>> catalogue() {
    Map<String, List<String>> catalogue = new LinkedHashMap<>();
    for (Manufacturer manufacturer : manufacturers.listOrderByName()) {
      catalogue.put(manufacturer.name(),
          manufacturer.products().stream().map(Product::name).sorted().toList());
    }
    return catalogue;
  }
}
