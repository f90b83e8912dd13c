package io.github.latencylab.demo;

import jakarta.persistence.Entity;
import jakarta.persistence.FetchType;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.ManyToOne;
import jakarta.persistence.SequenceGenerator;
import jakarta.persistence.Table;

/** A book and its author (many-to-one, lazy: the author is a proxy until touched). */
@Entity
@Table(name = "book")
public class Book {

  @Id
  @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "book_seq")
  @SequenceGenerator(name = "book_seq", sequenceName = "book_seq", allocationSize = 50)
  private Long id;

  private String title;

  private int published;

  @ManyToOne(fetch = FetchType.LAZY, optional = false)
  @JoinColumn(name = "author_id")
  private Author author;

  protected Book() {
  }

  Book(Author author, String title, int published) {
    this.author = author;
    this.title = title;
    this.published = published;
  }

  public Long getId() {
    return id;
  }

  public String getTitle() {
    return title;
  }

  /** The year of publication. */
  public int getPublished() {
    return published;
  }

  public Author getAuthor() {
    return author;
  }
}
