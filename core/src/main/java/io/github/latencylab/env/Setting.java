package io.github.latencylab.env;

import java.nio.file.Path;
import java.util.Map;

/**
 * Every setting of the Lab: its system property, its environment variable, its default and what
 * it does. A system property wins over the environment variable, which wins over the default.
 * README's settings table mirrors this enum.
 */
public enum Setting {
  BACKEND("latencylab.backend", "auto",
      "auto | embedded | testcontainers | external. auto: testcontainers where it can start at"
          + " once (Testcontainers on the classpath, a Docker engine answering, both images"
          + " present locally), embedded elsewhere, with a line saying why."),
  TOXIPROXY_SERVER("latencylab.toxiproxy.server", "",
      "embedded: path of a toxiproxy-server binary to run instead of latency-lab's own (a stock"
          + " one gets whole-millisecond toxics). Empty: latency-lab's own, from the cache, put"
          + " there on first use from latency-lab-toxiproxy-PLATFORM (or built with go where"
          + " none fits)."),
  CACHE_DIR("latencylab.cache", "",
      "Where built tools are kept. Empty: $XDG_CACHE_HOME/latency-lab or ~/.cache/latency-lab."),
  EMBEDDED_DATA("latencylab.embedded.data", "",
      "embedded: the directory its clusters are made in. Empty: the system's temp directory."
          + " On a RAM disk (/dev/shm) a Lab starts faster and a commit skips the disk's flush:"
          + " round trips, rows, plans and buffers are the same, commit times are not a disk's"
          + " (the Lab's description says tmpfs)."),
  POSTGRES_IMAGE("latencylab.postgres.image", "postgres:17",
      "testcontainers: the PostgreSQL image (any image compatible with the official one)."),
  TOXIPROXY_IMAGE("latencylab.toxiproxy.image", "ghcr.io/shopify/toxiproxy:2.5.0",
      "testcontainers: the Toxiproxy image."),
  SCHEMA("latencylab.schema", "latency_lab",
      "The schema that holds everything latency-lab creates (every connection of the Lab works"
          + " in it: currentSchema). The Lab creates it at start and marks it as its own; it"
          + " refuses a schema of that name it did not create; external: dropped on close."),
  JDBC_URL("latencylab.jdbc.url", "",
      "external: JDBC URL of the database, e.g. jdbc:postgresql://db.example.com:5432/app."
          + " Every parameter is kept (sslmode, sslrootcert, options, ...)."),
  JDBC_USER("latencylab.jdbc.user", "", "external: user name."),
  JDBC_PASSWORD("latencylab.jdbc.password", "", "external: password."),
  TOXIPROXY_URL("latencylab.toxiproxy.url", "",
      "external: Toxiproxy API URL, e.g. http://localhost:8474. Empty: no proxy; the latency is"
          + " the real network's, measured and reported as such."),
  TOXIPROXY_LISTEN("latencylab.toxiproxy.listen", "127.0.0.1:0",
      "external: address the proxy listens on, as Toxiproxy sees it (port 0: any free port)."),
  CALIBRATE("latencylab.rtt.calibrate", "true",
      "true: rtt(L) measures what the toxics really add and corrects them until it is within"
          + " 0.5% (or 0.01 ms) of L (the median round trip with latency_us toxics, the mean with"
          + " whole-millisecond ones); false: toxics are set to their nominal values."),
  RTT_TOXICS("latencylab.rtt.toxics", "auto",
      "auto: latency-lab's latency_us toxics (every round trip gets L) where the Toxiproxy has"
          + " them, whole-millisecond ones (L on average only) elsewhere; whole-ms: always the"
          + " whole-millisecond ones, e.g. to compare."),
  LINK("latencylab.link", "linux",
      "linux | linux-bbr | delay-only: the path's TCP behaviour beyond its RTT. linux: a window"
          + " of bytes in flight per connection and direction that starts at the initial window,"
          + " doubles each round trip while it is the limit (slow start), never has more than the"
          + " cap in flight, and shrinks again after an idle longer than the retransmission"
          + " timeout (Linux's defaults with CUBIC or Reno); linux-bbr: a window kept across"
          + " idles that grows as BBR's startup does, and sends paced at 2.89x the best delivery"
          + " rate measured; delay-only: a bare delay, any transfer pays the RTT about once."
          + " docs/latency.md#the-link."),
  LINK_INITIAL_WINDOW("latencylab.link.initialWindow", "10",
      "Segments a connection may have in flight at its start (RFC 6928; Linux's default)."),
  LINK_MSS("latencylab.link.mss", "1448",
      "Bytes per segment: a 1500-byte MTU less IPv4 and TCP headers and TCP timestamps."),
  LINK_MAX_WINDOW("latencylab.link.maxWindow", "4MiB",
      "The most bytes in flight per connection and direction (bytes, or with KiB/MiB/kB/MB):"
          + " Linux's default tcp_wmem maximum, the sender's buffer, which is what held a 60 MB"
          + " transfer at 320 ms on the kernel's own TCP here (./latency-lab link-check); the"
          + " window itself may grow past it, as Linux's does."),
  LINK_INITIAL_RECEIVE_WINDOW("latencylab.link.initialReceiveWindow", "64088",
      "Bytes a new connection's receiver lets its peer send (Linux's rcv_ssthresh of a fresh"
          + " socket, read here); it grows by twice every full segment received."),
  LINK_INITIAL_SEND_BUFFER("latencylab.link.initialSendBuffer", "auto",
      "Bytes the sender's own buffer holds on a new connection (bytes, or with KiB/MiB/kB/MB);"
          + " auto: Linux's, twice the initial window (three times with BBR). It grows to twice"
          + " the window (three times) whenever"
          + " the application waits on it while the window has room it cannot fill, so a"
          + " warm reply larger than the last one grew it takes a flight more (the kernel's"
          + " here: 78.7 kB again at once, two flights)."),
  LINK_RTO_MIN("latencylab.link.rtoMin", "200ms",
      "Linux's least retransmission timeout (TCP_RTO_MIN): the timeout is RTT plus a variance"
          + " that starts at twice the RTT and settles to this; a window idle for longer shrinks"
          + " (linux only)."),
  RELAY("latencylab.relay", "false",
      "true: the Lab's connections go through a counting relay in front of its proxy, which"
          + " reads the protocol both ways and counts any client's round trips (pgjdbc, Vert.x,"
          + " R2DBC, pgbench) as pgjdbc's socket does; one more loopback hop, inside the"
          + " calibrated RTT. ./latency-lab bench always has it (Lab#relay() starts one on"
          + " demand)."),
  DURABILITY("latencylab.server.durability", "stock",
      "stock | fast. stock: PostgreSQL's own durability (fsync, synchronous_commit and"
          + " full_page_writes on), what production runs; fast: all three off, for quick local"
          + " runs whose commits must not wait on the disk (results say so). embedded and"
          + " testcontainers only: an external database keeps what it has."),
  PGBENCH("latencylab.pgbench", "",
      "./latency-lab pgbench: path of PostgreSQL's pgbench. Empty: pgbench on PATH, then the"
          + " newest /usr/lib/postgresql/*/bin/pgbench (Debian, Ubuntu), then"
          + " /usr/local/opt/libpq/bin and /opt/homebrew/bin (macOS)."),
  AUDIT("latencylab.audit", "false",
      "true: audit the whole test run, no annotation: every JUnit Jupiter test is counted on"
          + " the run's Lab and reported as with latencylab.report=true (tests that sent no SQL"
          + " to the Lab listed as not audited, with why), its findings (N+1s, row-by-row"
          + " writes) ranked in report.md, written as findings.sarif and checked against"
          + " latencylab.findings; budgets already written keep working."),
  FINDINGS("latencylab.findings", "src/test/latency-findings.json",
      "JUnit extension: the committed findings a run may keep (the ratchet): a test fails on an"
          + " N+1 or row-by-row write not in it, or on one that now takes more round trips (no"
          + " file: nothing is compared; latencylab.updateBaseline=true writes it)."),
  REPORT("latencylab.report", "false",
      "JUnit extension: true: every test run under LabExtension records its wire cost (round"
          + " trips, statements, bytes, repeated statements with their call sites, the cost at"
          + " 0.5, 20 and 320 ms) into latencylab.report.dir, and fails when its round trips or"
          + " statements differ from latencylab.report.baseline."),
  REPORT_DIR("latencylab.report.dir", "target/latency-report",
      "JUnit extension: where the tests' report goes (results.json, report.md, report.html)."),
  REPORT_BASELINE("latencylab.report.baseline", "src/test/latency-baseline.json",
      "JUnit extension: the committed baseline of the tests' round trips and statements (no"
          + " file: nothing is compared, and the report says how to create it)."),
  UPDATE_BASELINE("latencylab.updateBaseline", "false",
      "true: rewrite the baseline on purpose instead of comparing with it: the JUnit"
          + " extension's latencylab.report.baseline and latencylab.findings, and (./mvnw"
          + " verify) the bench's src/latency-baseline.json."),
  CALL_SITES_EXCLUDE("latencylab.callsites.exclude", "",
      "JUnit extension: class-name prefixes, comma-separated (com.example.dao.), that are not"
          + " the application's when a statement is traced to the line that sent it. The"
          + " application is what the build compiled (classes from directories, or jars in the"
          + " project's target/ or build/), never what came from other jars."),
  CALL_SITES_INCLUDE("latencylab.callsites.include", "",
      "JUnit extension: class-name prefixes, comma-separated (com.example.shared.), that are"
          + " the application's wherever they were loaded from (a library of your own from a"
          + " jar); an include wins over an exclude.");

