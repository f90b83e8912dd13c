package io.github.latencylab.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.latencylab.env.BackendKind;
import io.github.latencylab.env.Lab;
import io.github.latencylab.env.LabConfig;
import io.github.latencylab.junit.LabExtension;
import io.github.latencylab.wire.WireStats;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import org.hibernate.Session;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Writes through Hibernate: SEQUENCE ids allocated 50 at a time and inserts batched by 50,
 * above the seeded rows.
 */
class SequenceIdsTest {

  @RegisterExtension
  static final LabExtension LAB =
      LabExtension.withConfig(LabConfig.fromEnvironment().withBackend(BackendKind.EMBEDDED));

  static Library library;

  @BeforeAll
  static void seed(Lab lab) {
    library = Library.create(lab, Library.Tuning.MAPPED).seed(100, 10); // the one it uses
  }

  @AfterAll
  static void close() {
    library.close();
  }

  @Test
  void aLibraryHasTheSessionFactoriesItWasCreatedWithAndNoOther() {
    assertThat(library.sessionFactory(Library.Tuning.MAPPED).isOpen()).isTrue();
    assertThatThrownBy(() -> library.sessionFactory(Library.Tuning.DEFAULT_BATCH_FETCH))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("This Library was created without the DEFAULT_BATCH_FETCH SessionFactory");
  }

  @Test
  void fortyAuthorsWithTwoBooksEachInSevenRoundTrips(Lab lab, Connection connection) {
    List<Author> authors = new ArrayList<>();
    List<String> sql;
    WireStats cost;
    try (Session session = library.sessionFactory(Library.Tuning.MAPPED).withOptions()
        .connection(connection).openSession()) {
      WireStats before = lab.wire(connection).snapshot();
      session.beginTransaction();
      for (int i = 0; i < 40; i++) {
        Author author = new Author("New author " + i);
        author.addBook("First book " + i, 2024);
        author.addBook("Second book " + i, 2025);
        session.persist(author);
        session.persist(author.getBooks().get(0));
        session.persist(author.getBooks().get(1));
        authors.add(author);
      }
      session.getTransaction().commit();
      cost = lab.wire(connection).snapshot().minus(before);
      sql = lab.wire(connection).sqlSince(before);
    }
    // ids: one nextval per 50 (pooled optimizer), continuing above the seeded 100 x 1,000
    assertThat(authors).extracting(Author::getId).first().isEqualTo(101L);
    assertThat(authors).extracting(Author::getId).last().isEqualTo(140L);
    assertThat(authors.get(0).getBooks()).extracting(Book::getId).containsExactly(1001L, 1002L);
    assertThat(sql).filteredOn(s -> s.startsWith("select nextval")).containsExactly(
        "select nextval('author_seq')", "select nextval('book_seq')",
        "select nextval('book_seq')"); // 80 books: two pools of 50
    // BEGIN with the first nextval; 3 nextval; 40 author inserts in one JDBC batch, 80 book
    // inserts in two (batch_size 50, order_inserts); COMMIT
    assertThat(cost.statements()).isEqualTo(1 + 3 + 40 + 80 + 1);
    assertThat(cost.roundTrips()).isEqualTo(3 + 1 + 2 + 1);
  }
}
