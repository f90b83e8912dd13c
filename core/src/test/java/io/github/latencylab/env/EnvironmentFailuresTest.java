package io.github.latencylab.env;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.github.latencylab.env.backend.DockerProbe;
import io.github.latencylab.env.backend.ToxiproxyServer;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Lab's environment failing: each is one line that says what failed, why and what to do,
 * within seconds, and leaves nothing behind: no process of this JVM's, no file in the Lab's
 * cache (where its Toxiproxy logs and registrations live), no container. A JVM killed during a
 * run: SIGTERM stops everything through the shutdown hook, and after SIGKILL the next start
 * stops the orphans (docs/failure-behaviour.md).
 */
@Tag("alone") // checks the machine's containers: runs alone (pom.xml)
class EnvironmentFailuresTest {

  private static final Duration WATCHDOG = Duration.ofSeconds(60);

  // one server for the external-backend cases, each on a database of its own; started before
  // the first snapshot, so its processes are no test's leftovers
  private static UsersDatabase users;

  @TempDir
  Path cache;

  private Set<Long> processesBefore;
  private Set<String> containersBefore;

  @BeforeAll
  static void startUsersDatabase() throws Exception {
    users = UsersDatabase.start();
  }

  @AfterAll
  static void stopUsersDatabase() throws IOException {
    users.close();
  }

  @BeforeEach
  void snapshot() {
    processesBefore = descendants();
    containersBefore = containers();
  }

  /** Nothing started is left running, no file in the cache, no container. */
  @AfterEach
  void nothingLeftBehind() throws IOException {
    assertThat(descendants()).as("processes of this JVM").isSubsetOf(processesBefore);
    assertThat(filesIn(cache.resolve("run"))).as("the cache's run/").isEmpty();
    assertThat(containers()).as("containers").isSubsetOf(containersBefore);
  }

  private LabConfig embedded() {
    return LabConfig.fromEnvironment().withBackend(BackendKind.EMBEDDED)
        .with(Setting.CACHE_DIR, cache.toString());
  }

  @Test
  void autoWithDockerButWithoutTheImagesChoosesEmbeddedAtOnce() {
    assumeTrue(DockerProbe.dockerAnswers(System.getenv()), "no Docker engine here");
    LabConfig config = LabConfig.fromEnvironment().withBackend(BackendKind.AUTO)
        .with(Setting.POSTGRES_IMAGE, "latency-lab/no-such-image:0");
    BackendKind chosen = assertTimeoutPreemptively(WATCHDOG, () -> Lab.resolve(config));
    assertThat(chosen).isEqualTo(BackendKind.EMBEDDED);
  }

  @Test
  void testcontainersWithoutTheImagesFailsInOneLineWithoutWaitingOnTestcontainers() {
    assumeTrue(DockerProbe.dockerAnswers(System.getenv()), "no Docker engine here");
    LabConfig config = LabConfig.fromEnvironment().withBackend(BackendKind.TESTCONTAINERS)
        .with(Setting.POSTGRES_IMAGE, "latency-lab/no-such-image:0")
        .with(Setting.CACHE_DIR, cache.toString());
    assertTimeoutPreemptively(WATCHDOG, () -> assertThatThrownBy(() -> Lab.start(config))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("Cannot start the testcontainers backend: image"
            + " latency-lab/no-such-image:0 (latencylab.postgres.image) is not present locally"
            + " and could not be pulled: ")
        .hasMessageEndingWith(". Pull it where a registry is reachable, set"
            + " latencylab.postgres.image to a local image, or use the embedded backend"
            + " (latencylab.backend=embedded)")
        .satisfies(EnvironmentFailuresTest::show).message().doesNotContain("\n"));
  }

  @Test
  void testcontainersWithoutADockerEngineFailsInOneLine() {
    LabConfig config = LabConfig.fromEnvironment().withBackend(BackendKind.TESTCONTAINERS);
    assertThatThrownBy(() -> Lab.requireDockerAndImages(config,
        Map.of("DOCKER_HOST", "unix://" + cache.resolve("no-docker.sock"))))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("Cannot start the testcontainers backend: no Docker engine answers"
            + " (DOCKER_HOST=unix://" + cache.resolve("no-docker.sock") + "): start Docker, set"
            + " DOCKER_HOST, or use the embedded backend (latencylab.backend=embedded)");
  }

  @Test
  void aToxiproxyServerThatIsNotAProgramIsNamedWithTheFix() throws IOException {
    Path corrupt = Files.writeString(cache.resolve("toxiproxy-server"), "not a program");
    corrupt.toFile().setExecutable(true);
    assertThatThrownBy(() -> Lab.start(embedded()
        .with(Setting.TOXIPROXY_SERVER, corrupt.toString())))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("Could not start the embedded Lab: The Toxiproxy server "
            + corrupt + " did not start: toxiproxy-server exited with 127 on port ")
        .hasMessageEndingWith(". Fix latencylab.toxiproxy.server, or unset it to use"
            + " latency-lab's own")
        .satisfies(EnvironmentFailuresTest::show).message().doesNotContain("\n");
    Files.delete(corrupt);
  }

