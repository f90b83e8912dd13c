package io.github.latencylab.env.watch;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.latencylab.env.BackendKind;
import io.github.latencylab.env.Lab;
import io.github.latencylab.env.LabConfig;
import io.github.latencylab.wire.WireCounter;
import io.github.latencylab.wire.WireStatement;
import io.github.latencylab.wire.WireStats;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A stretch that starts from the last one's end (no read of its own) counts what a stretch that
 * reads its start counts: the server's work of its own statements only, SQL the Lab did not
 * count named; and starts from it only while nothing has crossed the Lab's wire since.
 */
class StretchCarryTest {

  private static Lab lab;

  @BeforeAll
  static void start() throws SQLException {
    lab = Lab.start(LabConfig.fromEnvironment().withBackend(BackendKind.EMBEDDED));
    try (Connection c = lab.directDataSource().getConnection(); Statement st = c.createStatement()) {
      st.execute("CREATE TABLE carried (n int)");
    }
  }

  @AfterAll
  static void stop() {
    lab.close();
  }

  @Test
  void theNextStretchStartsFromTheLastOnesEndOnlyWhileNothingRanSince() throws SQLException {
    AtomicLong mark = new AtomicLong();
    StretchCarry carry = new StretchCarry(mark::get);
    StretchCarry.Ticket first = carry.begin();
    assertThat(first.left()).isNull();
    assertThat(first.alone()).isTrue();
    UncountedSql.Ended ended = new UncountedSql.Ended(null, 7);
    carry.end(first, ended, null);
    StretchCarry.Ticket second = carry.begin();
    assertThat(second.left().sessions()).isEqualTo(ended);
    carry.end(second, ended, null);

    mark.incrementAndGet(); // a round trip on a counted connection in between
    StretchCarry.Ticket third = carry.begin();
    assertThat(third.left()).isNull();
    // another stretch opened meanwhile (JUnit's parallel mode): neither leaves its end
    StretchCarry.Ticket overlapping = carry.begin();
    assertThat(overlapping.alone()).isFalse();
    carry.end(third, ended, null);
    carry.end(overlapping, ended, null);
    assertThat(carry.begin().left()).isNull();
  }

  @Test
  void aCarriedStartCountsTheStretchsOwnWorkAndNamesSqlTheLabDidNotCount() throws Exception {
    try (Connection c = lab.dataSource().getConnection()) {
      Stretch first = stretch(c, 3);
      assertThat(first.insertCalls()).isEqualTo(3);
      // right after: started from the first one's end, its own insert only
      assertThat(stretch(c, 1).insertCalls()).isEqualTo(1);

      // an insert on a counted connection in between: the next reads its own start
      try (PreparedStatement ps = c.prepareStatement(INSERT)) {
        ps.setInt(1, 0);
        ps.execute();
      }
      Stretch afterCounted = stretch(c, 2);
      assertThat(afterCounted.insertCalls()).isEqualTo(2);
      assertThat(afterCounted.finding()).isEmpty();

      // SQL on a connection the Lab does not count, between two stretches: nothing on the
      // Lab's wire, so the next starts from the last one's end, and names it
      String stripped = lab.target().withParameter("ApplicationName", "a fixture").jdbcUrl();
      try (Connection uncounted = DriverManager.getConnection(stripped, lab.target().user(),
          lab.target().password()); Statement st = uncounted.createStatement()) {
        st.execute("SELECT 1");
        assertThat(stretch(c, 1).finding()).hasValueSatisfying(f -> assertThat(f)
            .startsWith("SQL reached the Lab's database on a connection the Lab did not count"
                + " since the last budgeted test ended (this test or its set-up), backend pid ")
            .contains("application_name 'a fixture'"));
      }
    }
  }

  private static final String INSERT = "INSERT INTO carried VALUES (?)";

  private record Stretch(long insertCalls, Optional<String> finding) {
  }

  // one budget's stretch as a test's: n inserts counted on c, the server's work, its end
  private static Stretch stretch(Connection c, int n) throws SQLException {
    WireCounter wire = lab.wire();
    wire.trace();
    WireStats before = wire.snapshot();
    StretchWatch watch = lab.watchStretch(true);
    try (PreparedStatement ps = c.prepareStatement(INSERT)) {
      for (int i = 0; i < n; i++) {
        ps.setInt(1, i);
        ps.execute();
      }
    }
    List<WireStatement> own = wire.statementsSince(before).stream()
        .filter(WireStatement::counted).toList();
    List<ServerWork.Statement> work = watch.finish(own).orElseThrow();
    Optional<String> finding = watch.end();
    assertThat(work).hasSize(1);
    return new Stretch(work.get(0).work().calls(), finding);
  }
}
