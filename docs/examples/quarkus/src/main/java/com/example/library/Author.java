package com.example.library;

import io.quarkus.hibernate.orm.panache.PanacheEntity;
import jakarta.persistence.Entity;
import jakarta.persistence.OneToMany;
import jakarta.persistence.OrderBy;
import java.util.ArrayList;
import java.util.List;

/** An author, Panache's active record: public fields, its id from PanacheEntity. */
@Entity
public class Author extends PanacheEntity {

  public String name;

  // lazy, as JPA makes every to-many: read one author's books and Hibernate queries them then
  @OneToMany(mappedBy = "author")
  @OrderBy("id")
  public List<Book> books = new ArrayList<>();
}
