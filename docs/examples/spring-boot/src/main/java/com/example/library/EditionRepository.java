package com.example.library;

import java.util.List;
import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Query;

public interface EditionRepository extends JpaRepository<Edition, Long> {

  /** The title alone: the blurb stays on the server. */
  @Query("select e.title from Edition e where e.isbn = ?1")
  String titleOf(String isbn);

  /** How many distinct titles each author has: a sort per author, in work_mem. */
  @Query("select e.authorId, count(distinct e.title) from Edition e group by e.authorId"
      + " order by e.authorId")
  List<Object[]> titlesPerAuthor();
}
