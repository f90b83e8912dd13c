package com.example.library;

import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.quarkus.panache.common.Sort;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;

@ApplicationScoped
public class LibraryService {

  /** The catalogue: every author with their titles, in one query (join fetch). */
  @WithSession
  public Uni<List<AuthorWithTitles>> catalogue() {
    return Author.<Author>list("from Author a left join fetch a.books order by a.id")
        .map(authors -> authors.stream().map(a -> AuthorWithTitles.of(a, a.books)).toList());
  }

  /**
   * The catalogue as it was before the fix: the authors, then a query per author for their
   * books, each sent when the previous one's answer came: an N+1, on the event loop as on
   * JDBC. Kept so that its test shows what a budget says about it.
   */
  @WithSession
  public Uni<List<AuthorWithTitles>> catalogueBeforeTheFix() {
    return Author.<Author>listAll(Sort.by("id")).chain(authors -> Multi.createFrom()
        .iterable(authors)
        .onItem().transformToUniAndConcatenate(author -> Book.<Book>list("author",
            Sort.by("id"), author).map(books -> AuthorWithTitles.of(author, books)))
        .collect().asList());
  }
}
