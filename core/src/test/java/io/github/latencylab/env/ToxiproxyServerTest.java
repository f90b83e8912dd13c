package io.github.latencylab.env;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.latencylab.env.backend.GoModule;
import io.github.latencylab.env.backend.ToxiproxyServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** latency-lab's Toxiproxy server: its sources, where it is cached, how it is built. */
@Tag("alone") // asserts on times: runs alone, after the other tests (pom.xml)
class ToxiproxyServerTest {

  private static final Path SOURCES =
      Path.of("src/main/resources/io/github/latencylab/env/toxiproxy");

  @Test
  void theCacheKeyCoversEveryFileTheBuildReads() throws Exception {
    List<String> listed = Files.readAllLines(SOURCES.resolve("SOURCES"));
    try (Stream<Path> files = Files.list(SOURCES)) {
      assertThat(files.map(p -> p.getFileName().toString())
          .filter(n -> n.endsWith(".go") && !n.endsWith("_test.go") || n.startsWith("go.")))
          .as("SOURCES lists every file of the Go module but the tests")
          .containsExactlyInAnyOrderElementsOf(listed);
    }
    assertThat(ToxiproxyServer.UPSTREAM_VERSION).isEqualTo("v2.5.0");
    assertThat(ToxiproxyServer.sourceHash()).matches("[0-9a-f]{12}");
  }

  @Test
  void theCiScriptBuildsWhereTheLabLooks(@TempDir Path cache) throws Exception {
    LabConfig config = LabConfig.fromEnvironment().with(Setting.CACHE_DIR, cache.toString());
    ProcessBuilder script = new ProcessBuilder("bash", "../.ci/toxiproxy-server.sh",
        "--print-path").redirectErrorStream(true);
    script.environment().put("LATENCYLAB_CACHE", cache.toString());
    Process p = script.start();
    String printed = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
    assertThat(p.waitFor()).as(printed).isZero();

    assertThat(Path.of(printed)).isEqualTo(ToxiproxyServer.cachedBinary(config));
    assertThat(printed).startsWith(cache + "/toxiproxy/v2.5.0-latency_us-"
        + ToxiproxyServer.sourceHash() + "/");
  }

  // where no artifact fits the platform (PrebuiltToxiproxyServerTest: where one does)
  @Test
  void buildsIntoAnEmptyCacheOnceThenReusesTheBinary(@TempDir Path cache) throws Exception {
    LabConfig config = LabConfig.fromEnvironment().with(Setting.CACHE_DIR, cache.toString());
    GoModule goBuild = ToxiproxyServer.MODULE.withoutPrebuilt();
    Path binary = ToxiproxyServer.ownBinary(config, null, goBuild);

    assertThat(binary).isEqualTo(ToxiproxyServer.cachedBinary(config)).isExecutable();
    assertThat(run(binary.toString(), "-version"))
        .isEqualTo("toxiproxy-server version 2.5.0+latency_us+tcp_window");
    try (Stream<Path> left = Files.list(binary.getParent())) {
      assertThat(left).as("no build directory left behind").containsExactly(binary);
    }
    FileTime built = Files.getLastModifiedTime(binary);
    assertThat(ToxiproxyServer.ownBinary(config, null, goBuild)).isEqualTo(binary);
    assertThat(Files.getLastModifiedTime(binary)).as("not rebuilt").isEqualTo(built);
  }

  // the toxics' own facts, in Go: latency_us never early, counted from arrival, an interrupt
  // passes the waiting chunk on (its round-trip timing test is left to go test -v by hand);
  // tcp_window's flights, cap, receiver, send buffer, timeout, idle restart and removal, and
  // BBR's pacing and window, by the times it stamps
  @Test
  void theToxicsGoTestsPass() throws Exception {
    String out = run("go", "test", "-count=1", "-run",
        "Deadline|Arrival|Interrupt|Window|Receiver|Buffer|Write|Timeout|Removing|BBR", ".");
    assertThat(out).startsWith("ok");
  }

  private static String run(String... command) throws Exception {
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
}
