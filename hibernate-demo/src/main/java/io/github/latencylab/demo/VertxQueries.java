package io.github.latencylab.demo;

import io.github.latencylab.demo.Listing.AuthorWithBooks;
import io.github.latencylab.demo.Listing.BookSummary;
import io.vertx.core.Future;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.List;

/**
 * The N+1 the one reactive client here that pipelines can overlap: Vert.x's PostgreSQL client
 * (the one under Hibernate Reactive and Quarkus), with the statements of {@link PlainSql}
 * sent by hand. It sends a command without waiting for the previous one's answer, up to its
 * pipelining limit (256 by default), so a query per author issued all at once crosses the
 * wire together.
 */
public final class VertxQueries {

  private VertxQueries() {
  }

  /** The authors, then every author's query at once; the answers in the authors' order. */
  public static Future<List<AuthorWithBooks>> pipelined(SqlConnection connection, int n) {
    return connection.preparedQuery(PlainSql.FIRST_AUTHORS).execute(Tuple.of((long) n))
        .compose(authors -> {
          List<Future<AuthorWithBooks>> each = new ArrayList<>(authors.size());
          for (Row author : authors) {
            long id = author.getLong(0);
            String name = author.getString(1);
            each.add(connection.preparedQuery(PlainSql.BOOKS_OF_AUTHOR).execute(Tuple.of(id))
                .map(rows -> {
                  List<BookSummary> books = new ArrayList<>(rows.size());
                  for (Row book : rows) {
                    books.add(new BookSummary(book.getLong(0), book.getString(1),
                        book.getInteger(2)));
                  }
                  return new AuthorWithBooks(id, name, books);
                }));
          }
          return Future.all(each).map(done -> each.stream().map(Future::result).toList());
        });
  }
}
