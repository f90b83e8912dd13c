package io.github.latencylab.env;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.latencylab.env.backend.GoModule;
import io.github.latencylab.env.backend.ToxiproxyServer;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Collections;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Nothing to install but Java: latency-lab's Toxiproxy server comes from the artifact built for
 * this machine (latency-lab-toxiproxy-PLATFORM, which core's profiles add), not from go build.
 * Each test runs as on a machine without Go; a stale or missing artifact is refused in one line.
 */
class PrebuiltToxiproxyServerTest {

  private static final String ROOT = "/io/github/latencylab/toxiproxy-server/";
  private static final GoModule WITHOUT_GO = ToxiproxyServer.MODULE.withoutGo();

  @TempDir
  Path cache;

  @Test
  void withoutGoAnEmptyCacheGetsTheArtifactsBinaryWholeAndExecutable() throws Exception {
    String platform = GoModule.platformKey(null);
    URL artifact = ToxiproxyServer.class.getResource(ROOT + platform + "/toxiproxy-server");
    assertThat(artifact).as("latency-lab-toxiproxy-" + platform + " on the classpath (core's"
        + " profiles add it)").isNotNull();

    Path binary = ToxiproxyServer.ownBinary(config(), null, WITHOUT_GO);

    assertThat(binary).isEqualTo(ToxiproxyServer.cachedBinary(config())).isExecutable();
    try (InputStream in = artifact.openStream()) {
      assertThat(Files.readAllBytes(binary)).as("the artifact's bytes")
          .isEqualTo(in.readAllBytes());
    }
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(binary)))
        .as("as go build leaves it").isEqualTo("rwxr-xr-x");
    try (Stream<Path> left = Files.list(binary.getParent())) {
      assertThat(left).as("nothing half-written left beside it").containsExactly(binary);
    }
    assertThat(version(binary)).isEqualTo("toxiproxy-server version 2.5.0+latency_us+tcp_window");
    assertThat(ToxiproxyServer.ownBinary(config(), null, WITHOUT_GO)).as("installed once")
        .isEqualTo(binary);
  }

  @Test
  void theArtifactCarriesToxiproxysLicence() throws Exception {
    String base = ToxiproxyServer.class.getResource(ROOT + GoModule.platformKey(null)
        + "/toxiproxy-server").toString().replaceFirst("io/github/latencylab/.*$", "");
    URL licence = Collections.list(ToxiproxyServer.class.getClassLoader()
            .getResources("META-INF/LICENSE")).stream()
        .filter(url -> url.toString().startsWith(base)).findFirst().orElse(null);
    assertThat(licence).as("META-INF/LICENSE beside the binary, in " + base).isNotNull();
    try (InputStream in = licence.openStream()) {
      assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8))
          .contains("github.com/Shopify/toxiproxy/v2@v2.5.0", "The MIT License (MIT)",
              "Copyright (c) 2014 Shopify", "golang.org/x/sys@", "go@");
    }
  }

  @Test
  void anArtifactOfOtherSourcesIsNeverInstalled() {
    // test resources: a linux-riscv64 artifact whose properties name other sources
    assertThatThrownBy(() -> ToxiproxyServer.ownBinary(config(), "linux/riscv64", WITHOUT_GO))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("latency-lab's Toxiproxy server is not built yet, the prebuilt one on the"
            + " classpath (io.github.latencylab:latency-lab-toxiproxy-linux-riscv64) was built"
            + " from other sources (000000000000; these are " + ToxiproxyServer.sourceHash()
            + ") and there is no Go on PATH to build it: use the"
            + " io.github.latencylab:latency-lab-toxiproxy-linux-riscv64 of latency-lab-core's"
            + " version, install Go 1.17 or newer (https://go.dev/dl), or set"
            + " latencylab.toxiproxy.server to a toxiproxy-server binary (whole-millisecond"
            + " latency only)");
    assertThat(ToxiproxyServer.cachedBinary(config(), "linux/riscv64")).doesNotExist();
  }

  @Test
  void aShippedPlatformsArtifactMissingAndNoGoSaysWhatToAdd() throws Exception {
    String absent = Stream.of("linux-amd64", "linux-arm64", "darwin-amd64", "darwin-arm64")
        .filter(p -> ToxiproxyServer.class.getResource(ROOT + p + "/toxiproxy-server") == null)
        .findFirst().orElseThrow();
    assertThatThrownBy(() -> ToxiproxyServer.ownBinary(config(), absent.replace('-', '/'),
        WITHOUT_GO))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("latency-lab's Toxiproxy server is not built yet, no prebuilt one for "
            + absent + " is on the classpath and there is no Go on PATH to build it: add"
            + " io.github.latencylab:latency-lab-toxiproxy-" + absent + " (Maven: core's"
            + " profiles add it; Gradle: README, Requirements), install Go 1.17 or newer"
            + " (https://go.dev/dl), or set latencylab.toxiproxy.server to a toxiproxy-server"
            + " binary (whole-millisecond latency only)");
  }

  @Test
  void aPlatformLatencyLabShipsNoneForNeedsGo() {
    assertThatThrownBy(() -> ToxiproxyServer.ownBinary(config(), "freebsd/amd64", WITHOUT_GO))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("latency-lab's Toxiproxy server is not built yet, latency-lab ships none for"
            + " freebsd-amd64 and there is no Go on PATH to build it: install Go 1.17 or newer"
            + " (https://go.dev/dl), or set latencylab.toxiproxy.server to a toxiproxy-server"
            + " binary (whole-millisecond latency only)");
  }

  private LabConfig config() {
    return LabConfig.fromEnvironment().with(Setting.CACHE_DIR, cache.toString());
  }

  private static String version(Path binary) throws Exception {
    Process p = new ProcessBuilder(binary.toString(), "-version").redirectErrorStream(true)
        .start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
    assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(out).isZero();
    return out;
  }
}
