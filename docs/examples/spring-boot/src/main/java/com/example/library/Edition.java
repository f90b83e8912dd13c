package com.example.library;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Index;
import jakarta.persistence.Table;

/**
 * An edition of a title in the shop's catalogue, looked up by its ISBN: a table of tens of
 * thousands of rows, each with a blurb of a kilobyte that lookups never need.
 */
@Entity
@Table(indexes = @Index(name = "edition_isbn", columnList = "isbn"))
public class Edition {

  @Id
  private Long id;

  private String isbn;

  private String title;

  private long authorId;

  @Column(length = 2000)
  private String blurb;

  protected Edition() {
  }

  public Edition(long id, String isbn, String title, long authorId, String blurb) {
    this.id = id;
    this.isbn = isbn;
    this.title = title;
    this.authorId = authorId;
    this.blurb = blurb;
  }

  public String getTitle() {
    return title;
  }

  public String getBlurb() {
    return blurb;
  }
}
