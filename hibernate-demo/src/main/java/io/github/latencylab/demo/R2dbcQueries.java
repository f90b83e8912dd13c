package io.github.latencylab.demo;

import io.github.latencylab.demo.Listing.AuthorWithBooks;
import io.github.latencylab.demo.Listing.BookSummary;
import io.r2dbc.spi.Connection;
import io.r2dbc.spi.Readable;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Objects;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The question of {@link NPlusOneQueries} in plain R2DBC on r2dbc-postgresql, the statements
 * ({@link PlainSql}) a Spring Data R2DBC application sends for it: the authors, then a query per author as a
 * repository's {@code findByAuthorId} would make it, one after the other ({@code concatMap})
 * or all at once ({@code flatMap}); or one join. Each method runs inside the caller's
 * transaction on {@code connection} and only reads.
 */
public final class R2dbcQueries {

  private R2dbcQueries() {
  }

  private record AuthorRow(long id, String name) {
  }

  // a row read inside the driver's mapping function: a Row is valid only there
  private record JoinedRow(long authorId, String name, BookSummary book) {
  }

  /** The N+1: the authors, then each author's books once the previous ones arrived. */
  public static Mono<List<AuthorWithBooks>> concatMap(Connection connection, int n) {
    return firstAuthors(connection, n).flatMap(authors -> Flux.fromIterable(authors)
        .concatMap(author -> withBooks(connection, author))
        .collectList());
  }

  /**
   * The N+1 written to overlap: every author's query subscribed at once ({@code flatMap},
   * Reactor's concurrency of 256), so the driver may send the next before an answer came.
   */
  public static Mono<List<AuthorWithBooks>> flatMap(Connection connection, int n) {
    return firstAuthors(connection, n).flatMap(authors -> Flux.fromIterable(authors)
        .flatMap(author -> withBooks(connection, author))
        .collectSortedList(Comparator.comparingLong(AuthorWithBooks::id)));
  }

  /** One select: the authors left-joined to their books, grouped as they stream in. */
  public static Mono<List<AuthorWithBooks>> join(Connection connection, int n) {
    return Flux.from(connection.createStatement(PlainSql.AUTHORS_JOINED).bind(0, (long) n).execute())
        .concatMap(result -> result.map(row -> new JoinedRow(row.get(0, Long.class),
            row.get(1, String.class), row.get(2, Long.class) == null ? null : book(row, 2))))
        .collect(LinkedHashMap<Long, List<JoinedRow>>::new,
            (byAuthor, row) -> byAuthor.computeIfAbsent(row.authorId(), k -> new ArrayList<>())
                .add(row))
        .map(byAuthor -> byAuthor.values().stream().map(rows -> new AuthorWithBooks(
            rows.get(0).authorId(), rows.get(0).name(),
            rows.stream().map(JoinedRow::book).filter(Objects::nonNull).toList())).toList());
  }

  private static Mono<List<AuthorRow>> firstAuthors(Connection connection, int n) {
    return Flux.from(connection.createStatement(PlainSql.FIRST_AUTHORS).bind(0, (long) n).execute())
        .concatMap(result -> result.map(row ->
            new AuthorRow(row.get(0, Long.class), row.get(1, String.class))))
        .collectList();
  }

  private static Mono<AuthorWithBooks> withBooks(Connection connection, AuthorRow author) {
    return Flux.from(connection.createStatement(PlainSql.BOOKS_OF_AUTHOR).bind(0, author.id()).execute())
        .concatMap(result -> result.map(row -> book(row, 0)))
        .collectList()
        .map(books -> new AuthorWithBooks(author.id(), author.name(), books));
  }

  private static BookSummary book(Readable row, int first) {
    return new BookSummary(row.get(first, Long.class), row.get(first + 1, String.class),
        row.get(first + 2, Integer.class));
  }
}
