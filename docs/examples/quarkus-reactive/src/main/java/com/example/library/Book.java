package com.example.library;

import io.quarkus.hibernate.reactive.panache.PanacheEntity;
import jakarta.persistence.Entity;
import jakarta.persistence.FetchType;
import jakarta.persistence.ManyToOne;

@Entity
public class Book extends PanacheEntity {

  @ManyToOne(fetch = FetchType.LAZY, optional = false)
  public Author author;

  public String title;
}
