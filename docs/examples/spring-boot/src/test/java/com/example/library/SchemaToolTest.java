package com.example.library;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.latencylab.junit.ExpectRoundTrips;
import io.github.latencylab.junit.LabExtension;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * What each schema tool's test shows (SchemaFromSqlScriptsTest, SchemaFromFlywayTest,
 * SchemaFromLiquibaseTest): the tool made the tables in the Lab's schema, Hibernate found them
 * there (ddl-auto=validate), and the service's budget holds on them.
 */
@ExtendWith(LabExtension.class)
@SpringBootTest
abstract class SchemaToolTest {

  @Autowired
  LibraryService library;
  @Autowired
  JdbcTemplate jdbc;

  private final List<String> tables;

  /** The tables the tool makes: the entities' and its own. */
  SchemaToolTest(String... toolTables) {
    this.tables = List.of(toolTables);
  }

  @BeforeEach
  void seed(@Autowired AuthorRepository authors) {
    LibraryData.seed(authors);
  }

  @Test
  void itsTablesAreInTheLabsSchema() {
    List<String> inLatencyLab = jdbc.queryForList("select table_name from"
        + " information_schema.tables where table_schema = 'latency_lab'", String.class);
    assertThat(inLatencyLab).as("the tables in latency_lab")
        .contains("author", "book", "loan", "review").containsAll(tables);
    assertThat(jdbc.queryForObject("select current_schema()", String.class))
        .isEqualTo("latency_lab");
  }

  @Test
  @ExpectRoundTrips(exactly = 2) // the query (BEGIN READ ONLY rides along), then the COMMIT
  void theCatalogueIsOneQuery() {
    List<AuthorWithTitles> catalogue = library.catalogue();
    assertThat(catalogue).hasSize(LibraryData.AUTHORS);
    assertThat(catalogue.get(0).titles()).hasSize(LibraryData.BOOKS_EACH);
  }
}
