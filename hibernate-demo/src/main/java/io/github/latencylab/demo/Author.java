package io.github.latencylab.demo;

import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.NamedAttributeNode;
import jakarta.persistence.NamedEntityGraph;
import jakarta.persistence.OneToMany;
import jakarta.persistence.SequenceGenerator;
import jakarta.persistence.Table;
import java.util.ArrayList;
import java.util.List;
import org.hibernate.annotations.BatchSize;
import org.hibernate.annotations.Fetch;
import org.hibernate.annotations.FetchMode;

/**
 * An author and the books they wrote (one-to-many, lazy).
 *
 * <p>{@link #getBooks()} is the association as an application would map it: plain, lazy. The
 * other three collections map the <em>same</em> foreign key ({@code book.author_id}) again,
 * read-only (inverse, {@code mappedBy}), each with one fetch tuning, so that every strategy
 * runs against the same tables and the same SessionFactory. In an application you would put
 * one of these annotations on the one collection instead.
 */
@Entity
@Table(name = "author")
@NamedEntityGraph(name = Author.WITH_BOOKS, attributeNodes = @NamedAttributeNode("books"))
public class Author {

  /** The named entity graph that fetches {@link #getBooks()} with the author. */
  public static final String WITH_BOOKS = "Author.withBooks";

  @Id
  @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "author_seq")
  @SequenceGenerator(name = "author_seq", sequenceName = "author_seq", allocationSize = 50)
  private Long id;

  private String name;

  @OneToMany(mappedBy = "author")
  private List<Book> books = new ArrayList<>();

  /** Loaded with up to 15 other authors' books in one {@code author_id = any(?)} select. */
  @OneToMany(mappedBy = "author")
  @BatchSize(size = 16)
  private List<Book> booksBatch16 = new ArrayList<>();

  /** Loaded with up to 63 other authors' books in one select. */
  @OneToMany(mappedBy = "author")
  @BatchSize(size = 64)
  private List<Book> booksBatch64 = new ArrayList<>();

  /**
   * Loaded, on first access, for every author the query that loaded this one returned: one
   * select with the original query as a subselect.
   */
  @OneToMany(mappedBy = "author")
  @Fetch(FetchMode.SUBSELECT)
  private List<Book> booksSubselect = new ArrayList<>();

  protected Author() {
  }

  public Author(String name) {
    this.name = name;
  }

  public Long getId() {
    return id;
  }

  public String getName() {
    return name;
  }

  public List<Book> getBooks() {
    return books;
  }

  public List<Book> getBooksBatch16() {
    return booksBatch16;
  }

  public List<Book> getBooksBatch64() {
    return booksBatch64;
  }

  public List<Book> getBooksSubselect() {
    return booksSubselect;
  }

  /** Adds a book to {@link #getBooks()} and sets its author (the owning side). */
  public Book addBook(String title, int published) {
    Book book = new Book(this, title, published);
    books.add(book);
    return book;
  }
}
