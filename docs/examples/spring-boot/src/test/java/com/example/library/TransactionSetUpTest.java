package com.example.library;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.latencylab.junit.ExpectRoundTrips;
import io.github.latencylab.junit.LabExtension;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.ActiveProfiles;

/**
 * Spring's transaction set-up shows on the wire when a transaction asks for an isolation level:
 * listed apart and not counted, unless the budget asks (includeOverhead).
 */
@ExtendWith(LabExtension.class)
@SpringBootTest
@ActiveProfiles("lab")
class TransactionSetUpTest {

  @Autowired
  LibraryService library;

  @BeforeEach
  void seed(@Autowired AuthorRepository authors) {
    LibraryData.seed(authors);
  }

  @Test
  @ExpectRoundTrips(exactly = 2) // the count (BEGIN rides along) and the COMMIT
  void aSerializableCountIsItsQueryAndItsCommit() {
    assertThat(library.authorCount()).isEqualTo(LibraryData.AUTHORS);
  }

  @Test
  // + Spring's set-up: SHOW TRANSACTION ISOLATION LEVEL, SET SESSION CHARACTERISTICS AS
  // TRANSACTION ISOLATION LEVEL SERIALIZABLE, and after the COMMIT the same SET back
  @ExpectRoundTrips(exactly = 5, includeOverhead = true)
  void withSpringsSetUpAndResetItIsFive() {
    assertThat(library.authorCount()).isEqualTo(LibraryData.AUTHORS);
  }
}
