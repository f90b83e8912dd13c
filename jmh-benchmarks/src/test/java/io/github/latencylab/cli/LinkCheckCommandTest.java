package io.github.latencylab.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.github.latencylab.env.KernelPath;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * The link stays what the kernel's TCP does: a few of link-check's cells, every run (CI runs as
 * root), failing when the Lab's time is more than 15% from the kernel's: a 577 kB COPY in and
 * SELECT out at 80 ms, Reno, on a fresh connection (six flights of slow start) and after a
 * 0.6 s idle (the sender idle ~0.68 s with the RTT, two timeouts of 280-300 ms and a good way
 * from three, so the window halved twice, not reset); and the SELECT after 0.6 s kept busy with
 * SELECT 1 (the kernel keeps its window: a link that shrank it, RFC 2861's slow part, took 2.5x
 * the kernel's time there). The full table has the other sizes and a 2 s idle. Warm cells, and
 * the COPY kept busy, are not here: the kernel itself lands on one side or the other of a
 * flight there from run to run (docs/results/link-check.md).
 */
@Tag("alone") // asserts on times: runs alone, after the other tests (pom.xml)
class LinkCheckCommandTest {

  @Test
  void theLinkStaysWithin15PercentOfTheKernelsTcp() {
    Optional<String> why = KernelPath.unavailable();
    if (why.isPresent() && ("root".equals(System.getProperty("user.name"))
        || System.getenv("CI") != null)) {
      fail("link-check must run here: " + why.get());
    }
    assumeTrue(why.isEmpty(), () -> "link-check not run: " + why.orElseThrow());
    assertThat(linkCheck("--states", "cold,idle"))
        .contains("| COPY in    |   577 kB |", "| SELECT out |   577 kB |")
        .contains("| cold  |", "| idle  |");
    assertThat(linkCheck("--states", "busy", "--transfers", "select"))
        .contains("| SELECT out |   577 kB |", "| busy  |").doesNotContain("| COPY in ");
  }

  // link-check's 577 kB cells at 80 ms, Reno, 3 runs, a 0.6 s idle; its table, once it passed
  private static String linkCheck(String... more) {
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    PrintStream out = System.out;
    int exit;
    try {
      System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
      exit = new CommandLine(new LatencyLab()).execute(Stream.concat(Stream.of("link-check",
          "--backend", "embedded", "--rtt", "80ms", "--sizes", "577kB", "--idle", "0.6",
          "--congestion-control", "reno", "--runs", "3", "--fail-beyond", "15"),
          Stream.of(more)).toArray(String[]::new));
    } finally {
      System.setOut(out);
    }
    String table = printed.toString(StandardCharsets.UTF_8);
    assertThat(exit).as("link-check's exit status; its table:%n%s", table).isZero();
    return table;
  }

  @Test
  void aSizeItCannotReadIsNamed() {
    assertThatThrownBy(() -> LinkCheckCommand.parseSize("57 kilobytes"))
        .hasMessage("--sizes: '57 kilobytes' is not a size such as 57kB, 6MB or 4096 (1 B to"
            + " 1000MB)");
    assertThat(LinkCheckCommand.parseSize("57kB")).isEqualTo(57_000);
    assertThat(LinkCheckCommand.parseSize("6MB")).isEqualTo(6_000_000);
  }
}
