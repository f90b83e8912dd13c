package io.github.latencylab.env;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.TimeUnit;

/**
 * Upstream's toxiproxy-server v2.5.0, without latency_us: what a user's own Toxiproxy is. From
 * the cache where .ci/run and .ci/docker-images.sh put it, else built there with go install.
 */
final class StockToxiproxy {

  static final String MODULE = "github.com/Shopify/toxiproxy/v2/cmd/server@v2.5.0";

  private StockToxiproxy() {
  }

  static synchronized Path binary() throws Exception {
    Path cached = LabConfig.fromEnvironment().cacheDir()
        .resolve("toxiproxy/v2.5.0/toxiproxy-server");
    if (Files.isExecutable(cached)) {
      return cached;
    }
    Files.createDirectories(cached.getParent());
    Path gobin = Files.createTempDirectory(cached.getParent(), "build-");
    ProcessBuilder go = new ProcessBuilder("go", "install", MODULE).inheritIO();
    go.environment().put("CGO_ENABLED", "0");
    go.environment().put("GOBIN", gobin.toString());
    Process p = go.start();
    if (!p.waitFor(10, TimeUnit.MINUTES) || p.exitValue() != 0) {
      throw new IllegalStateException("go install " + MODULE + " failed");
    }
    Files.move(gobin.resolve("server"), cached, StandardCopyOption.ATOMIC_MOVE,
        StandardCopyOption.REPLACE_EXISTING);
    Files.delete(gobin);
    return cached;
  }
}
