package com.example.catalog;

import io.micronaut.data.jdbc.annotation.JdbcRepository;
import io.micronaut.data.model.query.builder.sql.Dialect;
import io.micronaut.data.repository.CrudRepository;
import java.util.List;

@JdbcRepository(dialect = Dialect.POSTGRES)
public interface ProductRepository extends CrudRepository<Product, Long> {

  /** One manufacturer's products (where manufacturer_id = ?). */
  List<Product> findByManufacturerIdOrderByName(Long manufacturerId);
}
