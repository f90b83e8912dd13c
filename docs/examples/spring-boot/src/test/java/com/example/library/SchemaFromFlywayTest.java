package com.example.library;

import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Order;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.ActiveProfiles;

/**
 * The schema from Flyway's migrations (application-flyway.properties, db/migration): the
 * tables and Flyway's history in latency_lab.
 */
@ActiveProfiles({"lab", "flyway"})
@SpringBootTest(properties = "spring.flyway.clean-disabled=false") // for clean(), in this test
@Order(1) // first: Flyway starts on an empty schema (or one with its history)
class SchemaFromFlywayTest extends SchemaToolTest {

  SchemaFromFlywayTest() {
    super("flyway_schema_history");
  }

  /**
   * Empties the Lab's schema for the next tool's test: this example shows three tools on one
   * schema, an application has one (and needs no clean).
   */
  @AfterAll
  static void clean(@Autowired Flyway flyway) {
    flyway.clean();
  }
}
