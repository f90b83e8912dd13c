package com.example.catalog;

import io.micronaut.core.annotation.Nullable;
import io.micronaut.data.annotation.GeneratedValue;
import io.micronaut.data.annotation.Id;
import io.micronaut.data.annotation.MappedEntity;
import io.micronaut.data.annotation.Relation;
import java.util.List;

/** A manufacturer and, when a query joins them, its products. */
@MappedEntity
public record Manufacturer(
    @Id @GeneratedValue @Nullable Long id,
    String name,
    @Nullable @Relation(value = Relation.Kind.ONE_TO_MANY, mappedBy = "manufacturer")
    List<Product> products) {

  public Manufacturer(String name) {
    this(null, name, null);
  }
}
