package com.example.library;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.latencylab.junit.ExpectRoundTrips;
import io.github.latencylab.junit.ExpectStatements;
import io.github.latencylab.junit.LabExtension;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.ActiveProfiles;

/**
 * saveAll of 40 rows with hibernate.jdbc.batch_size=20 (application.properties): batched with
 * a SEQUENCE id, row by row with an IDENTITY id. Each test runs once per context, on tables
 * Hibernate has just created, so the sequence's calls are the same every run.
 */
@ExtendWith(LabExtension.class)
@SpringBootTest
@ActiveProfiles("lab")
class SaveAllBatchingTest {

  static final int ROWS = 40;

  @Autowired
  LoanRepository loans;
  @Autowired
  ReviewRepository reviews;

  @Test
  @ExpectRoundTrips(exactly = 5) // 2 nextval (Hibernate's pooled ids), 2 batches of 20, COMMIT
  @ExpectStatements(exactly = 44) // BEGIN, 2 nextval, 40 inserts, COMMIT
  void sequenceIdsAreBatched() {
    List<Loan> saved = loans.saveAll(IntStream.range(0, ROWS)
        .mapToObj(i -> new Loan(1, "reader " + i)).toList());
    assertThat(saved).hasSize(ROWS).allMatch(l -> l.getId() != null);
  }

  @Test
  @ExpectRoundTrips(exactly = ROWS + 1) // the IDENTITY trap: each insert alone, then the COMMIT
  @ExpectStatements(exactly = ROWS + 2) // BEGIN, 40 inserts ... RETURNING *, COMMIT
  void identityIdsAreInsertedOneByOne() {
    List<Review> saved = reviews.saveAll(IntStream.range(0, ROWS)
        .mapToObj(i -> new Review(1, "review " + i)).toList());
    assertThat(saved).hasSize(ROWS).allMatch(r -> r.getId() != null);
  }
}
