package io.github.latencylab.demo;

/**
 * The question of {@link NPlusOneQueries} in SQL written by hand, for the clients without an ORM
 * ({@link R2dbcQueries}, {@link VertxQueries}): what a repository's derived queries send.
 */
final class PlainSql {

  static final String FIRST_AUTHORS = "select id, name from author where id <= $1 order by id";
  static final String BOOKS_OF_AUTHOR =
      "select id, title, published from book where author_id = $1 order by id";
  static final String AUTHORS_JOINED = "select a.id, a.name, b.id, b.title, b.published"
      + " from author a left join book b on b.author_id = a.id where a.id <= $1"
      + " order by a.id, b.id";

  private PlainSql() {
  }
}
