package io.github.latencylab;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The example user project (docs/examples/user-project) is built and run by .ci/run against the
 * core just installed; here, that it asks for this very core and for the build's own versions
 * of what it shares with it (every version lives in the root pom), and that it is linked.
 */
class ExampleProjectTest {

  static final Path EXAMPLE = Path.of("../docs/examples/user-project");

  @Test
  void itDependsOnThisCoreWithTheBuildsOwnVersions() throws IOException {
    String root = Files.readString(Path.of("../pom.xml"));
    String example = Files.readString(EXAMPLE.resolve("pom.xml"));
    assertThat(property(example, "latency-lab.version")).as("the example's latency-lab-core")
        .isEqualTo(tag(root, "version"));
    for (String shared : new String[] {"pgjdbc.version", "hikaricp.version", "junit.version",
        "assertj.version", "compiler-plugin.version", "surefire.version",
        "resources-plugin.version", "jar-plugin.version"}) {
      assertThat(property(example, shared)).as("%s in %s", shared, EXAMPLE.resolve("pom.xml"))
          .isEqualTo(property(root, shared));
    }
    assertThat(example).contains("<artifactId>latency-lab-core</artifactId>\n"
        + "      <version>${latency-lab.version}</version>\n      <scope>test</scope>");
  }

  @Test
  void itHasItsBaselineAndTheCiRunsIt() throws IOException {
    assertThat(EXAMPLE.resolve("src/test/latency-baseline.json")).isRegularFile();
    assertThat(Files.readString(Path.of("../.ci/run")))
        .containsPattern("install -pl core[^ ]* -am -DskipTests")
        .contains("-f docs/examples/user-project/pom.xml verify");
    assertThat(Files.readString(Path.of("../README.md"))).contains("docs/examples/user-project");
    assertThat(Files.readString(Path.of("../docs/n-plus-one.md")))
        .contains("examples/user-project");
  }

  @Test
  void theGuidesSnippetIsTheExamplesTestVerbatim() throws IOException {
    String test = Files.readString(EXAMPLE.resolve(
        "src/test/java/com/example/library/AuthorServiceTest.java"));
    Matcher m = Pattern.compile("// snippet-begin budgets\n(.*?)\n\\s*// snippet-end budgets",
        Pattern.DOTALL).matcher(test);
    assertThat(m.find()).isTrue();
    assertThat(Files.readString(Path.of("../docs/n-plus-one.md")))
        .contains("```java\n" + m.group(1) + "\n}\n```");
  }

  private static String property(String pom, String name) {
    return tag(pom, Pattern.quote(name));
  }

  /** The first element of that name (the project's own version comes before any other). */
  private static String tag(String pom, String name) {
    Matcher m = Pattern.compile("<" + name + ">([^<]*)</" + name + ">").matcher(
        pom.replaceAll("(?s)<parent>.*?</parent>", ""));
    assertThat(m.find()).as("<%s> in the pom", name).isTrue();
    return m.group(1).strip();
  }
}
