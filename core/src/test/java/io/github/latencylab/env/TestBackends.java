package io.github.latencylab.env;

import io.github.latencylab.env.backend.DockerProbe;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The backends the Lab-level tests run on: embedded always, testcontainers too where a Docker
 * engine answers and has both images (latencylab.postgres.image, latencylab.toxiproxy.image)
 * already, so that tests never wait on a pull. {@code LATENCYLAB_TEST_BACKENDS} (a comma
 * list, e.g. {@code embedded,testcontainers}) overrides.
 */
public final class TestBackends {

  private static final List<BackendKind> AVAILABLE = detect();

  private TestBackends() {
  }

  public static List<BackendKind> available() {
    return AVAILABLE;
  }

  private static List<BackendKind> detect() {
    String chosen = System.getenv("LATENCYLAB_TEST_BACKENDS");
    List<BackendKind> kinds = new ArrayList<>();
    if (chosen != null && !chosen.isBlank()) {
      for (String name : chosen.split(",")) {
        kinds.add(BackendKind.parse(name.trim().toLowerCase(Locale.ROOT),
            "LATENCYLAB_TEST_BACKENDS"));
      }
    } else {
      kinds.add(BackendKind.EMBEDDED);
      LabConfig config = LabConfig.fromEnvironment();
      Map<String, String> env = System.getenv();
      String pg = config.get(Setting.POSTGRES_IMAGE);
      String toxiproxy = config.get(Setting.TOXIPROXY_IMAGE);
      if (!DockerProbe.dockerAnswers(env)) {
        System.out.println("latency-lab: testcontainers backend not tested: no Docker engine");
      } else if (!DockerProbe.imagePresent(env, pg) || !DockerProbe.imagePresent(env, toxiproxy)) {
        System.out.println("latency-lab: testcontainers backend not tested: images " + pg
            + " and " + toxiproxy + " not both present (docker pull them, or run"
            + " .ci/docker-images.sh and set LATENCYLAB_POSTGRES_IMAGE/LATENCYLAB_TOXIPROXY_IMAGE)");
      } else {
        kinds.add(BackendKind.TESTCONTAINERS);
      }
    }
    System.out.println("latency-lab: backends under test: " + kinds);
    return List.copyOf(kinds);
  }

  /** One Lab per backend, started on first use, closed together. */
  public static final class Labs implements AutoCloseable {
    private final Map<BackendKind, Lab> labs = new EnumMap<>(BackendKind.class);

    public synchronized Lab get(BackendKind kind) {
      return labs.computeIfAbsent(kind,
          k -> Lab.start(LabConfig.fromEnvironment().withBackend(k)));
    }

    @Override
    public synchronized void close() {
      labs.values().forEach(Lab::close);
      labs.clear();
    }
  }
}
