package com.example.library;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.latencylab.junit.ExpectWork;
import io.github.latencylab.junit.LabExtension;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.ActiveProfiles;

/**
 * What the database did, counted: lookups by an index over 50,000 editions, a report that sorts
 * in memory, new editions' WAL. The baseline keeps each test's rows, bytes, buffers, WAL, temp
 * bytes, allocations and each statement's plan; a dropped index, a wide select, a sort that
 * spills or an index that doubles the WAL fails the build whatever the machine's load.
 */
@ExtendWith(LabExtension.class)
@SpringBootTest
@ActiveProfiles("lab")
class EditionWorkTest {

  static final int EDITIONS = 50_000;

  @Autowired
  EditionService editions;

  // representative rows, and statistics taken after loading them: the plans mean something
  @BeforeAll
  static void load(@Autowired JdbcTemplate jdbc) {
    jdbc.execute("TRUNCATE edition");
    jdbc.execute("INSERT INTO edition (id, isbn, title, author_id, blurb)"
        + " SELECT i, 'isbn-' || i, 'Title ' || i, i % 100, repeat('x', 1000)"
        + " FROM generate_series(1, " + EDITIONS + ") i");
    jdbc.execute("ANALYZE edition");
  }

  @Test
  @ExpectWork(noSeqScanOver = 10_000)
  void tenLookupsByIsbn() {
    List<String> isbns = IntStream.rangeClosed(1, 10).mapToObj(i -> "isbn-" + i * 997).toList();
    assertThat(editions.titlesOf(isbns)).containsExactly(isbns.stream()
        .map(isbn -> "Title " + isbn.substring(5)).toArray(String[]::new));
  }

  @Test
  void titlesPerAuthor() {
    assertThat(editions.titlesPerAuthor()).hasSize(100);
  }

  @Test
  void hundredNewEditions() {
    editions.add(EDITIONS + 1L, 100);
  }
}
