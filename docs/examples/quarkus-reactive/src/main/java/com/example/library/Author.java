package com.example.library;

import io.quarkus.hibernate.reactive.panache.PanacheEntity;
import jakarta.persistence.Entity;
import jakarta.persistence.OneToMany;
import jakarta.persistence.OrderBy;
import java.util.ArrayList;
import java.util.List;

/** An author, Panache's active record on Hibernate Reactive. */
@Entity
public class Author extends PanacheEntity {

  public String name;

  // lazy: on the event loop never touched, fetched (Mutiny.fetch) or joined in the query
  @OneToMany(mappedBy = "author")
  @OrderBy("id")
  public List<Book> books = new ArrayList<>();
}
