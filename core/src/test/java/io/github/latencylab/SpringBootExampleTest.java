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
 * and verifies it against the core just installed, on Boot 4 and (docs/examples/spring-boot-3)
 * on Boot 3.5; here, that both ask for this very core, that neither pins Boot's pgjdbc and the
 * Boot 4 one not its JUnit (Boot 3.5's is set to the build's, 5.13+), and that the guide's
 * snippet is its test verbatim.
 */
class SpringBootExampleTest {

  static final Path EXAMPLE = Path.of("../docs/examples/spring-boot");

  @Test
  void itDependsOnThisCoreAndPinsNoneOfBootsVersions() throws IOException {
    String root = Files.readString(Path.of("../pom.xml"));
    String example = Files.readString(EXAMPLE.resolve("pom.xml"));
    assertThat(tag(example, "latency-lab.version")).as("the example's latency-lab-core")
        .isEqualTo(tag(root, "version"));
    // Boot's pgjdbc is the application's (the one to count), Boot 4's JUnit 6 is Spring's own:
    // a 5.x pin fails every Spring test with NoSuchMethodError (issue 39)
    assertThat(example.replaceAll("(?s)<!--.*?-->", "")).as("versions a user must not pin")
        .doesNotContain("<postgresql.version>").doesNotContain("<junit-jupiter.version>");
    assertThat(tag(example, "java.version")).isEqualTo("17");
    assertThat(parent(example)).as("Boot 4: the main example").startsWith("4.");
    assertThat(example).contains("<artifactId>latency-lab-spring</artifactId>\n"
        + "      <version>${latency-lab.version}</version>\n      <scope>test</scope>");
  }

  @Test
  void itsBoot3TwinBuildsTheSameSourcesOnJUnit513() throws IOException {
    String root = Files.readString(Path.of("../pom.xml"));
    String boot3 = Files.readString(Path.of("../docs/examples/spring-boot-3/pom.xml"));
    assertThat(parent(boot3)).as("Boot 3.5").startsWith("3.5.");
    assertThat(tag(boot3, "latency-lab.version")).isEqualTo(tag(root, "version"));
    // Boot 3.5 manages JUnit 5.12, before the extension's 5.13 (the report is written when
    // JUnit closes the run's store); pgjdbc stays Boot's
    assertThat(tag(boot3, "junit-jupiter.version")).isEqualTo(tag(root, "junit.version"));
    assertThat(boot3.replaceAll("(?s)<!--.*?-->", "")).doesNotContain("<postgresql.version>");
    assertThat(boot3).contains("<sourceDirectory>../spring-boot/src/main/java</sourceDirectory>")
        .contains("<testSourceDirectory>../spring-boot/src/test/java</testSourceDirectory>");
  }

  private static String parent(String pom) {
    Matcher parent = Pattern.compile("(?s)<parent>\\s*<groupId>org.springframework.boot</groupId>"
        + "\\s*<artifactId>spring-boot-starter-parent</artifactId>\\s*<version>([^<]+)</version>")
        .matcher(pom);
    assertThat(parent.find()).as("the Spring Boot parent").isTrue();
    return parent.group(1);
  }

  @Test
  void itHasItsBaselineAndTheCiRunsIt() throws IOException {
    assertThat(EXAMPLE.resolve("src/test/latency-baseline.json")).isRegularFile();
    String ci = Files.readString(Path.of("../.ci/run"));
    assertThat(ci).containsPattern("install -pl core,[^ ]*frameworks/spring[^ ]* -am -DskipTests")
        .contains("-f docs/examples/spring-boot/pom.xml verify")
        .contains("-f docs/examples/spring-boot-3/pom.xml verify")
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
