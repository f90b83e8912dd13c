package com.example.library;

import io.quarkus.panache.common.Sort;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import java.util.ArrayList;
import java.util.List;

@ApplicationScoped
public class LibraryService {

  /** The catalogue: every author with their titles, in one query (join fetch). */
  @Transactional
  public List<AuthorWithTitles> catalogue() {
    List<Author> authors = Author.list("from Author a left join fetch a.books order by a.id");
    return authors.stream().map(AuthorWithTitles::of).toList();
  }

  /**
   * The catalogue as it was before the fix: the authors, then a query per author for their
   * books, an N+1. Kept so that RevertedFixTest shows what a budget says about it.
   */
  @Transactional
  public List<AuthorWithTitles> catalogueBeforeTheFix() {
    List<AuthorWithTitles> catalogue = new ArrayList<>();
    for (Author author : Author.<Author>listAll(Sort.by("id"))) {
      List<Book> books = Book.list("author", Sort.by("id"), author); // a query per author
      catalogue.add(new AuthorWithTitles(author.name, books.stream().map(b -> b.title).toList()));
    }
    return catalogue;
  }

  /**
   * The same loop reading each author's lazy books instead: Quarkus turns Hibernate's batch
   * fetching on (quarkus.hibernate-orm.fetch.batch-size=16), so the books of up to 16 authors
   * come in one query, not one per author.
   */
  @Transactional
  public List<AuthorWithTitles> catalogueLazily() {
    List<AuthorWithTitles> catalogue = new ArrayList<>();
    for (Author author : Author.<Author>listAll(Sort.by("id"))) {
      List<String> titles = new ArrayList<>();
      for (Book book : author.books) { // the first author's books load those of 16 authors
        titles.add(book.title);
      }
      catalogue.add(new AuthorWithTitles(author.name, titles));
    }
    return catalogue;
  }

  /** Renames an author: the select, the update Hibernate flushes, and the commit. */
  @Transactional
  public void rename(long authorId, String name) {
    Author author = Author.findById(authorId);
    author.name = name;
  }
}
