package io.github.latencylab.bench.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.latencylab.env.Lab;
import io.github.latencylab.env.LabConfig;
import io.github.latencylab.env.Setting;
import io.github.latencylab.junit.ExpectRoundTrips;
import io.github.latencylab.junit.LabExtension;
import io.github.latencylab.junit.RoundTrips;
import io.github.latencylab.latency.Rtt;
import java.sql.SQLException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A reactive client's round trips under the same budgets as JDBC code: with the relay on the
 * Lab's path ({@code latencylab.relay=true}), Vert.x's connections count on the Lab's wire as
 * pgjdbc's do, so {@code @ExpectRoundTrips} and {@link RoundTrips} hold its code to a number.
 * The connection is opened and used once before the test: what the test does is what is
 * counted.
 */
@Tag("alone") // its count depends on how fast Vert.x sends: runs alone (pom.xml)
class ReactiveClientBudgetTest {

  // counts, not times: the nominal toxics are RTT enough, no calibration to wait for
  @RegisterExtension
  static final LabExtension LAB = LabExtension.withConfig(LabConfig.fromEnvironment()
      .with(Setting.RELAY, "true").with(Setting.CALIBRATE, "false"));

  private PipelineClient pipelined;
  private PipelineClient oneAtATime;

  @BeforeEach
  void open(Lab lab) throws SQLException {
    lab.rtt(Rtt.ZERO);
    LookupData.create(lab.directDataSource());
    pipelined = ClientKind.of("vertx256", ClientKind.Workload.lookups).open(lab, lab.target());
    oneAtATime = ClientKind.of("vertx1", ClientKind.Workload.lookups).open(lab, lab.target());
    // Vert.x describes a statement the first time it runs it: one round trip more, once
    pipelined.lookups(LookupData.authorIds());
    oneAtATime.lookups(LookupData.authorIds());
    // far above the time Vert.x takes to send 100 queries, so every answer comes after the
    // last: 20 ms was not on a loaded CI machine (a reply came back while it still wrote)
    lab.rtt(Rtt.parse("200ms"));
  }

  @AfterEach
  void close() throws SQLException {
    pipelined.close();
    oneAtATime.close();
  }

  @Test
  @ExpectRoundTrips(exactly = 1)
  void vertxPipelinesTheHundredLookupsIntoOneRoundTrip() throws SQLException {
    assertThat(pipelined.lookups(LookupData.authorIds())).isEqualTo(LookupData.expected());
  }

  @Test
  void withoutPipeliningEachLookupIsARoundTripAndTheBudgetFails(Lab lab) {
    lab.rtt(Rtt.ZERO); // one at a time counts the same at any RTT, and faster here
    assertThatThrownBy(() -> RoundTrips.assertAtMost(1,
        () -> oneAtATime.lookups(LookupData.authorIds())))
        .isInstanceOf(AssertionError.class)
        .hasMessageStartingWith("expected at most 1 round trip, but there were 100 (100 SQL"
            + " statements); the SQL, read at the wire:");
  }
}
