package io.github.latencylab.env;

import eu.rekawek.toxiproxy.Proxy;
import eu.rekawek.toxiproxy.model.Toxic;
import eu.rekawek.toxiproxy.model.ToxicDirection;
import io.github.latencylab.latency.Rtt;
import io.github.latencylab.latency.RttMeasurement;
import io.github.latencylab.latency.RttStats;
import io.github.latencylab.latency.ToxicPlan;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;
import javax.sql.DataSource;
import org.postgresql.PGStatement;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sets the added round-trip time with Toxiproxy latency toxics, and measures what they really
 * add with a probe: a server-prepared {@code SELECT 1}, one round trip each.
 *
 * <p>The probe alternates, sample by sample, between a connection through the proxy that has
 * the toxics and one through a twin proxy that never has any, so that the machine's noise
 * (a shared 2-core box drifts by 0.1 ms within seconds) hits both series alike.
 *
 * <p>Each delayed chunk costs a little more than its nominal delay (Go's timers wake late:
 * ~0.15 ms at 1 ms, ~0.6 ms at 10 ms and more, measured here). With calibration on,
 * {@link #set} measures the result and corrects the toxics until the mean added RTT is within
 * 2% (or 0.01 ms) of the target, and remembers the plan for the next time.
 */
final class LatencyControl implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(LatencyControl.class);
  private static final String UP = "latency-lab-upstream";
  private static final String DOWN = "latency-lab-downstream";
  private static final int WARMUP = 20;
  private static final int MAX_CORRECTIONS = 5;

  private final Proxy proxy;
  private final Probe withToxics;
  private final Probe baseline;
  private final boolean calibrate;
  private final Map<Rtt, RttMeasurement> calibrated = new HashMap<>();
  private Rtt current = Rtt.ZERO;
  private ToxicPlan currentPlan = ToxicPlan.NONE;

  /**
   * {@code proxy} and {@code baseline} may be null (a database without Toxiproxy): then only
   * the zero RTT can be set, and the probe measures the real network.
   */
  LatencyControl(Proxy proxy, DataSource proxied, DataSource baseline, boolean calibrate) {
    this.proxy = proxy;
    this.withToxics = new Probe(proxied);
    this.baseline = baseline == null ? null : new Probe(baseline);
    this.calibrate = calibrate;
  }

  /** Sets the added RTT; returns what the probe measured while calibrating, if it did. */
  synchronized RttMeasurement set(Rtt rtt) throws SQLException {
    current = rtt;
    if (rtt.micros() == 0) {
      apply(ToxicPlan.NONE);
      return null;
    }
    RttMeasurement known = calibrated.get(rtt);
    if (known != null) {
      apply(known.plan());
      return known;
    }
    if (!calibrate) {
      apply(ToxicPlan.closestTo(rtt.millis()));
      return null;
    }
    RttMeasurement best = calibrateFor(rtt);
    calibrated.put(rtt, best);
    apply(best.plan());
    return best;
  }

  synchronized Rtt current() {
    return current;
  }

  /** Sets {@code rtt} and measures it: {@code samples} probes with toxics, as many without. */
  synchronized RttMeasurement measure(Rtt rtt, int samples) throws SQLException {
    set(rtt);
    return sample(rtt, samples);
  }

  private RttMeasurement calibrateFor(Rtt rtt) throws SQLException {
    int samples = samplesFor(rtt);
    double target = rtt.millis();
    double nominal = target;
    RttMeasurement best = null;
    ToxicPlan previous = null;
    for (int i = 0; i <= MAX_CORRECTIONS; i++) {
      ToxicPlan plan = ToxicPlan.closestTo(nominal);
      if (plan.equals(previous)) {
        break;
      }
      previous = plan;
      apply(plan);
      RttMeasurement m = sample(rtt, samples);
      LOG.debug("calibrating {}: {} -> added {} ms", rtt, plan, m.addedMeanMs());
      if (best == null
          || Math.abs(m.addedMeanMs() - target) < Math.abs(best.addedMeanMs() - target)) {
        best = m;
      }
      double error = m.addedMeanMs() - target;
      if (Math.abs(error) <= Math.max(0.01, 0.02 * target)) {
        break;
      }
      nominal -= error;
    }
    LOG.info("RTT {} realised by {}: added {} ms on average", rtt, best.plan(),
        String.format("%.3f", best.addedMeanMs()));
    return best;
  }

  /** About 1.5 s of probing: many samples where each is cheap, a few at 320 ms. */
  static int samplesFor(Rtt rtt) {
    return (int) Math.max(8, Math.min(1000, Math.round(1500 / (rtt.millis() + 0.3))));
  }

  private RttMeasurement sample(Rtt rtt, int samples) throws SQLException {
    if (samples < 1) {
      throw new IllegalArgumentException("samples must be at least 1, got " + samples);
    }
    Probe reference = baseline == null ? withToxics : baseline;
    for (int i = 0; i < WARMUP; i++) {
      reference.roundTrip();
    }
    if (rtt.millis() < 20) {
      for (int i = 0; i < WARMUP; i++) {
        withToxics.roundTrip();
      }
    }
    double[] without = new double[samples];
    double[] with = new double[samples];
    for (int i = 0; i < samples; i++) {
      without[i] = reference.roundTrip();
      with[i] = reference == withToxics ? without[i] : withToxics.roundTrip();
    }
    return new RttMeasurement(rtt, currentPlan, RttStats.of(without), RttStats.of(with));
  }

  private void apply(ToxicPlan plan) {
    if (proxy == null) {
      if (plan.meanMs() > 0) {
        throw new IllegalStateException("No Toxiproxy proxy: cannot apply " + plan);
      }
      return;
    }
    currentPlan = plan;
    try {
      for (Toxic toxic : proxy.toxics().getAll()) {
        if (toxic.getName().equals(UP) || toxic.getName().equals(DOWN)) {
          toxic.remove();
        }
      }
      add(UP, ToxicDirection.UPSTREAM, plan.upstream());
      add(DOWN, ToxicDirection.DOWNSTREAM, plan.downstream());
    } catch (IOException e) {
      throw new UncheckedIOException("Could not set the latency toxics of proxy "
          + proxy.getName() + " to " + plan, e);
    }
  }

  private void add(String name, ToxicDirection direction, ToxicPlan.Direction delay)
      throws IOException {
    if (delay.delays()) {
      proxy.toxics().latency(name, direction, delay.latencyMs()).setJitter(delay.jitterMs());
    }
  }

  @Override
  public synchronized void close() throws SQLException {
    withToxics.close();
    if (baseline != null) {
      baseline.close();
    }
  }

  /** One connection and its prepared {@code SELECT 1}, opened on first use. */
  private static final class Probe implements AutoCloseable {
    private final DataSource dataSource;
    private Connection connection;
    private PreparedStatement select;

    Probe(DataSource dataSource) {
      this.dataSource = dataSource;
    }

    /** One round trip; returns its time in milliseconds. */
    double roundTrip() throws SQLException {
      if (select == null) {
        connection = dataSource.getConnection();
        select = connection.prepareStatement("SELECT 1");
        // server-prepared at once, so every probe is Bind/Execute/Sync: one round trip
        select.unwrap(PGStatement.class).setPrepareThreshold(1);
      }
      long start = System.nanoTime();
      try (ResultSet rs = select.executeQuery()) {
        rs.next();
      }
      return (System.nanoTime() - start) / 1e6;
    }

    @Override
    public void close() throws SQLException {
      if (connection != null) {
        connection.close();
        connection = null;
        select = null;
      }
    }
  }
}
