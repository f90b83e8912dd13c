package io.github.latencylab.env.link;

import io.github.latencylab.latency.Link;
import io.github.latencylab.latency.MicrosecondToxics;
import io.github.latencylab.latency.Rtt;
import io.github.latencylab.latency.RttMeasurement;
import io.github.latencylab.latency.ToxicPlan;
import io.github.latencylab.latency.WholeMillisecondToxics;
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
 * Sets the added round-trip time with Toxiproxy toxics, and measures what they really add with
 * a probe: a server-prepared {@code SELECT 1}, one round trip each.
 *
 * <p>The probe alternates, sample by sample, between a connection through the proxy that has
 * the toxics and one through a twin proxy that never has any; each pair's difference is one
 * sample of the added RTT, so the machine's noise (a shared 2-core box drifts by 0.1 ms within
 * seconds) hits both halves of a pair alike.
 *
 * <p>Where the Toxiproxy is latency-lab's own, the toxics are {@link MicrosecondToxics}: every
 * chunk gets its delay, give or take a near-constant wake-up overshoot. With calibration on,
 * {@link #set} measures that overshoot for the setting and asks for the setting minus it, until
 * the added RTT is within 0.5% (or 0.01 ms) of the target, or, after the first correction, as
 * close as the samples can tell; and remembers the toxics for the next time. Elsewhere (a
 * user's stock Toxiproxy, or {@code latencylab.rtt.toxics=whole-ms}) it falls back to
 * {@link WholeMillisecondToxics}, real on average only, calibrated the same way.
 */
public final class LatencyControl implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(LatencyControl.class);
  private static final String NAME = "latency-lab-";
  private static final String LINK = "link-";
  private static final int WARMUP = 20;
  private static final int MAX_CORRECTIONS = 5;

  private final ProxyToxics toxics;
  private final boolean microseconds;
  private final String method;
  private final Probe withToxics;
  private final Probe baseline;
  private final boolean calibrate;
  private final Link link;
  private final Map<Rtt, RttMeasurement> calibrated = new HashMap<>();
  private Rtt current = Rtt.ZERO;
  private ToxicPlan currentPlan = ToxicPlan.NONE;

  /**
   * {@code toxics} and {@code baseline} may be null (a database without Toxiproxy): then only
   * the zero RTT can be set, and the probe measures the real network. {@code wholeMilliseconds}
   * forces upstream's whole-millisecond toxics even where {@code latency_us} exists. {@code link}
   * is the path's window, where the Toxiproxy has the {@code tcp_window} toxic (a stock one
   * gets a bare delay, and a warning).
   */
  public LatencyControl(ProxyToxics toxics, DataSource proxied, DataSource baseline,
      boolean calibrate, boolean wholeMilliseconds, Link link) {
    this.toxics = toxics;
    this.link = toxics == null || link.delayOnly() || supports(toxics, Link.TYPE) ? link
        : withoutWindow(toxics, link);
    this.withToxics = new Probe(proxied);
    this.baseline = baseline == null ? null : new Probe(baseline);
    this.calibrate = calibrate;
    if (toxics == null) {
      microseconds = false;
      method = "no toxics (no Toxiproxy)";
    } else if (wholeMilliseconds) {
      microseconds = false;
      method = "whole-millisecond latency toxics, real on average only (as asked:"
          + " latencylab.rtt.toxics=whole-ms)";
    } else if (supports(toxics, MicrosecondToxics.TYPE)) {
      microseconds = true;
      method = "latency_us toxics, every round trip to the microsecond";
    } else {
      microseconds = false;
      method = "whole-millisecond latency toxics, real on average only (this Toxiproxy has no"
          + " latency_us toxic)";
      LOG.warn("Toxiproxy at {} has no latency_us toxic (a stock server?): falling back to"
          + " whole-millisecond latency toxics, real on average only, not per round trip;"
          + " latency-lab's own server has it (docs/latency.md)", toxics.api());
    }
  }

  private static Link withoutWindow(ProxyToxics toxics, Link asked) {
    LOG.warn("Toxiproxy at {} has no {} toxic (a stock server?): the link is a bare delay, not"
        + " {} (latency-lab's own server has it: docs/latency.md)", toxics.api(), Link.TYPE,
        asked.name());
    return Link.DELAY_ONLY;
  }

  private static boolean supports(ProxyToxics toxics, String type) {
    try {
      return toxics.supports(type);
    } catch (IOException e) {
      throw new UncheckedIOException("Could not reach Toxiproxy at " + toxics.api() + ": "
          + e.getMessage(), e);
    }
  }

  /** How the latency is made, in a few words, for logs and result files. */
  public String method() {
    return method;
  }

  /** The path's window as applied: the one asked for, or a bare delay where it cannot be. */
  public Link link() {
    return link;
  }

  /**
   * Every connection's window back to the initial window, as a new connection's (or, on Linux,
   * one idle for a while): the link's toxics are made anew, with fresh state.
   */
  public synchronized void restartWindows() {
    if (toxics != null) {
      restartWindows(toxics);
    }
  }

  /** {@link #restartWindows()} on the proxy {@code toxics}, also from an attached Lab. */
  public static void restartWindows(ProxyToxics toxics) {
    try {
      toxics.recreate(NAME);
    } catch (IOException e) {
      throw new UncheckedIOException("Could not restart the windows of proxy " + toxics.proxy()
          + ": " + e.getMessage(), e);
    }
  }

  /** Whether every round trip gets its delay ({@code latency_us}), not only on average. */
  public boolean microseconds() {
    return microseconds;
  }

  /** Sets the added RTT; returns what the probe measured while calibrating, if it did. */
  public synchronized RttMeasurement set(Rtt rtt) throws SQLException {
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
      apply(plan(rtt, rtt.millis()));
      return null;
    }
    RttMeasurement best = calibrateFor(rtt);
    calibrated.put(rtt, best);
    apply(best.plan());
    return best;
  }

  /** Forgets what calibrating {@code rtt} found, calibrates it again and sets it. */
  public synchronized RttMeasurement recalibrate(Rtt rtt) throws SQLException {
    calibrated.remove(rtt);
    return set(rtt);
  }

  public synchronized Rtt current() {
    return current;
  }

  /** Sets {@code rtt} and measures it: {@code samples} probes with toxics, as many without. */
  public synchronized RttMeasurement measure(Rtt rtt, int samples) throws SQLException {
    set(rtt);
    return sample(rtt, samples);
  }

  /** The toxics asked to add {@code nominalMs} for the setting {@code rtt}. */
  private ToxicPlan plan(Rtt rtt, double nominalMs) {
    return microseconds ? MicrosecondToxics.forSetting(rtt, Math.round(nominalMs * 1000))
        : WholeMillisecondToxics.closestTo(nominalMs);
  }

  /**
   * Asks for the target, measures the overshoot, asks for the target minus it, and so on until
   * the added RTT is as close as the measurement can tell; keeps the closest.
   */
  private RttMeasurement calibrateFor(Rtt rtt) throws SQLException {
    int samples = samplesFor(rtt);
    double target = rtt.millis();
    double tolerance = Math.max(0.01, 0.005 * target);
    double nominal = target;
    RttMeasurement best = null;
    double bestError = Double.MAX_VALUE;
    ToxicPlan previous = null;
    for (int i = 0; i <= MAX_CORRECTIONS; i++) {
      ToxicPlan plan = plan(rtt, nominal);
      if (plan.equals(previous)) {
        break;
      }
      previous = plan;
      apply(plan);
      RttMeasurement m = sample(rtt, samples);
      double error = calibrated(m) - target;
      LOG.debug("calibrating {}: {} -> added {} ms (mean {}, p50 {})", rtt, plan,
          calibrated(m), m.addedMeanMs(), m.addedP50Ms());
      if (Math.abs(error) < bestError) {
        best = m;
        bestError = Math.abs(error);
      }
      // after the first correction (the overshoot is there, noise or not): closer than the
      // samples can tell apart (a busy machine) is close enough, more passes chase noise
      double standardError = m.added().stddevMs() / Math.sqrt(m.added().samples());
      if (Math.abs(error) <= (i == 0 ? tolerance : Math.max(tolerance, 2 * standardError))) {
        break;
      }
      nominal = corrected(nominal, error);
    }
    LOG.debug("RTT {} realised by {}: added {} ms on average, p50 {} ms", rtt, best.plan(),
        String.format("%.3f", best.addedMeanMs()), String.format("%.3f", best.addedP50Ms()));
    return best;
  }

  /**
   * The next pass's ask: the last one less its error, but at most half of it less. The toxics'
   * own overshoot is a few hundredths to two tenths of a millisecond, so steps stay small; a
   * pass a load spike pushed far over (on a shared machine) would otherwise drive the ask to
   * nothing, and the best of the passes could then be no toxics at all.
   */
  public static double corrected(double askedMs, double errorMs) {
    return Math.max(askedMs / 2, askedMs - errorMs);
  }

  /**
   * The added RTT calibration steers by. latency_us toxics: the median pair; the toxic's
   * overshoot is near constant, and load spikes that hit one probe of a pair (on a shared
   * machine, often, and more than a few percent of the pairs when it is busy) would otherwise
   * pull the correction by tenths of a millisecond. On a quiet machine the mean follows within
   * hundredths. Whole-millisecond toxics: the mean, their delays are a mix of 0, 1, 2 ms by
   * design and their median is not the setting.
   */
  private double calibrated(RttMeasurement m) {
    return microseconds ? m.addedP50Ms() : m.addedMeanMs();
  }

  /** About 1.5 s of probing: many samples where each is cheap, a few at 320 ms. */
  public static int samplesFor(Rtt rtt) {
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
    return RttMeasurement.paired(rtt, currentPlan, without, with);
  }

  private void apply(ToxicPlan plan) {
    if (toxics == null) {
      if (plan.nominalMs() > 0) {
        throw new IllegalStateException("No Toxiproxy proxy: cannot apply " + plan);
      }
      return;
    }
    currentPlan = plan;
    try {
      for (String stream : new String[] {"upstream", "downstream"}) {
        toxics.remove(NAME + stream);
        toxics.remove(NAME + LINK + stream);
      }
      // per direction, a chunk waits for the window first, then for the delay
      if (plan.nominalMs() > 0) {
        for (ToxicPlan.Toxic toxic : link.toxics(current)) {
          toxics.add(NAME + LINK + toxic.stream(), toxic);
        }
      }
      for (ToxicPlan.Toxic toxic : plan.toxics()) {
        toxics.add(NAME + toxic.stream(), toxic);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Could not set the latency toxics of proxy "
          + toxics.proxy() + " to " + plan + ": " + e.getMessage(), e);
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
