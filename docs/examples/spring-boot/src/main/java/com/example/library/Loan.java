package com.example.library;

import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.SequenceGenerator;

/**
 * A loan of a book: its id from a sequence, 50 ids per call (allocationSize), so Hibernate knows
 * each id before the insert and sends saveAll's inserts in JDBC batches.
 */
@Entity
public class Loan {

  @Id
  @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "loan_ids")
  @SequenceGenerator(name = "loan_ids", sequenceName = "loan_ids", allocationSize = 50)
  private Long id;

  private long bookId;

  private String reader;

  protected Loan() {
  }

  public Loan(long bookId, String reader) {
    this.bookId = bookId;
    this.reader = reader;
  }

  public Long getId() {
    return id;
  }
}
