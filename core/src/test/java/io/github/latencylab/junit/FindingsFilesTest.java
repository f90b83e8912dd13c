package io.github.latencylab.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.latencylab.wire.CodeLine;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Two JVMs' reports (two surefire forks) make one set of findings. */
class FindingsFilesTest {

  private static final Findings.Occurrence N_PLUS_ONE = new Findings.Occurrence(
      Findings.Kind.N_PLUS_ONE, "select id, title from book where author_id = ?",
      List.of(new CodeLine("AuthorService.list(AuthorService.java:30)",
          "com/example/AuthorService.java", 30)), 10, 10, null);

  @Test
  void theSameNPlusOneInTwoForksIsOneFindingItsRoundTripsSummed(@TempDir Path dir)
      throws Exception {
    Path one = Files.createDirectories(dir.resolve("fork-1"));
    Path two = Files.createDirectories(dir.resolve("fork-2"));
    FindingsFiles.write(one, Map.of("com.example.ATest.lists", List.of(N_PLUS_ONE)), 2, 0, 25);
    FindingsFiles.write(two, Map.of("com.example.BTest.pages", List.of(N_PLUS_ONE),
        "com.example.BTest.saves", List.of()), 3, 1, 40);

    String line = FindingsFiles.merge(List.of(one.resolve("findings.json"),
        two.resolve("findings.json")), dir.resolve("all"));

    assertThat(line).startsWith("findings of 2 reports merged: 1 finding over 5 tests");
    assertThat(Files.readString(dir.resolve("all/findings.md")))
        .startsWith("### latency-lab: 1 finding\n\n5 tests counted, 1 not audited: 65 round"
            + " trips, 18 of them avoidable")
        // 2 tests, 20 round trips, all but one a test avoidable
        .contains("| 1 | N+1 | `select id, title from book where author_id = ?` |"
            + " `AuthorService.list(AuthorService.java:30)` | 2 | 20 | 18 |");
    assertThat(dir.resolve("all/findings.sarif")).isRegularFile();
    // merged again with a third: the merged file reads as any report's
    assertThat(FindingsFiles.merge(List.of(dir.resolve("all/findings.json")),
        dir.resolve("again"))).startsWith("findings of 1 report merged: 1 finding over 5 tests");
  }

  @Test
  void aFileThatIsNotAReportsFindingsIsNamed(@TempDir Path dir) throws Exception {
    Path bad = Files.writeString(dir.resolve("findings.json"), "{\"format\": 1, \"tests\": \"x\"}");
    assertThatThrownBy(() -> FindingsFiles.merge(List.of(bad), dir.resolve("out")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith(bad + ": not the findings of a latency-lab report (");
  }
}
