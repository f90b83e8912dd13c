package io.github.latencylab.demo;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.latencylab.env.BackendKind;
import io.github.latencylab.env.Lab;
import io.github.latencylab.env.LabConfig;
import io.github.latencylab.junit.LabExtension;
import io.github.latencylab.junit.RoundTrips;
import java.sql.Connection;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A reactive N+1 named at the application's line that asked for it, not at Mutiny's, Reactor's,
 * Vert.x's or Netty's: Hibernate Reactive and r2dbc-postgresql send their statements on an event
 * loop, after the application's code returned, and the relay counts them on a thread of its own.
 */
class ReactiveCallSitesTest {

  @RegisterExtension
  static final LabExtension LAB =
      LabExtension.withConfig(LabConfig.fromEnvironment().withBackend(BackendKind.EMBEDDED));

  static Library library;

  @BeforeAll
  static void seed(Lab lab) {
    library = Library.create(lab).seed(20, 2);
  }

  @AfterAll
  static void close() {
    library.close();
  }

  @ParameterizedTest(name = "{0}: the N+1 named at {1}")
  @CsvSource(delimiter = '|', value = {
      // Mutiny.fetch sends as it is called: its statement is named at the line that called it,
      // or (when the relay read it after) at the next of the same lambda
      "hrLazyLoop     | ReactiveQueries.fetchEach\\(ReactiveQueries.java:5[12]\\)",
      "r2dbcConcatMap | R2dbcQueries.withBooks\\(R2dbcQueries.java:72\\)",
      "r2dbcFlatMap   | R2dbcQueries.withBooks\\(R2dbcQueries.java:72\\)",
      // Vert.x's own futures are neither Mutiny nor Reactor: nothing names their line (nor
      // is it an N+1 at the wire: the client pipelines them)
      "vertxPipelined | \\(no application frame\\)",
  })
  void theNPlusOneIsNamedAtTheApplicationsLine(String strategy, String site,
      Connection connection) {
    assertThatThrownBy(() -> RoundTrips.assertStatementsAtMost(3,
        () -> library.run(NPlusOneStrategy.of(strategy), connection, 20)))
        .hasMessageMatching("(?s).*\nrepeated: `select [^`]*book[^`]*` ran 20 times from (`"
            + site + "`( \\(\\d+\\))?(, )?)+[: ].*");
  }
}
