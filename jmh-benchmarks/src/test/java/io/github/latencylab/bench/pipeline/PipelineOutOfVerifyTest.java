package io.github.latencylab.bench.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.runner.BenchmarkList;
import org.openjdk.jmh.runner.BenchmarkListEntry;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * ./mvnw verify's latency run (jmh-benchmarks/pom.xml, latency-regression) measures every
 * suite but this one, until its non-JDBC clients are counted at the wire.
 */
class PipelineOutOfVerifyTest {

  @Test
  void verifyRunsEverySuiteButThePipelineOne() throws IOException {
    String pom = Files.readString(Path.of("pom.xml"));
    Matcher execution = Pattern.compile("<id>latency-regression</id>(.*?)</execution>",
        Pattern.DOTALL).matcher(pom);
    assertThat(execution.find()).as("the latency-regression execution").isTrue();
    Matcher include = Pattern.compile("<argument>--include=(.*?)</argument>")
        .matcher(execution.group(1));
    assertThat(include.find()).as("its --include").isTrue();

    List<String> verified = benchmarks(include.group(1));
    List<String> all = benchmarks(".*");
    assertThat(verified).isNotEmpty().noneMatch(b -> b.contains("PipelineBenchmark"))
        .containsExactlyElementsOf(all.stream()
            .filter(b -> !b.contains(".PipelineBenchmark.")).toList());
    assertThat(all).contains(PipelineBenchmark.class.getName() + ".inserts");
  }

  private static List<String> benchmarks(String include) {
    return BenchmarkList.defaultList().find(
        OutputFormatFactory.createFormatInstance(System.err, VerboseMode.SILENT),
        List.of(include), List.of()).stream().map(BenchmarkListEntry::getUsername)
        .distinct().sorted().toList();
  }
}
