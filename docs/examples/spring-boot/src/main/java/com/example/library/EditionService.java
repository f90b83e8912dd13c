package com.example.library;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/** The shop's catalogue of editions: lookups by ISBN, a report, new editions. */
@Service
public class EditionService {

  private final EditionRepository editions;

  public EditionService(EditionRepository editions) {
    this.editions = editions;
  }

  /** The titles of a basket's ISBNs, one lookup each. */
  @Transactional(readOnly = true)
  public List<String> titlesOf(List<String> isbns) {
    List<String> titles = new ArrayList<>();
    for (String isbn : isbns) {
      titles.add(editions.titleOf(isbn));
    }
    return titles;
  }

  /** Distinct titles per author, as rows of (author id, count). */
  @Transactional(readOnly = true)
  public List<Object[]> titlesPerAuthor() {
    return editions.titlesPerAuthor();
  }

  // a kilobyte of letters, the same for the same id: text that compresses as little as prose
  static String blurb(long id) {
    Random letters = new Random(id);
    StringBuilder s = new StringBuilder(1000);
    for (int i = 0; i < 1000; i++) {
      s.append((char) ('a' + letters.nextInt(26)));
    }
    return s.toString();
  }

  /** Adds editions, ids from {@code firstId} on, in JDBC batches. */
  @Transactional
  public void add(long firstId, int count) {
    List<Edition> added = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      long id = firstId + i;
      added.add(new Edition(id, "isbn-" + id, "Title " + id, id % 100, blurb(id)));
    }
    editions.saveAll(added);
  }
}
