package io.github.latencylab;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The Spring Boot example (docs/examples/spring-boot), ExampleProjectTest's twin: .ci/run builds
 * and verifies it against the core just installed; here, that it asks for this very core, that
 * the versions Spring Boot would otherwise pick for what it shares with core (pgjdbc, JUnit) are
 * the build's, that it is Boot 3 (Java 17), and that the guide's snippet is its test verbatim.
 */
class SpringBootExampleTest {

  static final Path EXAMPLE = Path.of("../docs/examples/spring-boot");

  @Test
  void itDependsOnThisCoreWithTheBuildsDriverAndJUnit() throws IOException {
    String root = Files.readString(Path.of("../pom.xml"));
    String example = Files.readString(EXAMPLE.resolve("pom.xml"));
    assertThat(tag(example, "latency-lab.version")).as("the example's latency-lab-core")
        .isEqualTo(tag(root, "version"));
    assertThat(tag(example, "postgresql.version")).as("Spring Boot's pgjdbc, set to the build's")
        .isEqualTo(tag(root, "pgjdbc.version"));
    assertThat(tag(example, "junit-jupiter.version")).as("Spring Boot's JUnit, set to the build's")
        .isEqualTo(tag(root, "junit.version"));
    assertThat(tag(example, "java.version")).isEqualTo("17");
    Matcher parent = Pattern.compile("(?s)<parent>\\s*<groupId>org.springframework.boot</groupId>"
        + "\\s*<artifactId>spring-boot-starter-parent</artifactId>\\s*<version>([^<]+)</version>")
        .matcher(example);
    assertThat(parent.find()).as("the Spring Boot parent").isTrue();
    assertThat(parent.group(1)).as("Boot 3: Java 17 (Boot 4 needs a newer Spring stack)")
        .startsWith("3.");
    assertThat(example).contains("<artifactId>latency-lab-core</artifactId>\n"
        + "      <version>${latency-lab.version}</version>\n      <scope>test</scope>");
  }

  @Test
  void itHasItsBaselineAndTheCiRunsIt() throws IOException {
    assertThat(EXAMPLE.resolve("src/test/latency-baseline.json")).isRegularFile();
    String ci = Files.readString(Path.of("../.ci/run"));
    assertThat(ci).contains("install -pl core -am -DskipTests")
        .contains("-f docs/examples/spring-boot/pom.xml verify")
        .contains("actionlint\" docs/examples/github-actions/*.yml");
    assertThat(Path.of("../docs/examples/github-actions/latency-budgets.yml")).isRegularFile();
    assertThat(Files.readString(Path.of("../README.md"))).contains("docs/examples/spring-boot");
    assertThat(Files.readString(Path.of("../docs/n-plus-one.md")))
        .contains("examples/spring-boot").contains("examples/github-actions/latency-budgets.yml");
  }

  @Test
  void theGuidesSnippetIsTheExamplesTestVerbatim() throws IOException {
    String test = Files.readString(EXAMPLE.resolve(
        "src/test/java/com/example/library/LibraryServiceTest.java"));
    Matcher m = Pattern.compile("// snippet-begin spring-budgets\n(.*?)\n// snippet-end"
        + " spring-budgets", Pattern.DOTALL).matcher(test);
    assertThat(m.find()).isTrue();
    assertThat(Files.readString(Path.of("../docs/n-plus-one.md")))
        .contains("```java\n" + m.group(1) + "\n```");
  }

  /** The first element of that name outside the parent block. */
  private static String tag(String pom, String name) {
    Matcher m = Pattern.compile("<" + Pattern.quote(name) + ">([^<]*)</" + Pattern.quote(name)
        + ">").matcher(pom.replaceAll("(?s)<parent>.*?</parent>", ""));
    assertThat(m.find()).as("<%s> in the pom", name).isTrue();
    return m.group(1).strip();
  }
}
