package io.github.latencylab.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** docs/n-plus-one.md says what the code and the tests do: snippets verbatim, counts right. */
class NPlusOneDocTest {

  static final Path DOC = Path.of("..", "docs", "n-plus-one.md");
  static final Path GUARD_TEST = Path.of("src", "test", "java", "io", "github", "latencylab",
      "demo", "RepositoryGuardTest.java");

  @Test
  void theJunitSnippetIsTheTestsCodeVerbatim() throws Exception {
    String test = Files.readString(GUARD_TEST);
    Matcher m = Pattern.compile("// snippet-begin junit-extension\n(.*?)\n\\s*// snippet-end"
        + " junit-extension", Pattern.DOTALL).matcher(test);
    assertThat(m.find()).isTrue();
    List<String> lines = m.group(1).lines().toList();
    int indent = lines.stream().filter(l -> !l.isBlank())
        .mapToInt(l -> l.length() - l.stripLeading().length()).min().orElse(0);
    String snippet = String.join("\n", lines.stream()
        .map(l -> l.length() >= indent ? l.substring(indent) : l.strip()).toList());

    assertThat(Files.readString(DOC)).contains("```java\n" + snippet + "\n```");
  }

  @Test
  void theCostTableHasTheCountsTheTestsAssert() throws Exception {
    String doc = Files.readString(DOC);
    for (NPlusOneStrategy strategy : NPlusOneStrategy.values()) {
      Matcher row = Pattern.compile("\n\\| `" + strategy.label() + "` \\|.*\\| (\\d+) \\|"
          + " (\\d+) \\|\n").matcher(doc);
      assertThat(row.find()).as(strategy.label()).isTrue();
      assertThat(Long.parseLong(row.group(1))).as(strategy.label())
          .isEqualTo(strategy.expectedStatements(100));
      assertThat(Long.parseLong(row.group(2))).as(strategy.label())
          .isEqualTo(strategy.expectedRoundTrips(100));
    }
  }
}
