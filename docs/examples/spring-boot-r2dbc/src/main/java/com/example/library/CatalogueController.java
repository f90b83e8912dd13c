package com.example.library;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Flux;

/** Every author with their books' titles: as an N+1, and as its fix. */
@RestController
public class CatalogueController {

  /** One author's line of the catalogue. */
  public record Entry(String author, List<String> titles) {
  }

  private final AuthorRepository authors;
  private final BookRepository books;
  private final DatabaseClient database;

  CatalogueController(AuthorRepository authors, BookRepository books, DatabaseClient database) {
    this.authors = authors;
    this.books = books;
    this.database = database;
  }

  /** The N+1: the authors, then a query for each one's books. */
  @GetMapping("/catalogue")
  public Flux<Entry> catalogue() {
    return authors.findAll().concatMap(a -> books.findByAuthorIdOrderById(a.id())
        .map(Book::title).collectList().map(titles -> new Entry(a.name(), titles)));
  }

  /** The fix: one join, grouped here. */
  @GetMapping("/catalogue/joined")
  public Flux<Entry> catalogueJoined() {
    return database.sql("SELECT a.name, b.title FROM author a LEFT JOIN book b"
            + " ON b.author_id = a.id ORDER BY a.id, b.id")
        .map((row, meta) -> new String[] {row.get(0, String.class), row.get(1, String.class)})
        .all().collectList().flatMapMany(rows -> {
          Map<String, List<String>> byAuthor = new LinkedHashMap<>();
          for (String[] r : rows) {
            List<String> titles = byAuthor.computeIfAbsent(r[0], k -> new ArrayList<>());
            if (r[1] != null) {
              titles.add(r[1]);
            }
          }
          return Flux.fromIterable(byAuthor.entrySet())
              .map(e -> new Entry(e.getKey(), e.getValue()));
        });
  }
}
