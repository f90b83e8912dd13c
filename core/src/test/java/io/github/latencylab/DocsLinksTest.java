package io.github.latencylab;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The guides link only what a clone has: every relative link of README, CHANGELOG and docs/
 * resolves to a file or folder inside the repository (not to ../shared or a machine's files).
 */
class DocsLinksTest {

  static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
  private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");

  @Test
  void everyRelativeLinkIsInTheRepository() throws IOException {
    List<Path> pages = new ArrayList<>(List.of(ROOT.resolve("README.md"),
        ROOT.resolve("CHANGELOG.md")));
    try (Stream<Path> docs = Files.walk(ROOT.resolve("docs"))) {
      docs.filter(p -> p.toString().endsWith(".md") && !p.toString().contains("/target/"))
          .forEach(pages::add);
    }
    List<String> broken = new ArrayList<>();
    for (Path page : pages) {
      String text = Files.readString(page);
      Matcher m = LINK.matcher(text);
      while (m.find()) {
        String target = m.group(1);
        if (target.matches("^(https?:|mailto:|#).*")) {
          continue;
        }
        Path file = page.getParent().resolve(target.replaceFirst("#.*", "")).normalize();
        if (!file.startsWith(ROOT) || !Files.exists(file)) {
          broken.add(ROOT.relativize(page) + ": " + target);
        }
      }
      if (text.contains("../shared")) {
        broken.add(ROOT.relativize(page) + ": mentions ../shared, outside the repository");
      }
    }
    assertThat(pages).hasSizeGreaterThan(10);
    assertThat(broken).as("links to what a clone does not have").isEmpty();
  }
}
