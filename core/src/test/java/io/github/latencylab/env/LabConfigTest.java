package io.github.latencylab.env;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.latencylab.latency.Link;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class LabConfigTest {

  @Test
  void propertyWinsOverEnvironmentWhichWinsOverDefault() {
    LabConfig config = LabConfig.from(
        Map.of("latencylab.backend", "external"),
        Map.of("LATENCYLAB_BACKEND", "embedded", "LATENCYLAB_POSTGRES_IMAGE", "my/pg:17"));
    assertThat(config.backend()).isEqualTo(BackendKind.EXTERNAL);
    assertThat(config.sourceOf(Setting.BACKEND)).isEqualTo("-Dlatencylab.backend");
    assertThat(config.get(Setting.POSTGRES_IMAGE)).isEqualTo("my/pg:17");
    assertThat(config.sourceOf(Setting.POSTGRES_IMAGE)).isEqualTo("LATENCYLAB_POSTGRES_IMAGE");
    assertThat(config.get(Setting.TOXIPROXY_IMAGE)).isEqualTo("ghcr.io/shopify/toxiproxy:2.5.0");
    assertThat(config.sourceOf(Setting.TOXIPROXY_IMAGE)).isEqualTo("default");
  }

  @Test
  void defaultsAreAutoAndCalibrated() {
    LabConfig config = LabConfig.from(Map.of(), Map.of("XDG_CACHE_HOME", "/x/cache"));
    assertThat(config.backend()).isEqualTo(BackendKind.AUTO);
    assertThat(config.calibrate()).isTrue();
    assertThat(config.cacheDir()).isEqualTo(Path.of("/x/cache/latency-lab"));
  }

  @Test
  void autoMeansTestcontainersOnlyWhereItCanStartAtOnce() {
    Optional<String> ready = Optional.empty();
    Optional<String> noImage = Optional.of("image postgres:17 is not present locally");
    assertThat(Lab.resolve(BackendKind.AUTO, ready)).isEqualTo(BackendKind.TESTCONTAINERS);
    assertThat(Lab.resolve(BackendKind.AUTO, noImage)).isEqualTo(BackendKind.EMBEDDED);
    assertThat(Lab.resolve(BackendKind.EXTERNAL, ready)).isEqualTo(BackendKind.EXTERNAL);
    assertThat(Lab.resolve(BackendKind.EMBEDDED, ready)).isEqualTo(BackendKind.EMBEDDED);
    assertThat(Lab.resolve(BackendKind.TESTCONTAINERS, noImage))
        .isEqualTo(BackendKind.TESTCONTAINERS);
  }

  @Test
  void unknownBackendNamesTheValueItsSourceAndTheChoices() {
    assertThatThrownBy(() -> LabConfig.from(Map.of(), Map.of("LATENCYLAB_BACKEND", "docker")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Invalid backend 'docker' (from LATENCYLAB_BACKEND): expected one of auto,"
            + " embedded, testcontainers, external");
    assertThatThrownBy(() -> LabConfig.from(Map.of(), Map.of()).with(Setting.BACKEND, "k8s"))
        .hasMessage("Invalid backend 'k8s' (from LabConfig.with(BACKEND)): expected one of auto,"
            + " embedded, testcontainers, external");
  }

  @Test
  void calibrateMustBeABoolean() {
    assertThatThrownBy(() -> LabConfig.from(Map.of("latencylab.rtt.calibrate", "yes"), Map.of()))
        .hasMessage("Invalid latencylab.rtt.calibrate 'yes' (from -Dlatencylab.rtt.calibrate):"
            + " expected true or false");
  }

  @Test
  void embeddedDataIsAnAbsolutePathOrTheTempDirectory() {
    assertThat(LabConfig.from(Map.of(), Map.of()).embeddedDataDir())
        .isEqualTo(Path.of(System.getProperty("java.io.tmpdir")));
    assertThat(LabConfig.from(Map.of(), Map.of("LATENCYLAB_EMBEDDED_DATA", "/dev/shm"))
        .embeddedDataDir()).isEqualTo(Path.of("/dev/shm"));
    assertThatThrownBy(() -> LabConfig.from(Map.of("latencylab.embedded.data", "shm"), Map.of()))
        .hasMessage("Invalid latencylab.embedded.data 'shm' (from -Dlatencylab.embedded.data):"
            + " expected an absolute directory path, e.g. /dev/shm, or nothing for the temp"
            + " directory");
  }

  @Test
  void toxicsAreAutoOrWholeMs() {
    assertThat(LabConfig.from(Map.of(), Map.of()).wholeMillisecondToxics()).isFalse();
    assertThat(LabConfig.from(Map.of(), Map.of("LATENCYLAB_RTT_TOXICS", "whole-ms"))
        .wholeMillisecondToxics()).isTrue();
    assertThatThrownBy(() -> LabConfig.from(Map.of("latencylab.rtt.toxics", "us"), Map.of()))
        .hasMessage("Invalid latencylab.rtt.toxics 'us' (from -Dlatencylab.rtt.toxics):"
            + " expected auto or whole-ms");
  }

  @Test
  void theLinkIsLinuxByDefaultAndEachParameterCanBeSet() {
    assertThat(LabConfig.from(Map.of(), Map.of()).link()).isEqualTo(Link.LINUX);
    assertThat(LabConfig.from(Map.of("latencylab.link", "delay-only"), Map.of()).link())
        .isEqualTo(Link.DELAY_ONLY);
    Link set = LabConfig.from(Map.of("latencylab.link", "linux-bbr",
        "latencylab.link.initialWindow", "4", "latencylab.link.mss", "1460",
        "latencylab.link.maxWindow", "512KiB", "latencylab.link.rtoMin", "1s"), Map.of()).link();
    assertThat(set).as("BBR's send buffer three times the initial window set")
        .isEqualTo(new Link("linux-bbr", 4, 1460, 512 * 1024, 1_000_000, false, 64_088,
            3 * 4 * 1460, true));
    assertThat(LabConfig.from(Map.of("latencylab.link.initialSendBuffer", "64KiB"), Map.of())
        .link().initialSendBufferBytes()).isEqualTo(65_536);
    assertThat(LabConfig.from(Map.of(), Map.of("LATENCYLAB_LINK_MAXWINDOW", "4MB")).link()
        .maxWindowBytes()).isEqualTo(4_000_000);
  }

  @Test
  void aBadLinkSettingIsNamedWithItsValueAndTheRule() {
    assertThatThrownBy(() -> LabConfig.from(Map.of("latencylab.link", "netem"), Map.of()))
        .hasMessage("Invalid latencylab.link 'netem' (from -Dlatencylab.link): expected linux,"
            + " linux-bbr or delay-only");
    assertThatThrownBy(() -> LabConfig.from(Map.of("latencylab.link.maxWindow", "3 GB"),
        Map.of())).hasMessage("Invalid latencylab.link.maxWindow '3 GB' (from"
            + " -Dlatencylab.link.maxWindow): expected bytes from 1 to 1GiB, e.g. 3MiB, 4194304"
            + " or 512KiB");
    assertThatThrownBy(() -> LabConfig.from(Map.of("latencylab.link.initialSendBuffer",
        "automatic"), Map.of())).hasMessage("Invalid latencylab.link.initialSendBuffer"
            + " 'automatic' (from -Dlatencylab.link.initialSendBuffer): expected auto (twice the"
            + " initial window, three times with BBR) or bytes from 1 to 1GiB, e.g. 64KiB");
    assertThatThrownBy(() -> LabConfig.from(Map.of(), Map.of("LATENCYLAB_LINK_INITIALWINDOW",
        "0"))).hasMessage("Invalid latencylab.link.initialWindow '0' (from"
            + " LATENCYLAB_LINK_INITIALWINDOW): expected a whole number from 1 to 1000");
    assertThatThrownBy(() -> LabConfig.from(Map.of("latencylab.link.rtoMin", "200"), Map.of()))
        .hasMessage("Invalid latencylab.link.rtoMin '200' (from -Dlatencylab.link.rtoMin):"
            + " expected a duration such as 200ms or 1s");
  }

  @Test
  void jdbcUrlMustBePgjdbcs() {
    assertThatThrownBy(() -> LabConfig.from(Map.of(),
        Map.of("LATENCYLAB_JDBC_URL", "jdbc:mysql://db/app")))
        .hasMessage("Invalid latencylab.jdbc.url 'jdbc:mysql://db/app' (from LATENCYLAB_JDBC_URL):"
            + " expected a pgjdbc URL such as jdbc:postgresql://host:5432/database");
  }

  @Test
  void toxiproxyUrlMustBeHttp() {
    assertThatThrownBy(() -> LabConfig.from(Map.of(),
        Map.of("LATENCYLAB_TOXIPROXY_URL", "localhost:8474")))
        .hasMessage("Invalid latencylab.toxiproxy.url 'localhost:8474' (from"
            + " LATENCYLAB_TOXIPROXY_URL): expected http://host:port, e.g. http://localhost:8474");
  }

  @Test
  void externalWithoutUrlSaysWhatToSet() {
    LabConfig config = LabConfig.from(Map.of(), Map.of()).withBackend(BackendKind.EXTERNAL);
    assertThatThrownBy(() -> Lab.start(config))
        .hasMessage("The external backend needs latencylab.jdbc.url (LATENCYLAB_JDBC_URL), e.g."
            + " -Dlatencylab.jdbc.url=jdbc:postgresql://host:5432/db");
  }

  @Test
  void missingToxiproxyBinaryIsNamed() {
    LabConfig config = LabConfig.from(Map.of("latencylab.toxiproxy.server", "/nowhere/tp"),
        Map.of()).withBackend(BackendKind.EMBEDDED);
    assertThatThrownBy(() -> Lab.start(config))
        .hasMessage("Invalid latencylab.toxiproxy.server '/nowhere/tp' (from"
            + " -Dlatencylab.toxiproxy.server): no executable file there");
  }

  @Test
  void passwordsStayOutOfToString() {
    LabConfig config = LabConfig.from(Map.of("latencylab.jdbc.password", "s3cret"), Map.of());
    assertThat(config.toString()).doesNotContain("s3cret").contains("latencylab.jdbc.password=***");
  }

  @Test
  void environmentVariableNamesFollowTheProperty() {
    assertThat(Setting.TOXIPROXY_SERVER.environmentVariable())
        .isEqualTo("LATENCYLAB_TOXIPROXY_SERVER");
    assertThat(Setting.CALIBRATE.environmentVariable()).isEqualTo("LATENCYLAB_RTT_CALIBRATE");
  }

  @Test
  void runsThatDifferOnlyInTheirOwnSettingsShareALab() {
    LabConfig plain = LabConfig.from(Map.of(), Map.of());
    LabConfig reported = plain.with(Setting.REPORT, "true").with(Setting.AUDIT, "true")
        .with(Setting.REPORT_DIR, "elsewhere").with(Setting.CALL_SITES_EXCLUDE, "com.x.");

    assertThat(reported.labKey()).isEqualTo(plain.labKey()).doesNotContain("latencylab.report");
    assertThat(reported.toString()).isNotEqualTo(plain.toString());
    assertThat(plain.with(Setting.BACKEND, "external").labKey()).isNotEqualTo(plain.labKey());
    assertThat(plain.with(Setting.RELAY, "true").labKey()).isNotEqualTo(plain.labKey());
  }
}
