package com.example.library;

import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;

/**
 * A review of a book: its id from an IDENTITY column (bigserial), the trap. The database makes
 * the id during the insert, and Hibernate must have it at persist(), so it sends each insert
 * alone, at once, and reads its id back: hibernate.jdbc.batch_size does nothing here.
 */
@Entity
public class Review {

  @Id
  @GeneratedValue(strategy = GenerationType.IDENTITY)
  private Long id;

  private long bookId;

  private String text;

  protected Review() {
  }

  public Review(long bookId, String text) {
    this.bookId = bookId;
    this.text = text;
  }

  public Long getId() {
    return id;
  }
}
