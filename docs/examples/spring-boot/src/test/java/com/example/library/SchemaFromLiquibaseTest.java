package com.example.library;

import org.junit.jupiter.api.Order;
import org.springframework.test.context.ActiveProfiles;

/**
 * The schema from Liquibase's changelog (application-liquibase.properties,
 * db/changelog/db.changelog-master.yaml): the tables and Liquibase's own in latency_lab.
 */
@ActiveProfiles({"lab", "liquibase"})
@Order(2) // after SchemaFromFlywayTest, which leaves the schema empty
class SchemaFromLiquibaseTest extends SchemaToolTest {

  SchemaFromLiquibaseTest() {
    super("databasechangelog", "databasechangeloglock");
  }
}
