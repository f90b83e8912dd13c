package io.github.latencylab.bench.pipeline;

import io.github.latencylab.env.Lab;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import javax.sql.DataSource;

/**
 * W2's data: the many-to-one side of an N+1. {@value #BOOKS} books, each by a different one of
 * {@value #AUTHORS} authors picked with a fixed seed; the application has the books and wants
 * their authors. The N+1 looks each author up by primary key ({@link #SELECT_AUTHOR}); the
 * fixes read them all at once, through the books ({@link #JOIN}) or by the list of ids
 * ({@link #ANY}).
 */
public final class LookupData {

  public static final String AUTHORS_TABLE = "lookup_author";
  public static final String BOOKS_TABLE = "lookup_book";
  public static final int AUTHORS = 1_000;
  public static final int BOOKS = 100;

  /** One author: what a lookup returns. */
  public record Author(long id, String name) {
  }

  /** The N+1's lookup, one per book (the author's id). */
  static final String SELECT_AUTHOR = "SELECT id, name FROM " + AUTHORS_TABLE + " WHERE id = ?";
  /** The join fix: the books' authors in one query, in the books' order. */
  static final String JOIN = "SELECT a.id, a.name FROM " + BOOKS_TABLE + " b JOIN "
      + AUTHORS_TABLE + " a ON a.id = b.author_id ORDER BY b.id";
  /** The {@code = any} fix: every id in one array parameter, one query. */
  static final String ANY = "SELECT id, name FROM " + AUTHORS_TABLE + " WHERE id = any(?)";

  private LookupData() {
  }

  /** The author of each book, book 1 first: the ids the N+1 looks up. */
  public static List<Long> authorIds() {
    // a partial Fisher-Yates shuffle of 1..AUTHORS: BOOKS distinct ids, the same every run
    long[] ids = new long[AUTHORS];
    for (int i = 0; i < AUTHORS; i++) {
      ids[i] = i + 1;
    }
    SplittableRandom random = new SplittableRandom(42);
    List<Long> picked = new ArrayList<>(BOOKS);
    for (int i = 0; i < BOOKS; i++) {
      int j = random.nextInt(i, AUTHORS);
      long swap = ids[i];
      ids[i] = ids[j];
      ids[j] = swap;
      picked.add(ids[i]);
    }
    return List.copyOf(picked);
  }

  /** What every client must return for {@link #authorIds()}. */
  public static List<Author> expected() {
    return authorIds().stream().map(id -> new Author(id, name(id))).toList();
  }

  static String name(long authorId) {
    return "author " + authorId;
  }

  /** (Re)creates both tables in the Lab's schema, the only place it may drop them. */
  public static void create(DataSource direct) throws SQLException {
    try (Connection c = direct.getConnection(); Statement st = c.createStatement()) {
      Lab.requireLabSchema(c);
      st.execute("DROP TABLE IF EXISTS " + BOOKS_TABLE + ", " + AUTHORS_TABLE);
      st.execute("CREATE TABLE " + AUTHORS_TABLE + " (id bigint PRIMARY KEY, name text NOT NULL)");
      st.execute("CREATE TABLE " + BOOKS_TABLE + " (id bigint PRIMARY KEY, title text NOT NULL,"
          + " author_id bigint NOT NULL REFERENCES " + AUTHORS_TABLE + " (id))");
      st.execute("INSERT INTO " + AUTHORS_TABLE + " SELECT g, 'author ' || g"
          + " FROM generate_series(1, " + AUTHORS + ") AS g");
      try (PreparedStatement ps = c.prepareStatement(
          "INSERT INTO " + BOOKS_TABLE + " (id, title, author_id) VALUES (?, ?, ?)")) {
        List<Long> authors = authorIds();
        for (int i = 0; i < authors.size(); i++) {
          ps.setLong(1, i + 1);
          ps.setString(2, "book " + (i + 1));
          ps.setLong(3, authors.get(i));
          ps.addBatch();
        }
        ps.executeBatch();
      }
      st.execute("VACUUM ANALYZE " + AUTHORS_TABLE + ", " + BOOKS_TABLE);
    }
  }

  /** The authors in {@code ids}' order from rows found in any order; throws if one is missing. */
  static List<Author> inOrder(List<Long> ids, Iterable<Author> found) {
    Map<Long, Author> byId = new HashMap<>();
    for (Author a : found) {
      byId.put(a.id(), a);
    }
    List<Author> ordered = new ArrayList<>(ids.size());
    for (Long id : ids) {
      Author a = byId.get(id);
      if (a == null) {
        throw new IllegalStateException("No " + AUTHORS_TABLE + " row with id " + id
            + " came back (" + byId.size() + " of " + ids.size() + " did)");
      }
      ordered.add(a);
    }
    return ordered;
  }
}
