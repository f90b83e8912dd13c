package io.github.latencylab.cli;

import io.github.latencylab.env.KernelPath;
import io.github.latencylab.env.Lab;
import io.github.latencylab.env.PostgresTarget;
import io.github.latencylab.env.Setting;
import io.github.latencylab.latency.Link;
import io.github.latencylab.latency.Rtt;
import io.github.latencylab.report.Median;
import java.io.ByteArrayInputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.postgresql.PGConnection;
import org.postgresql.ds.PGSimpleDataSource;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code ./latency-lab link-check}: the Lab's link against the kernel's own TCP. The same
 * transfers (a COPY in, a SELECT out) run through the Lab's proxy and through a
 * {@link KernelPath} (the kernel's TCP over a delay line between two network namespaces) to the
 * same PostgreSQL, at the same RTT, cold (the first transfer of a new connection), warm (the
 * same connection again at once), after an idle, and after as long kept busy with small round
 * trips (never idle for a timeout, never full: RFC 2861's slow part, what a warm connection
 * goes through between an application's large transfers), and it prints both times and their
 * ratio.
 *
 * <p>The two paths take turns, run by run; each cell is the median of its runs. Root only (the
 * kernel path needs network namespaces and TUN devices): elsewhere it says so in one line and
 * runs nothing.
 */
@Command(name = "link-check", mixinStandardHelpOptions = true,
    description = {"Runs the same COPY in and SELECT out through the Lab's link and through the"
        + " kernel's own TCP over a delay line (root only), cold, warm, after an idle and after"
        + " small round trips for as long, and prints both times and their ratio per cell."})
public final class LinkCheckCommand implements Callable<Integer> {

  private static final String TABLE = "link_check";
  private static final List<String> STATES = List.of("cold", "warm", "idle", "busy");
  private static final Map<String, String> TRANSFERS = Map.of("copy", "COPY in", "select",
      "SELECT out");

  @Option(names = "--rtt", paramLabel = "LIST", converter = RttConverter.class,
      defaultValue = "5ms,20ms,80ms,320ms", description = "RTTs (default: ${DEFAULT-VALUE})")
  List<Rtt> rtts;

  @Option(names = "--sizes", paramLabel = "LIST", split = ",",
      defaultValue = "10kB,57kB,577kB,6MB,60MB",
      description = "CSV bytes each transfer moves (kB, MB: powers of 1000; default:"
          + " ${DEFAULT-VALUE}); a SELECT reads the same rows back")
  List<String> sizes;

  @Option(names = "--congestion-control", paramLabel = "LIST", split = ",",
      defaultValue = "reno,bbr", description = "The kernel's congestion control, one pass"
          + " each: reno against the Lab's linux link, bbr against linux-bbr (default:"
          + " ${DEFAULT-VALUE})")
  List<String> congestionControls;

  @Option(names = "--transfers", paramLabel = "LIST", split = ",", defaultValue = "copy,select",
      description = "copy (a COPY in), select (a SELECT out) (default: ${DEFAULT-VALUE})")
  List<String> transfers;

  @Option(names = "--states", paramLabel = "LIST", split = ",", defaultValue = "cold,warm,idle",
      description = "cold, warm, idle, busy (small round trips on the same connection for the"
          + " idle's time) (default: ${DEFAULT-VALUE})")
  List<String> states;

  @Option(names = "--idle", paramLabel = "SECONDS", defaultValue = "2",
      description = "How long the idle state waits, and the busy state runs SELECT 1, from the"
          + " end of the transfer before it (default: ${DEFAULT-VALUE})")
  double idleSeconds;

  @Option(names = "--runs", defaultValue = "3", description = "Runs per path and cell; transfers"
      + " over 10 MB run once (default: ${DEFAULT-VALUE})")
  int runs;

  @Mixin
  JsonOption json;

  @Option(names = "--fail-beyond", paramLabel = "PERCENT", description = "Exit 1 when a cell"
      + " up to 6 MB is further than this from the kernel's median and outside its runs' own"
      + " spread (CI: the link drifted)")
  Double failBeyond;

  @Mixin
  LabOptions labOptions;

  /** One transfer: its direction, state, size, RTT, and the runs' times on both paths. */
  record CheckedCell(String congestionControl, String link, String rtt, String transfer,
      long csvBytes, long wireBytes, String state, double[] kernelMs, double[] labMs) {

    double kernel() {
      return Median.of(kernelMs);
    }

    double lab() {
      return Median.of(labMs);
    }

    double ratio() {
      return lab() / kernel();
    }

    /** 15% up to 6 MB, 25% above (where the kernel path's own throughput starts to tell). */
    double allowed() {
      return csvBytes <= 6_000_000 ? 0.15 : 0.25;
    }

    boolean withinAllowed() {
      return Math.abs(ratio() - 1) <= allowed();
    }

    /**
     * The kernel's own runs spread wider than the allowance (its send buffer and windows land
     * a flight apart from run to run) and the Lab's median is within the allowance of one of
     * them: the Lab agrees with the kernel as far as the kernel agrees with itself.
     */
    boolean withinKernelsSpread() {
      double min = Arrays.stream(kernelMs).min().orElseThrow();
      double max = Arrays.stream(kernelMs).max().orElseThrow();
      return max / min - 1 > allowed()
          && Arrays.stream(kernelMs).anyMatch(k -> Math.abs(lab() / k - 1) <= allowed());
    }

    boolean agrees() {
      return withinAllowed() || withinKernelsSpread();
    }
  }

  record Report(String kind, String createdAt, String kernel, List<String> links,
      List<CheckedCell> cells) {
  }

  @Override
  public Integer call() throws Exception {
    Optional<String> unavailable = KernelPath.unavailable();
    if (unavailable.isPresent()) {
      System.out.println("link-check: " + unavailable.get());
      return 2;
    }
    if (runs < 1 || idleSeconds < 0) {
      throw new IllegalArgumentException("--runs must be at least 1 and --idle not negative;"
          + " got --runs " + runs + " --idle " + idleSeconds);
    }
    for (String state : states) {
      if (!STATES.contains(state)) {
        throw new IllegalArgumentException("--states: '" + state + "' is none of "
            + String.join(", ", STATES));
      }
    }
    for (String transfer : transfers) {
      if (!TRANSFERS.containsKey(transfer)) {
        throw new IllegalArgumentException("--transfers: '" + transfer + "' is neither copy nor"
            + " select");
      }
    }
    long[] bytes = sizes.stream().mapToLong(LinkCheckCommand::parseSize).toArray();
    List<String> transferNames = transfers.stream().map(TRANSFERS::get).toList();
    List<CheckedCell> cells = new ArrayList<>();
    List<String> links = new ArrayList<>();
    String kernel = "";
    PrintStream out = System.out;
    long steps = (long) congestionControls.size() * rtts.size() * bytes.length
        * transferNames.size();
    try (Progress progress = new Progress("link-check", steps)) {
      for (String cc : congestionControls) {
        Link link = cc.equals("bbr") ? Link.LINUX_BBR : Link.LINUX;
        try (Lab lab = Lab.start(labOptions.config().with(Setting.LINK, link.name()));
            KernelPath path = KernelPath.start(rtts.get(0), cc, true, address(lab))) {
          kernel = path.describe();
          links.add(cc + ": " + lab.link().describe());
          out.println("link-check: the Lab's link (" + lab.link().describe() + ") against the"
              + " kernel's TCP (" + path.describe() + ")");
          prepare(lab, bytes);
          for (Rtt rtt : rtts) {
            lab.rtt(rtt);
            path.rtt(rtt);
            for (long size : bytes) {
              for (String transfer : transferNames) {
                progress.working(cc + " " + transfer + " " + size + " B @ " + rtt);
                cells.addAll(check(lab, path, cc, rtt, transfer, size));
                progress.step();
              }
            }
          }
        }
      }
    }
    out.print(table(cells));
    String kernelFacts = kernel;
    json.write(() -> new Report("link-check", Instant.now().toString(), kernelFacts, links,
        cells), out::println);
    if (failBeyond != null) {
      List<CheckedCell> drifted = cells.stream().filter(c -> c.csvBytes() <= 6_000_000
          && Math.abs(c.ratio() - 1) * 100 > failBeyond && !c.withinKernelsSpread()).toList();
      if (!drifted.isEmpty()) {
        out.println("link-check: " + drifted.size() + " cell(s) further than " + failBeyond
            + "% from the kernel: the link drifted from the kernel's TCP");
        return 1;
      }
    }
    return 0;
  }

  // every state of one transfer on both paths, the paths taking turns run by run
  private List<CheckedCell> check(Lab lab, KernelPath path, String cc, Rtt rtt, String transfer,
      long size) throws Exception {
    int n = size > 10_000_000 ? 1 : runs;
    double[][] kernel = new double[states.size()][n];
    double[][] viaLab = new double[states.size()][n];
    long[] wireBytes = new long[1];
    for (int run = 0; run < n; run++) {
      for (int turn = 0; turn < 2; turn++) {
        boolean labsTurn = (run + turn) % 2 == 0;
        double[] times = run(lab, labsTurn ? lab.dataSource()::getConnection
            : () -> kernelConnection(lab, path), transfer, size, labsTurn ? wireBytes : null);
        for (int s = 0; s < states.size(); s++) {
          (labsTurn ? viaLab : kernel)[s][run] = times[s];
        }
      }
    }
    List<CheckedCell> cells = new ArrayList<>();
    for (int s = 0; s < states.size(); s++) {
      cells.add(new CheckedCell(cc, lab.link().name(), rtt.toString(), transfer, size,
          wireBytes[0],
          states.get(s), kernel[s], viaLab[s]));
    }
    return cells;
  }

  private interface Connector {
    Connection open() throws SQLException;
  }

  // one connection: its first transfer (cold), again at once (warm), again after the idle, and
  // after as long of SELECT 1 (busy)
  private double[] run(Lab lab, Connector connector, String transfer, long size,
      long[] wireBytes) throws Exception {
    double[] ms = new double[states.size()];
    try (Connection c = connector.open()) {
      c.setAutoCommit(true);
      if (!states.get(0).equals("cold")) {
        // warm, idle and busy are what a transfer left the window: one goes first, untimed
        transfer(c, transfer, size);
      }
      long end = System.nanoTime();
      for (int s = 0; s < states.size(); s++) {
        // warm means at once: nothing between its transfer and the one before
        if (!states.get(s).equals("warm")) {
          truncate(lab);
        }
        // the idle counts from the last transfer's end, the truncate inside it: halvings
        // come per timeout idle, so a slow truncate must not add one to either path
        long until = end + Math.round(idleSeconds * 1e9);
        if (states.get(s).equals("idle")) {
          long left = until - System.nanoTime();
          if (left > 0) {
            Thread.sleep(left / 1_000_000, (int) (left % 1_000_000));
          }
        } else if (states.get(s).equals("busy")) {
          try (Statement st = c.createStatement()) {
            while (System.nanoTime() < until) {
              st.execute("SELECT 1");
            }
          }
        }
        long before = wireBytes == null ? 0 : lab.wire(c).snapshot().bytesReceived()
            + lab.wire(c).snapshot().bytesSent();
        long start = System.nanoTime();
        transfer(c, transfer, size);
        end = System.nanoTime();
        ms[s] = (end - start) / 1e6;
        if (wireBytes != null) {
          wireBytes[0] = lab.wire(c).snapshot().bytesReceived() + lab.wire(c).snapshot()
              .bytesSent() - before;
        }
      }
    }
    return ms;
  }

  private static void transfer(Connection c, String transfer, long size) throws Exception {
    if (transfer.startsWith("COPY")) {
      c.unwrap(PGConnection.class).getCopyAPI().copyIn("COPY " + TABLE
          + " FROM STDIN (FORMAT csv)", new ByteArrayInputStream(csv(size)));
    } else {
      select(c, size);
    }
  }

  private static void select(Connection c, long size) throws SQLException {
    try (Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT * FROM " + TABLE + "_" + size)) {
      while (rs.next()) {
        rs.getString(2);
      }
    }
  }

  // the rows a SELECT reads back: the same CSV, loaded once, untimed
  private static void prepare(Lab lab, long[] sizes) throws SQLException {
    try (Connection c = lab.directDataSource().getConnection();
        Statement st = c.createStatement()) {
      Lab.requireLabSchema(c);
      st.execute("DROP TABLE IF EXISTS " + TABLE);
      st.execute("CREATE TABLE " + TABLE + " (id bigint, name text, amount numeric(12,2),"
          + " created_at timestamptz)");
      for (long size : sizes) {
        st.execute("DROP TABLE IF EXISTS " + TABLE + "_" + size);
        st.execute("CREATE TABLE " + TABLE + "_" + size + " (LIKE " + TABLE + ")");
        c.unwrap(PGConnection.class).getCopyAPI().copyIn("COPY " + TABLE + "_" + size
            + " FROM STDIN (FORMAT csv)", new ByteArrayInputStream(csv(size)));
      }
    } catch (java.io.IOException e) {
      throw new SQLException(e);
    }
  }

  private static void truncate(Lab lab) throws SQLException {
    try (Connection c = lab.directDataSource().getConnection();
        Statement st = c.createStatement()) {
      st.execute("TRUNCATE " + TABLE);
    }
  }

  private static final Map<Long, byte[]> CSV = new HashMap<>();

  // InsertBenchmark's kind of row, ~57 bytes of CSV each, until the size is reached
  private static synchronized byte[] csv(long size) {
    return CSV.computeIfAbsent(size, LinkCheckCommand::rows);
  }

  private static byte[] rows(long size) {
    StringBuilder rows = new StringBuilder((int) size + 64);
    for (long i = 0; rows.length() < size; i++) {
      rows.append(i).append(",customer ").append(Long.toString(i * 2_654_435_761L % (1L << 40),
          36)).append(',').append(i % 100_000).append('.').append(i % 100 / 10).append(i % 10)
          .append(",2026-01-01 00:00:00+00\n");
    }
    return rows.toString().getBytes(StandardCharsets.US_ASCII);
  }

  private static InetSocketAddress address(Lab lab) {
    PostgresTarget direct = lab.directTarget();
    return new InetSocketAddress(direct.host(), direct.port());
  }

  private static Connection kernelConnection(Lab lab, KernelPath path) throws SQLException {
    PostgresTarget d = lab.directTarget();
    PostgresTarget via = new PostgresTarget(path.address().getHostString(),
        path.address().getPort(), d.database(), d.user(), d.password(), d.parameters());
    PGSimpleDataSource ds = new PGSimpleDataSource();
    ds.setURL(via.jdbcUrl());
    ds.setUser(via.user());
    ds.setPassword(via.password());
    return ds.getConnection();
  }

  static long parseSize(String text) {
    String t = text.trim();
    long unit = t.endsWith("MB") ? 1_000_000 : t.endsWith("kB") ? 1000 : 1;
    String number = unit == 1 ? t.replaceFirst("B$", "") : t.substring(0, t.length() - 2);
    try {
      long n = Math.round(Double.parseDouble(number) * unit);
      if (n >= 1 && n <= 1_000_000_000) {
        return n;
      }
    } catch (NumberFormatException e) {
      // said below
    }
    throw new IllegalArgumentException("--sizes: '" + text + "' is not a size such as 57kB,"
        + " 6MB or 4096 (1 B to 1000MB)");
  }

  /** The table: per cell both medians, in ms and in RTTs, and the Lab's over the kernel's. */
  static String table(List<CheckedCell> cells) {
    StringBuilder t = new StringBuilder(String.format(Locale.ROOT,
        "%-5s | %-6s | %-10s | %8s | %8s | %-5s | %-19s | %-19s | %s%n", "cc", "RTT",
        "transfer", "CSV", "on wire", "state", "kernel", "Lab", "Lab/kernel"));
    for (CheckedCell c : cells) {
      double rtt = Rtt.parse(c.rtt()).millis();
      t.append(String.format(Locale.ROOT, "%-5s | %-6s | %-10s | %8s | %8s | %-5s | %-19s |"
          + " %-19s | %.2f%s%n", c.congestionControl(), c.rtt(), c.transfer(),
          size(c.csvBytes()), size(c.wireBytes()), c.state(), ms(c.kernel(), rtt),
          ms(c.lab(), rtt), c.ratio(), verdict(c)));
    }
    return t.toString();
  }

  private static String verdict(CheckedCell c) {
    return c.withinAllowed() ? "" : c.withinKernelsSpread() ? "  (within the kernel's spread)"
        : "  (beyond " + Math.round(c.allowed() * 100) + "%)";
  }

  private static String ms(double ms, double rtt) {
    return String.format(Locale.ROOT, "%.1f ms (%.1f RTT)", ms, ms / rtt);
  }

  private static String size(long bytes) {
    return bytes >= 10_000_000 ? bytes / 1_000_000 + " MB" : bytes >= 1_000_000
        ? String.format(Locale.ROOT, "%.1f MB", bytes / 1e6) : bytes >= 1000 ? bytes / 1000
        + " kB" : bytes + " B";
  }

}
