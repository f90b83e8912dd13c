package com.example.library;

import java.util.List;
import org.springframework.data.jpa.repository.EntityGraph;
import org.springframework.data.jpa.repository.JpaRepository;

public interface AuthorRepository extends JpaRepository<Author, Long> {

  /** The authors with their books, in one query: the entity graph joins them in. */
  @EntityGraph(attributePaths = "books")
  List<Author> findAllWithBooksByOrderByIdAsc();

  /** The authors alone: each one's books are loaded when first read (lazily). */
  List<Author> findAllByOrderByIdAsc();
}
