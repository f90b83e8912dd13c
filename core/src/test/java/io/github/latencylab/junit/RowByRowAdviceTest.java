package io.github.latencylab.junit;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.latencylab.wire.WireStatement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A row-by-row write's advice names the batching of the client that sent it: pgjdbc's where
 * the Lab's socket counted it, R2DBC's and Vert.x's where the relay did (their clients reach the
 * Lab only there: {@code WireRelayTest} checks which statements say so).
 */
class RowByRowAdviceTest {

  private static List<WireStatement> threeInsertsOneByOne(boolean relayed) {
    List<WireStatement> sent = new ArrayList<>();
    for (int trip = 1; trip <= 3; trip++) {
      sent.add(new WireStatement("INSERT INTO advised (name) VALUES ($1)", List.of(), 1, null,
          null, 1, trip, null, relayed));
    }
    return sent;
  }

  @Test
  void jdbcWritesAreAdvisedJdbcsBatching() {
    assertThat(Repeats.of(threeInsertsOneByOne(false))).singleElement()
        .satisfies(r -> assertThat(r.describe()).endsWith("ran 3 times, one round trip each:"
            + " row by row; batch them (addBatch/executeBatch, reWriteBatchedInserts) or send"
            + " them as one statement"));
  }

  @Test
  void relayedWritesAreAdvisedTheReactiveClientsBatching() {
    assertThat(Repeats.of(threeInsertsOneByOne(true))).singleElement()
        .satisfies(r -> assertThat(r.describe()).endsWith("ran 3 times, one round trip each:"
            + " row by row; batch them (R2DBC: Statement.add() and one execute(), or"
            + " Connection.createBatch(); Vert.x: executeBatch) or send them as one statement"));
  }
}
