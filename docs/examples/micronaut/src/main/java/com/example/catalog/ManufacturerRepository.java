package com.example.catalog;

import io.micronaut.data.annotation.Join;
import io.micronaut.data.jdbc.annotation.JdbcRepository;
import io.micronaut.data.model.query.builder.sql.Dialect;
import io.micronaut.data.repository.CrudRepository;
import java.util.List;

@JdbcRepository(dialect = Dialect.POSTGRES)
public interface ManufacturerRepository extends CrudRepository<Manufacturer, Long> {

  /** The manufacturers alone, by name. */
  List<Manufacturer> findAllOrderByName();

  /** The manufacturers with their products, in one query: the fix. */
  @Join(value = "products", type = Join.Type.LEFT_FETCH)
  List<Manufacturer> listOrderByName();
}
