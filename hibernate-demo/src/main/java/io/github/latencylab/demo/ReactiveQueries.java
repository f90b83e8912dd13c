package io.github.latencylab.demo;

import io.github.latencylab.demo.Listing.AuthorWithBooks;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import java.util.List;
import java.util.function.Function;
import org.hibernate.reactive.mutiny.Mutiny;

/**
 * The question of {@link NPlusOneQueries}, "list the first {@code n} authors with their books",
 * answered with Hibernate Reactive's Mutiny session on the Vert.x PostgreSQL client, the way a
 * Quarkus application on Hibernate Reactive (Panache) answers it. The same entities, the same
 * tables, the same data.
 *
 * <p>A lazy association is never loaded by touching it here: {@link Mutiny#fetch} asks for it
 * and returns a {@link Uni}. Each method runs inside the caller's session and transaction and
 * only reads.
 */
public final class ReactiveQueries {

  private ReactiveQueries() {
  }

  /** The N+1: the authors, then each author's books fetched when the previous ones arrived. */
  public static Uni<List<AuthorWithBooks>> lazyLoop(Mutiny.Session session, int n) {
    return fetchEach(session, n, Author::getBooks);
  }

  /** One select: the authors left-joined to their books. */
  public static Uni<List<AuthorWithBooks>> joinFetch(Mutiny.Session session, int n) {
    return session.createSelectionQuery(
            "from Author a left join fetch a.books where a.id <= :n order by a.id", Author.class)
        .setParameter("n", (long) n)
        .getResultList()
        .map(authors -> authors.stream().map(a -> AuthorWithBooks.of(a, a.getBooks())).toList());
  }

  /** {@code @BatchSize(size = 16)}: each fetch loads 16 authors' books. */
  public static Uni<List<AuthorWithBooks>> batchFetch16(Mutiny.Session session, int n) {
    return fetchEach(session, n, Author::getBooksBatch16);
  }

  // the first n authors, then each one's collection fetched once the previous one's arrived
  private static Uni<List<AuthorWithBooks>> fetchEach(Mutiny.Session session, int n,
      Function<Author, List<Book>> collection) {
    return session.createSelectionQuery(NPlusOneQueries.FIRST_AUTHORS, Author.class)
        .setParameter("n", (long) n)
        .getResultList()
        .chain(authors -> Multi.createFrom().iterable(authors)
            .onItem().transformToUniAndConcatenate(author -> Mutiny.fetch(
                collection.apply(author)).map(books -> AuthorWithBooks.of(author, books)))
            .collect().asList());
  }
}
