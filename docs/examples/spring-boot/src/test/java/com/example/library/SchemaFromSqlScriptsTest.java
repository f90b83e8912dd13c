package com.example.library;

import org.junit.jupiter.api.Order;
import org.springframework.test.context.ActiveProfiles;

/**
 * The schema from Spring's SQL scripts (application-sql-init.properties): schema.sql makes the
 * tables in latency_lab, data.sql the catalogue (so the seed finds it there).
 */
@ActiveProfiles({"lab", "sql-init"})
@Order(3) // schema.sql drops what it makes first: after any tool, before the rest
class SchemaFromSqlScriptsTest extends SchemaToolTest {
}
