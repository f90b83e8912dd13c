package io.github.latencylab.demo;

import io.github.latencylab.demo.Listing.AuthorWithBooks;
import io.github.latencylab.demo.Listing.BookSummary;
import io.github.latencylab.demo.Listing.BookWithAuthor;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.hibernate.Session;
import org.hibernate.jpa.SpecHints;

/**
 * One question, "list the first {@code n} authors with their books", answered the ways a
 * Hibernate application can answer it: one method per fetch strategy, each returning the same
 * data. And the many-to-one variant, "list the {@code n} newest books with their author".
 *
 * <p>Every method runs inside the caller's open session and transaction; it only reads. The
 * first {@code n} authors are those with ids 1 to {@code n} (the seeder's ids are dense); the
 * newest books are those with the highest ids, which the seeder gives to different authors.
 * The SQL statements each makes, counted at the wire, are in {@link NPlusOneStrategy} and
 * asserted in the tests.
 */
public final class NPlusOneQueries {

  static final String FIRST_AUTHORS = "from Author a where a.id <= :n order by a.id";

  private NPlusOneQueries() {
  }

  /** The N+1: one select for the authors, then one per author as its books are touched. */
  public static List<AuthorWithBooks> lazyLoop(Session session, int n) {
    requireNoBatchFetching(session, "lazyLoop");
    return touchEach(firstAuthors(session, n), Author::getBooks);
  }

  /** One select: the authors left-joined to their books. */
  public static List<AuthorWithBooks> joinFetch(Session session, int n) {
    List<Author> authors = session.createSelectionQuery(
            "from Author a left join fetch a.books where a.id <= :n order by a.id", Author.class)
        .setParameter("n", (long) n)
        .getResultList();
    return touchEach(authors, Author::getBooks);
  }

  /**
   * One select: the plain query with the named entity graph {@link Author#WITH_BOOKS} as a
   * fetch graph, which Hibernate turns into the same left join.
   */
  public static List<AuthorWithBooks> entityGraph(Session session, int n) {
    List<Author> authors = session.createSelectionQuery(FIRST_AUTHORS, Author.class)
        .setParameter("n", (long) n)
        .setHint(SpecHints.HINT_SPEC_FETCH_GRAPH, session.getEntityGraph(Author.WITH_BOOKS))
        .getResultList();
    return touchEach(authors, Author::getBooks);
  }

  /** {@code @BatchSize(size = 16)}: the authors, then one select per 16 authors' books. */
  public static List<AuthorWithBooks> batchFetch16(Session session, int n) {
    return touchEach(firstAuthors(session, n), Author::getBooksBatch16);
  }

  /** {@code @BatchSize(size = 64)}: the authors, then one select per 64 authors' books. */
  public static List<AuthorWithBooks> batchFetch64(Session session, int n) {
    return touchEach(firstAuthors(session, n), Author::getBooksBatch64);
  }

  /**
   * The plain mapping in a SessionFactory built with {@code hibernate.default_batch_fetch_size}
   * ({@link Library#DEFAULT_BATCH_FETCH_SIZE}): the authors, then one select per that many
   * authors' books. The session must come from {@link Library.Tuning#DEFAULT_BATCH_FETCH}.
   */
  public static List<AuthorWithBooks> batchFetchDefault(Session session, int n) {
    if (session.getFetchBatchSize() <= 1) {
      throw new IllegalStateException("batchFetchDefault needs a session from the"
          + " SessionFactory built with hibernate.default_batch_fetch_size"
          + " (Library.Tuning.DEFAULT_BATCH_FETCH)");
    }
    return touchEach(firstAuthors(session, n), Author::getBooks);
  }

  /**
   * {@code @Fetch(SUBSELECT)}: the authors, then, on the first touch, every loaded author's
   * books in one select that repeats the authors' query as a subselect.
   */
  public static List<AuthorWithBooks> subselectFetch(Session session, int n) {
    return touchEach(firstAuthors(session, n), Author::getBooksSubselect);
  }

  /** One select of just the columns needed, no entities: rows grouped by author in Java. */
  public static List<AuthorWithBooks> dtoProjection(Session session, int n) {
    List<Object[]> rows = session.createSelectionQuery(
            "select a.id, a.name, b.id, b.title, b.published"
                + " from Author a left join a.books b"
                + " where a.id <= :n order by a.id, b.id", Object[].class)
        .setParameter("n", (long) n)
        .getResultList();
    List<AuthorWithBooks> out = new ArrayList<>();
    long authorId = -1;
    String authorName = null;
    List<BookSummary> books = new ArrayList<>();
    for (Object[] row : rows) {
      long id = (Long) row[0];
      if (id != authorId) {
        if (authorName != null) {
          out.add(new AuthorWithBooks(authorId, authorName, books));
        }
        authorId = id;
        authorName = (String) row[1];
        books = new ArrayList<>();
      }
      if (row[2] != null) {
        books.add(new BookSummary((Long) row[2], (String) row[3], (Integer) row[4]));
      }
    }
    if (authorName != null) {
      out.add(new AuthorWithBooks(authorId, authorName, books));
    }
    return out;
  }

  /**
   * The many-to-one N+1: one select for the books, then one per book as its lazy author (a
   * proxy) is touched, when the books have different authors.
   */
  public static List<BookWithAuthor> manyToOneLazyLoop(Session session, int n) {
    requireNoBatchFetching(session, "manyToOneLazyLoop");
    List<Book> books = session.createSelectionQuery("from Book b order by b.id desc", Book.class)
        .setMaxResults(n)
        .getResultList();
    return books.stream().map(BookWithAuthor::of).toList();
  }

  /** Its fix: one select, the books joined to their authors. */
  public static List<BookWithAuthor> manyToOneJoinFetch(Session session, int n) {
    List<Book> books = session.createSelectionQuery(
            "from Book b join fetch b.author order by b.id desc", Book.class)
        .setMaxResults(n)
        .getResultList();
    return books.stream().map(BookWithAuthor::of).toList();
  }

  private static List<Author> firstAuthors(Session session, int n) {
    return session.createSelectionQuery(FIRST_AUTHORS, Author.class)
        .setParameter("n", (long) n)
        .getResultList();
  }

  private static List<AuthorWithBooks> touchEach(List<Author> authors,
      Function<Author, List<Book>> books) {
    List<AuthorWithBooks> out = new ArrayList<>(authors.size());
    for (Author author : authors) {
      out.add(AuthorWithBooks.of(author, books.apply(author))); // initializes the collection
    }
    return out;
  }

  private static void requireNoBatchFetching(Session session, String strategy) {
    if (session.getFetchBatchSize() > 1 || session.isSubselectFetchingEnabled()) {
      throw new IllegalStateException(strategy + " needs a session without batch or subselect"
          + " fetching (Library.Tuning.MAPPED), got fetch batch size "
          + session.getFetchBatchSize());
    }
  }
}
