package io.github.latencylab.env;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.github.latencylab.env.backend.GoModule;
import io.github.latencylab.latency.Rtt;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.postgresql.copy.CopyManager;
import org.postgresql.core.BaseConnection;

/**
 * The kernel path against the Lab's PostgreSQL: it carries a connection, its RTT is at least
 * the one asked, it says what TCP runs, and it leaves nothing. Deterministic facts only: no
 * speed beyond a loose upper bound. Needs root: where it is missing the tests say why and skip,
 * except as root or in CI, where a missing condition fails them.
 */
@Tag("alone") // asserts on times: runs alone, after the other tests (pom.xml)
class KernelPathTest {

  private static final Path SOURCES =
      Path.of("src/main/resources/io/github/latencylab/env/kernelpath");
  private static Lab lab;

  private static synchronized InetSocketAddress postgres() {
    Optional<String> why = KernelPath.unavailable();
    if (why.isPresent() && ("root".equals(System.getProperty("user.name"))
        || System.getenv("CI") != null)) {
      fail("The kernel path must be tested here: " + why.get());
    }
    assumeTrue(why.isEmpty(), () -> "kernel path not tested: " + why.orElseThrow());
    if (lab == null) {
      lab = Lab.start(LabConfig.fromEnvironment().withBackend(BackendKind.EMBEDDED));
    }
    return new InetSocketAddress(lab.directTarget().host(), lab.directTarget().port());
  }

  @AfterAll
  static void closeLab() {
    if (lab != null) {
      lab.close();
    }
  }

  private static Connection connect(KernelPath path) throws SQLException {
    PostgresTarget direct = lab.directTarget();
    PostgresTarget through = new PostgresTarget(path.address().getHostString(),
        path.address().getPort(), direct.database(), direct.user(), direct.password(),
        direct.parameters());
    return DriverManager.getConnection(through.jdbcUrl(), direct.user(), direct.password());
  }