  private final String property;
  private final String defaultValue;
  private final String description;

  Setting(String property, String defaultValue, String description) {
    this.property = property;
    this.defaultValue = defaultValue;
    this.description = description;
  }

  /** The system property, e.g. {@code latencylab.backend}. */
  public String property() {
    return property;
  }

  /** The environment variable, e.g. {@code LATENCYLAB_BACKEND}. */
  public String environmentVariable() {
    return property.toUpperCase(java.util.Locale.ROOT).replace('.', '_');
  }

  public String defaultValue() {
    return defaultValue;
  }

  public String description() {
    return description;
  }

  /**
   * A setting of a JUnit run (its report, audit, baseline, findings, call sites), not of the Lab
   * it runs on: runs whose settings differ only in these share one Lab.
   */
  public boolean ofTheRunOnly() {
    return switch (this) {
      case AUDIT, FINDINGS, REPORT, REPORT_DIR, REPORT_BASELINE, UPDATE_BASELINE,
          CALL_SITES_EXCLUDE, CALL_SITES_INCLUDE -> true;
      default -> false;
    };
  }

  /** Where a value comes from, for error messages: "-Dlatencylab.backend" or the env var. */
  String sourceOf(Map<String, String> properties, Map<String, String> environment) {
    if (properties.containsKey(property)) {
      return "-D" + property;
    }
    if (environment.containsKey(environmentVariable())) {
      return environmentVariable();
    }
    return "default";
  }

  static Path defaultCacheDir(Map<String, String> environment) {
    String xdg = environment.get("XDG_CACHE_HOME");
    Path base = xdg != null && !xdg.isBlank()
        ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".cache");
    return base.resolve("latency-lab");
  }
}
