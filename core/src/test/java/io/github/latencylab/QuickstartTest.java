package io.github.latencylab;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.latencylab.env.BackendKind;
import io.github.latencylab.env.Lab;
import io.github.latencylab.env.LabConfig;
import io.github.latencylab.latency.Rtt;
import io.github.latencylab.wire.WireStats;
import java.sql.Connection;
import java.sql.PreparedStatement;
import org.junit.jupiter.api.Test;

/** The README's quickstart, compiled and run. */
class QuickstartTest {

  @Test
  void quickstart() throws Exception {
    // quickstart-begin
    LabConfig config = LabConfig.fromEnvironment().withBackend(BackendKind.EMBEDDED);
    try (Lab lab = Lab.start(config)) {
      lab.rtt(Rtt.parse("20ms")); // every round trip through the proxy now takes 20 ms longer

      try (Connection c = lab.dataSource().getConnection();
          PreparedStatement select = c.prepareStatement("SELECT ?::int")) {
        WireStats cost = lab.wire(c).measure(() -> {
          for (int i = 0; i < 10; i++) {
            select.setInt(1, i);
            select.executeQuery().close();
          }
        });
        System.out.println(cost); // 10 round trips, ... B sent, ... B received
        assertThat(cost.roundTrips()).isEqualTo(10); // so ~10 x 20 ms on the wire
      }
    }
    // quickstart-end
  }
}