  @Test
  void aCorruptBuildInTheCacheIsNamedWithTheFix() throws Exception {
    Path cached = ToxiproxyServer.cachedBinary(embedded());
    Files.createDirectories(cached.getParent());
    Files.write(cached, new byte[] {0x7f, 'E', 'L', 'F', 0, 0, 0});
    cached.toFile().setExecutable(true);
    assertThatThrownBy(() -> Lab.start(embedded()))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("Could not start the embedded Lab: The Toxiproxy server "
            + cached + " did not start: toxiproxy-server exited with 127 on port ")
        .hasMessageEndingWith(". Delete it, and latency-lab puts it back on the next start")
        .satisfies(EnvironmentFailuresTest::show).message().doesNotContain("\n");
  }

  @Test
  void anEmbeddedDataDirectoryItCannotMakeIsNamedWithTheFix() throws IOException {
    Path inTheWay = Files.writeString(cache.resolve("clusters"), "a file");
    assertThatThrownBy(() -> Lab.start(embedded()
        .with(Setting.EMBEDDED_DATA, inTheWay.toString())))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("Could not start the embedded Lab: The embedded PostgreSQL cannot make its"
            + " cluster in " + inTheWay + " (latencylab.embedded.data from"
            + " LabConfig.with(EMBEDDED_DATA)): a file is in the way. Fix"
            + " latencylab.embedded.data, or unset it to use the temp directory")
        .satisfies(EnvironmentFailuresTest::show);
    Files.delete(inTheWay);
  }

  @Test
  void aToxiproxyServerSettingThatIsNoExecutableSaysSo() throws IOException {
    Path plain = Files.writeString(cache.resolve("plain-file"), "");
    assertThatThrownBy(() -> Lab.start(embedded()
        .with(Setting.TOXIPROXY_SERVER, plain.toString())))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("latencylab.toxiproxy.server")
        .hasMessageContaining("no executable file there")
        .satisfies(EnvironmentFailuresTest::show);
  }

