package com.example.library;

import jakarta.persistence.CascadeType;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.OneToMany;
import jakarta.persistence.OrderBy;
import jakarta.persistence.SequenceGenerator;
import java.util.ArrayList;
import java.util.List;

@Entity
public class Author {

  @Id
  @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "author_ids")
  @SequenceGenerator(name = "author_ids", sequenceName = "author_ids", allocationSize = 50)
  private Long id;

  private String name;

  // lazy, as JPA makes every to-many: read one author's books and Hibernate queries them then
  @OneToMany(mappedBy = "author", cascade = CascadeType.PERSIST)
  @OrderBy("id")
  private List<Book> books = new ArrayList<>();

  protected Author() {
  }

  public Author(String name) {
    this.name = name;
  }

  public Book write(String title) {
    Book book = new Book(this, title);
    books.add(book);
    return book;
  }

  public Long getId() {
    return id;
  }

  public String getName() {
    return name;
  }

  public void setName(String name) {
    this.name = name;
  }

  public List<Book> getBooks() {
    return books;
  }
}
