package io.github.latencylab.cli;

import io.github.latencylab.env.BackendKind;
import io.github.latencylab.env.LabConfig;
import io.github.latencylab.env.Setting;
import picocli.CommandLine.Option;

/** The Lab options every subcommand shares (a picocli mixin). */
public final class LabOptions {

  @Option(names = "--backend", paramLabel = "B", converter = BackendConverter.class,
      description = "auto | embedded | testcontainers | external (default: latencylab.backend"
          + " / LATENCYLAB_BACKEND, else auto: testcontainers where a Docker engine answers and"
          + " has both images, else embedded; demo: embedded)")
  BackendKind backend;

  @Option(names = "--link", paramLabel = "L",
      description = "linux | linux-bbr | delay-only: the path's TCP window beyond its RTT"
          + " (default: latencylab.link / LATENCYLAB_LINK, else linux: slow start from 10"
          + " segments, capped, shrinking after an idle; delay-only: a bare delay)")
  String link;

  /** The Lab's settings from the environment, then these options. */
  public LabConfig config() {
    LabConfig config = LabConfig.fromEnvironment();
    if (backend != null) {
      config = config.with(Setting.BACKEND, backend.label());
    }
    if (link != null) {
      try {
        config = config.with(Setting.LINK, link);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(e.getMessage().replace("(from LabConfig.with(LINK))",
            "(from --link)"), e);
      }
    }
    return config;
  }
}

/** Reads --backend; a bad value's message lists the choices. */
final class BackendConverter implements picocli.CommandLine.ITypeConverter<BackendKind> {
  @Override
  public BackendKind convert(String value) {
    try {
      return BackendKind.parse(value, "--backend");
    } catch (IllegalArgumentException e) {
      throw new picocli.CommandLine.TypeConversionException(e.getMessage());
    }
  }
}