  @Test
  void anUnreachableExternalDatabaseFailsInOneLineWithoutThePassword() throws IOException {
    int closed;
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      closed = s.getLocalPort();
    }
    String password = "unreachable-Pw-91c2";
    LabConfig config = LabConfig.fromEnvironment().withBackend(BackendKind.EXTERNAL)
        .with(Setting.JDBC_URL, "jdbc:postgresql://127.0.0.1:" + closed + "/app?connectTimeout=5")
        .with(Setting.JDBC_USER, "app").with(Setting.JDBC_PASSWORD, password);
    assertTimeoutPreemptively(WATCHDOG, () -> assertThatThrownBy(() -> Lab.start(config))
        .hasMessageContaining("127.0.0.1:" + closed)
        .hasMessageNotContaining(password)
        .satisfies(EnvironmentFailuresTest::show).message().doesNotContain("\n"));
  }

  @Test
  void aWrongPasswordForTheExternalDatabaseIsRefusedWithoutShowingIt() throws Exception {
    String db = users.createDatabase();
    String wrong = "wrong-Pw-5d1e8b";
    LabConfig config = users.external(users.jdbcUrl(db), UsersDatabase.OWNER, wrong, true);
    assertTimeoutPreemptively(WATCHDOG, () -> assertThatThrownBy(() -> Lab.start(config))
        .hasMessageContaining("password authentication failed for user \"app_owner\"")
        .hasMessageNotContaining(wrong)
        .hasMessageNotContaining(UsersDatabase.PASSWORD)
        .satisfies(EnvironmentFailuresTest::show).message().doesNotContain("\n"));
    assertThat(users.toxiproxy().getProxies()).as("proxies left on the user's Toxiproxy")
        .isEmpty();
  }

  @Test
  void aProxyPortAlreadyTakenIsNamedAndNoProxyIsLeft() throws Exception {
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      String db = users.createDatabase();
      LabConfig config = users.external(db, UsersDatabase.OWNER, true)
          .with(Setting.TOXIPROXY_LISTEN, "127.0.0.1:" + taken.getLocalPort());
      assertThatThrownBy(() -> Lab.start(config))
          .hasMessageContaining("127.0.0.1:" + taken.getLocalPort())
          .hasMessageContaining("address already in use")
          .satisfies(EnvironmentFailuresTest::show).message().doesNotContain("\n");
      assertThat(users.toxiproxy().getProxies()).as("proxies left on the user's Toxiproxy")
          .isEmpty();
    }
  }

  @Test
  void aJvmStoppedWithSigtermStopsEverythingItStarted() throws Exception {
    OtherJvm other = startInAnotherJvm();
    other.jvm().destroy(); // SIGTERM: the shutdown hooks run
    assertThat(other.jvm().waitFor(60, TimeUnit.SECONDS)).as("the JVM exits").isTrue();
    for (Started lab : other.labs()) {
      assertThat(ProcessHandle.of(lab.toxiproxy()).filter(ProcessHandle::isAlive))
          .as("toxiproxy-server").isEmpty();
      awaitGone(lab);
    }
  }

  @Test
  void aJvmKilledWithSigkillLeavesOrphansThatTheNextStartStops() throws Exception {
    OtherJvm other = startInAnotherJvm();
    other.jvm().destroyForcibly(); // SIGKILL: no hook runs
    assertThat(other.jvm().waitFor(60, TimeUnit.SECONDS)).as("the JVM exits").isTrue();
    for (Started lab : other.labs()) {
      assertThat(ProcessHandle.of(lab.toxiproxy()).filter(ProcessHandle::isAlive))
          .as("the orphaned toxiproxy-server, before the next start").isPresent();
    }
    // the next start, on the other JVM's cache and server: no build of its own to wait for
    Lab.start(embedded().with(Setting.TOXIPROXY_SERVER,
        ToxiproxyServer.locate(LabConfig.fromEnvironment()).toString())).close();
    for (Started lab : other.labs()) {
      assertThat(ProcessHandle.of(lab.toxiproxy()).filter(ProcessHandle::isAlive))
          .as("the orphaned toxiproxy-server, after the next start").isEmpty();
      awaitGone(lab);
    }
  }

  // the JVM's first Lab (zonky's initdb) and one on a copy of its cluster (pg_ctl alone)
  record OtherJvm(Process jvm, List<Started> labs) {
  }

  record Started(long toxiproxy, long postmaster, Path data) {
  }

  private OtherJvm startInAnotherJvm() throws Exception {
    Path server = ToxiproxyServer.locate(LabConfig.fromEnvironment());
    Process jvm = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java")
        .toString(), "-cp", System.getProperty("java.class.path"),
        "-Dlatencylab.cache=" + cache, "-Dlatencylab.toxiproxy.server=" + server,
        "-Dlatencylab.embedded.data=" + LabConfig.fromEnvironment().get(Setting.EMBEDDED_DATA),
        LabInAnotherJvm.class.getName())
        .redirectErrorStream(true).start();
    BufferedReader out = new BufferedReader(new InputStreamReader(jvm.getInputStream(),
        StandardCharsets.UTF_8));
    List<Started> labs = new ArrayList<>();
    while (labs.size() < 2) {
      String ready = assertTimeoutPreemptively(WATCHDOG, () -> {
        String line;
        while ((line = out.readLine()) != null && !line.startsWith("ready ")) {
          // the Lab's log
        }
        return line;
      });
      assertThat(ready).as("the other JVM's Lab %d starts", labs.size() + 1).isNotNull();
      String[] f = ready.split(" ", 4);
      labs.add(new Started(Long.parseLong(f[1]), Long.parseLong(f[2]), Path.of(f[3])));
    }
    // keep draining, so that the other JVM never blocks on a full pipe
    Thread drain = new Thread(() -> out.lines().forEach(line -> { }), "drain");
    drain.setDaemon(true);
    drain.start();
    return new OtherJvm(jvm, labs);
  }

  // zonky stops an orphaned postmaster and deletes its data directory at the next start; after
  // SIGTERM its own shutdown hook does
  private void awaitGone(Started lab) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (System.nanoTime() < deadline && (Files.exists(lab.data())
        || ProcessHandle.of(lab.postmaster()).filter(ProcessHandle::isAlive).isPresent())) {
      Thread.sleep(50);
    }
    assertThat(ProcessHandle.of(lab.postmaster()).filter(ProcessHandle::isAlive))
        .as("postmaster").isEmpty();
    assertThat(lab.data()).as("data directory").doesNotExist();
  }

  // the line, as a user sees it, in the test's output
  private static void show(Throwable e) {
    System.out.println("one line: " + e.getMessage());
  }

  private static Set<Long> descendants() {
    return ProcessHandle.current().descendants().filter(ProcessHandle::isAlive)
        .map(ProcessHandle::pid).collect(Collectors.toSet());
  }

  private static List<Path> filesIn(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    try (Stream<Path> files = Files.list(dir)) {
      return files.sorted(Comparator.naturalOrder()).toList();
    }
  }

  /** The engine's containers, by the docker CLI; empty without one. */
  private static Set<String> containers() {
    if (!DockerProbe.dockerAnswers(System.getenv())) {
      return Set.of();
    }
    try {
      Process p = new ProcessBuilder("docker", "ps", "-aq").redirectErrorStream(true).start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      p.waitFor(30, TimeUnit.SECONDS);
      return out.lines().filter(l -> !l.isBlank()).collect(Collectors.toSet());
    } catch (IOException e) {
      return Set.of();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Set.of();
    }
  }
}
