package com.example.catalog;

import io.micronaut.core.annotation.Nullable;
import io.micronaut.data.annotation.GeneratedValue;
import io.micronaut.data.annotation.Id;
import io.micronaut.data.annotation.MappedEntity;
import io.micronaut.data.annotation.Relation;

/**
 * A product of one manufacturer (the column manufacturer_id); read without a join, its
 * manufacturer is not loaded.
 */
@MappedEntity
public record Product(
    @Id @GeneratedValue @Nullable Long id,
    String name,
    @Nullable @Relation(Relation.Kind.MANY_TO_ONE) Manufacturer manufacturer) {

  public Product(String name, Manufacturer manufacturer) {
    this(null, name, manufacturer);
  }
}