  @Test
  void aOneMegabyteCopyArrivesIntactAndTheLineDropsNothing() throws Exception {
    StringBuilder csv = new StringBuilder();
    Random random = new Random(25);
    int rows = 0;
    while (csv.length() < 1 << 20) {
      byte[] filler = new byte[50];
      random.nextBytes(filler);
      csv.append(rows++).append(',').append(HexFormat.of().formatHex(filler)).append('\n');
    }
    byte[] bytes = csv.toString().getBytes(StandardCharsets.UTF_8);

    try (KernelPath path = KernelPath.start(Rtt.ofMillis(20), "bbr", true, postgres());
        Connection c = connect(path);
        Statement st = c.createStatement()) {
      st.execute("CREATE TEMP TABLE copied (i int, s text)");
      long copied = new CopyManager(c.unwrap(BaseConnection.class))
          .copyIn("COPY copied FROM STDIN (FORMAT csv)", new ByteArrayInputStream(bytes));
      assertThat(copied).isEqualTo(rows);
      try (ResultSet rs = st.executeQuery("SELECT md5(string_agg(i || ',' || s || E'\\n', ''"
          + " ORDER BY i)) FROM copied")) {
        rs.next();
        assertThat(rs.getString(1)).as("what PostgreSQL holds, byte for byte")
            .isEqualTo(HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(bytes)));
      }
      assertThat(path.stats()).as("a reference path loses nothing")
          .contains("drops 0 0 tun-drops 0 0");
      // the connection's two middle-leg sockets; the client's window grew as it sent 1 MB
      assertThat(path.tcp()).matches("client 198\\.18\\.0\\.1:\\d+ cwnd \\d+ ssthresh \\d+"
          + " unacked \\d+ mss 1448 rtt_us \\d+ rttvar_us \\d+ rto_us \\d+ retrans 0"
          + " rcv_ssthresh \\d+; server 198\\.18\\.0\\.2:\\d+ .*");
      assertThat(Integer.parseInt(path.tcp().split(" ")[3])).as(path.tcp()).isGreaterThan(10);
    }
  }

  @Test
  void aRoundTripTakesAtLeastTheAskedRttAlsoAfterTheRttChanges() throws Exception {
    try (KernelPath path = KernelPath.start(Rtt.ofMillis(20), "reno", true, postgres());
        Connection c = connect(path);
        Statement st = c.createStatement()) {
      assertRoundTrips(st, 20);
      path.rtt(Rtt.ofMillis(40));
      assertThat(path.rtt()).isEqualTo(Rtt.ofMillis(40));
      assertThat(path.describe()).endsWith(", RTT 40ms");
      assertRoundTrips(st, 40);
    }
  }

  // a lower bound is deterministic; the upper one only catches a path that ignores the RTT
  private static void assertRoundTrips(Statement st, double rttMillis) throws SQLException {
    selectOne(st); // a statement prepared server-side, a packet of a changed RTT out of the way
    double[] millis = new double[7];
    for (int i = 0; i < millis.length; i++) {
      long start = System.nanoTime();
      selectOne(st);
      millis[i] = (System.nanoTime() - start) / 1e6;
    }
    Arrays.sort(millis);
    assertThat(millis[0]).as("the fastest of %s ms", Arrays.toString(millis))
        .isGreaterThanOrEqualTo(rttMillis);
    assertThat(millis[millis.length / 2]).as("the median of %s ms", Arrays.toString(millis))
        .isLessThanOrEqualTo(rttMillis * 1.5);
  }

  private static void selectOne(Statement st) throws SQLException {
    try (ResultSet rs = st.executeQuery("SELECT 1")) {
      rs.next();
    }
  }

  @Test
  void itSaysWhatTcpRunsAndCloseLeavesNothing() throws Exception {
    KernelPath path = KernelPath.start(Rtt.ofMillis(20), "reno", false, postgres());
    ProcessHandle program = ProcessHandle.of(path.pid()).orElseThrow();
    assertThat(path.describe()).matches("kernel " + System.getProperty("os.version")
        .replace(".", "\\.") + ", congestion control reno, tcp_wmem \\d+ \\d+ \\d+, tcp_rmem"
        + " \\d+ \\d+ \\d+, slow_start_after_idle 0, MTU 1500, RTT 20ms");
    assertThat(listening(path.address())).isTrue();

    path.close();
    path.close(); // idempotent

    assertThat(program.isAlive()).as("the kernel-path process").isFalse();
    assertThat(listening(path.address())).as("its port").isFalse();
    assertThat(kernelPathChildren()).isEmpty();
  }

  @Test
  void aCongestionControlANamespaceMayNotPickFailsInOneLineLeavingNothing() throws Exception {
    InetSocketAddress postgres = postgres();
    String allowed = read("tcp_allowed_congestion_control");
    assertThatThrownBy(() -> KernelPath.start(Rtt.ofMillis(20), "nosuchcc", true, postgres))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("The kernel path did not start: -congestion-control nosuchcc: not in this"
            + " kernel; a network namespace may pick one of"
            + " net.ipv4.tcp_allowed_congestion_control: " + allowed);
    // one the kernel has but keeps to its first namespace, where there is one (cubic here)
    Optional<String> restricted = Stream.of(read("tcp_available_congestion_control").split(" "))
        .filter(cc -> !List.of(allowed.split(" ")).contains(cc)).findFirst();
    if (restricted.isPresent()) {
      assertThatThrownBy(() -> KernelPath.start(Rtt.ofMillis(20), restricted.get(), true,
          postgres))
          .hasMessage("The kernel path did not start: -congestion-control " + restricted.get()
              + ": a network namespace may only pick one of"
              + " net.ipv4.tcp_allowed_congestion_control: " + allowed);
    }
    assertThat(kernelPathChildren()).isEmpty();
  }

  @Test
  void aKilledJvmLeavesNoKernelPathRunning() throws Exception {
    postgres();
    Process jvm = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java")
        .toString(), "-cp", System.getProperty("java.class.path"),
        KernelPathInAnotherJvm.class.getName()).redirectErrorStream(true).start();
    long pid = -1;
    try (BufferedReader out = jvm.inputReader(StandardCharsets.UTF_8)) {
      List<String> lines = new ArrayList<>();
      for (String line = out.readLine(); line != null; line = out.readLine()) {
        lines.add(line);
        if (line.startsWith("ready ")) {
          pid = Long.parseLong(line.substring("ready ".length()));
          break;
        }
      }
      assertThat(pid).as("the other JVM said: %s", lines).isPositive();
      ProcessHandle program = ProcessHandle.of(pid).orElseThrow();
      jvm.destroyForcibly().waitFor(); // SIGKILL: no shutdown hook, no close()
      assertThat(program.onExit().completeOnTimeout(null, 5, TimeUnit.SECONDS).get())
          .as("kernel-path %d after its JVM was killed", pid).isNotNull();
    } finally {
      jvm.destroyForcibly();
    }
  }

  @Test
  void unavailableSaysWhatToDoInOneLine() {
    assertThat(KernelPath.unavailable(new KernelPath.Host("Linux", true, true, true))).isEmpty();
    assertThat(KernelPath.unavailable(new KernelPath.Host("Mac OS X", true, true, true)))
        .hasValue("The kernel path needs Linux (network namespaces and TUN devices): this is"
            + " Mac OS X");
    assertThat(KernelPath.unavailable(new KernelPath.Host("Linux", false, true, true)))
        .hasValue("The kernel path needs root (CAP_SYS_ADMIN and CAP_NET_ADMIN, for network"
            + " namespaces and TUN devices): run this JVM as root, as CI does");
    assertThat(KernelPath.unavailable(new KernelPath.Host("Linux", true, false, true)))
        .hasValue("The kernel path needs /dev/net/tun: load the tun module (modprobe tun), or"
            + " give the container --device /dev/net/tun");
    assertThat(KernelPath.unavailable(new KernelPath.Host("Linux", true, true, false)))
        .hasValue("The kernel path is not built yet and there is no Go on PATH to build it:"
            + " install Go 1.17 or newer (https://go.dev/dl)");
  }

  @Test
  void nonsenseArgumentsAreRefusedBeforeAnythingStarts() {
    InetSocketAddress somewhere = new InetSocketAddress("127.0.0.1", 9);
    assertThatThrownBy(() -> KernelPath.start(Rtt.ofMillis(20), "bbr; reboot", true, somewhere))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Congestion control \"bbr; reboot\" is no algorithm's name: pick one of"
            + " net.ipv4.tcp_allowed_congestion_control, e.g. reno or bbr");
    assertThatThrownBy(() -> KernelPath.start(null, "bbr", true, somewhere))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("A kernel path needs an RTT and a resolved target: got rtt null, target "
            + somewhere);
  }

  @Test
  void theCacheKeyCoversEveryFileTheBuildReads() throws IOException {
    List<String> listed = Files.readAllLines(SOURCES.resolve("SOURCES"));
    try (Stream<Path> files = Files.list(SOURCES)) {
      assertThat(files.map(p -> p.getFileName().toString())
          .filter(n -> n.endsWith(".go") && !n.endsWith("_test.go") || n.startsWith("go.")))
          .as("SOURCES lists every file of the Go module but the tests")
          .containsExactlyInAnyOrderElementsOf(listed);
    }
  }

  // the line's own facts, in Go: in order, never early, drops counted (no root needed)
  @Test
  void theLinesGoTestsAndVetPass() throws Exception {
    assertThat(go("vet", ".")).isEmpty();
    assertThat(go("test", "-count=1", ".")).startsWith("ok");
  }

  private static String go(String... args) throws Exception {
    List<String> command = new ArrayList<>();
    command.add(GoModule.go().orElseThrow(() -> new AssertionError("no Go to test with"))
        .toString());
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command).directory(SOURCES.toFile())
        .redirectErrorStream(true);
    builder.environment().put("GOFLAGS", "-mod=readonly");
    builder.environment().put("GOWORK", "off");
    Process p = builder.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
    assertThat(p.waitFor(5, TimeUnit.MINUTES)).isTrue();
    assertThat(p.exitValue()).as(out).isZero();
    return out;
  }

  private static String read(String ipv4Sysctl) throws IOException {
    return Files.readString(Path.of("/proc/sys/net/ipv4", ipv4Sysctl)).trim()
        .replaceAll("\\s+", " ");
  }

  private static List<ProcessHandle> kernelPathChildren() {
    return ProcessHandle.current().descendants().filter(p -> p.info().command()
        .map(c -> c.endsWith("/kernel-path")).orElse(false)).toList();
  }

  private static boolean listening(InetSocketAddress address) {
    try (Socket s = new Socket()) {
      s.connect(address, 500);
      return true;
    } catch (IOException e) {
      return false;
    }
  }
}
