package io.github.latencylab.report;

import static io.github.latencylab.report.Cells.measured;
import static io.github.latencylab.report.Cells.results;
import static io.github.latencylab.report.Cells.run;
import static io.github.latencylab.report.Cells.runWith;
import static io.github.latencylab.report.Cells.withCounts;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.latencylab.gate.Baseline;
import io.github.latencylab.gate.BaselineComparison;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReportWriterTest {

  @Test
  void serverCountersStandBesideTheRoundTrips() {
    Cell c = Cells.fixture("results-insert.json").cells().get(0);
    Cell counted = new Cell(c.series(), c.rtt(), c.addedRttMs(), c.baselineRttMs(), c.timeMs(),
        c.timeErrorMs(), c.roundTripsPerOp(), c.statementsPerOp(), c.rowsPerSecond(),
        Map.of("commitsPerOp", 1.0, "walBytesPerOp", 412.4, "tempBytesPerOp", 3.5 * 1024 * 1024,
            "blocksReadPerOp", 0.0, "cacheHitRatio", 0.9984), null, 0, null);
    Results r = new Results("bench", null, null, null, List.of(counted));
    assertThat(MarkdownReport.render(r))
        .contains("| round trips/op | statements/op | server/op |")
        .contains(" | 1 commit, 412 B WAL, 3.5 MB temp, 99.8% hit | ");
    assertThat(HtmlReport.render(r)).contains("<th>server/op</th>")
        .contains("<td>1 commit, 412 B WAL, 3.5 MB temp, 99.8% hit</td>");
    Results without = Cells.fixture("results-insert.json");
    assertThat(MarkdownReport.render(without)).doesNotContain("server/op |");
  }

  @Test
  void aNoisyCellIsMarkedAndSaysWhyWithItsMedianAndIqr() {
    List<Cell> cells = new ArrayList<>(run());
    Cell noisy = cells.get(0).withSpread(new TimeSpread(6, 13.9, 13.5, 14.2,
        "\u00b1 31% of the mean (asked: 10%): the samples scatter (CV 12% over 6)"));
    cells.set(0, noisy);
    Results r = results(cells);

    assertThat(MarkdownReport.render(r)).contains(Format.duration(noisy.timeMs()) + "\u2020 |")
        .contains("### Noisy cells", "| " + noisy.key() + " | ",
            "| median 13.90 ms (IQR 13.50 ms\u201314.20 ms, 6 samples) | \u00b1 31% of the mean"
                + " (asked: 10%): the samples scatter (CV 12% over 6) |");
    assertThat(HtmlReport.render(r)).contains("title=\"median 13.90 ms (IQR 13.50 ms\u201314.20"
        + " ms, 6 samples); noisy: \u00b1 31% of the mean");
    assertThat(MarkdownReport.render(results(run()))).doesNotContain("Noisy cells");
  }

  @Test
  void writesResultsMarkdownHtmlAndChartsAndReturnsThem(@TempDir Path dir) throws Exception {
    Results r = Cells.fixture("results-insert.json");
    Path out = dir.resolve("report");

    List<Path> files = ReportWriter.write(r, out);

    assertThat(files).containsExactly(out.resolve("results.json"), out.resolve("report.md"),
        out.resolve("report.html"),
        out.resolve("charts/InsertBenchmark-rows-1000-time.svg"),
        out.resolve("charts/InsertBenchmark-rows-1000-round-trips.svg"),
        out.resolve("charts/InsertBenchmark-rows-10000-time.svg"),
        out.resolve("charts/InsertBenchmark-rows-10000-round-trips.svg"));
    assertThat(files).allSatisfy(f -> assertThat(Files.size(f)).isPositive());
    assertThat(Results.read(out.resolve("results.json"))).isEqualTo(r);
    assertThat(Files.readString(out.resolve("report.md"))).isEqualTo(MarkdownReport.render(r));
    for (Path svg : files.subList(3, files.size())) {
      SvgChartsTest.parse(Files.readString(svg));
    }
  }

  @Test
  void withAComparisonItsFindingsGoIntoEveryPageAndATextFile(@TempDir Path dir)
      throws Exception {
    Baseline baseline = Baseline.from(results(run()));
    String key = "InsertBenchmark.executeBatch rows=1000 @ 20ms";
    Results changed = runWith(key, m -> withCounts(m, 1000, 1000));
    BaselineComparison c = BaselineComparison.compare(baseline, changed);

    List<Path> files = ReportWriter.write(changed, dir, c);

    assertThat(files).last().isEqualTo(dir.resolve("baseline-comparison.txt"));
    assertThat(Files.readString(dir.resolve("baseline-comparison.txt"))).isEqualTo(c.report());
    String line = "FAIL " + key + ": round trips/op 4 -&gt; 1,000 (+996: +996 ms/op at 1ms,"
        + " +4.98 s/op at 5ms, +19.92 s/op at 20ms, +79.68 s/op at 80ms, +5.3 min/op at 320ms;"
        + " +5.5 h per 1,000 ops at 20ms; must match exactly: round trips are deterministic)";
    assertThat(Files.readString(dir.resolve("report.html")))
        .contains("<span class=\"status fail\">FAIL</span>", "<li class=\"FAIL\">" + line);
    assertThat(Files.readString(dir.resolve("report.md")))
        .startsWith("### Baseline check\n\nBaseline check FAILED: 1 failure")
        .contains(line.replace("&gt;", ">"));
  }

  @Test
  void theHtmlPageHasTheTablesTheChartsTheModelAndTheEnvironment() throws Exception {
    Results r = Cells.fixture("results-hibernate.json");

    String html = HtmlReport.render(r);

    assertThat(html).startsWith("<!DOCTYPE html>").endsWith("</html>\n")
        .contains("<style>", "<h2 id=\"HibernateInsertBenchmark\">HibernateInsertBenchmark</h2>",
            "T(L) = T0 + R \u00d7 L", "<b>predicted</b>",
            "<dt>PostgreSQL</dt><dd>17.6</dd>", "<dt>CPUs</dt><dd>2</dd>",
            "<code>fsync=off</code>", "<th class=\"n\">0.5ms<small>0.50 ms measured</small>")
        .doesNotContain("<link", "<script", "src=\"http");
    // one row per strategy and size, counts from the measured cells, 'about' when predicted
    assertThat(html).contains("<tr><td>hibernatePersist</td><td>rows=1000</td><td class=\"n\">"
        + "1,001</td><td class=\"n\">1,002</td><td class=\"n\">759 ms</td></tr>");
    assertThat(html).contains("<tr><td>hibernatePersist</td><td>rows=10000</td><td class=\"n\">"
        + "\u224810,010</td><td class=\"n\">\u224810,020</td><td class=\"n predicted\" title=\""
        + "predicted: scaled x10 from HibernateInsertBenchmark.hibernatePersist rows=1000 (time,"
        + " round trips and statements grow with the size)\">7.59 s*</td></tr>");
    // the charts inline: time and round trips for each of the 3 sizes
    assertThat(count(html, "<svg xmlns=\"http://www.w3.org/2000/svg\"")).isEqualTo(6);
    assertThat(html).contains("<a href=\"charts/HibernateInsertBenchmark-rows-100-time.svg\">");
  }

  @Test
  void theHtmlPageEscapesNames() {
    String html = HtmlReport.render(results(List.of(measured("Suite<x>", "a&b", Map.of("k",
        "<v>"), "0.5ms", 0.5, 1, 1, 1))));

    assertThat(html).contains("<h2 id=\"Suite-x-\">Suite&lt;x&gt;</h2>",
        "<tr><td>a&amp;b</td><td>k=&lt;v&gt;</td>").doesNotContain("<x>", "<v>");
  }

  @Test
  void theConsoleTableIsCompactAndFixedWidth() {
    assertThat(ReportWriter.consoleTable(results(run()))).isEqualTo("""
        suite            strategy      params     RT/op     0.5ms       20ms
        --------------------------------------------------------------------
        InsertBenchmark  executeBatch  rows=1000      4  14.00 ms   94.00 ms
        InsertBenchmark  executeEach   rows=1000  1,000    586 ms    20.09 s*
        time per operation (JMH mean) at each added RTT; RT/op: round trips per operation,\
         counted at the socket
        * predicted by the model T(L) = T0 + round trips x L, not measured; ~ an estimate\
         scaled from a smaller size
        """);
  }

  @Test
  void theConsoleTableShowsEveryRttOfEverySuite() throws Exception {
    Results r = Cells.fixture("results-units.json");

    String table = ReportWriter.consoleTable(r);

    assertThat(table).isEqualTo("""
        suite               strategy      params     RT/op     0ms    0.5ms       1ms       20ms
        ----------------------------------------------------------------------------------------
        InsertBenchmark     executeBatch  rows=1000      4       -        -         -   35.20 ms
        InsertBenchmark     executeEach   rows=1000      -       -   586 ms         -          -
        RoundTripBenchmark  selectOne                    -       -        -   2.50 ms          -
        Other               work          size=10        -  250 µs        -         -          -
        time per operation (JMH mean) at each added RTT; RT/op: round trips per operation,\
         counted at the socket
        """);
  }

  static int count(String text, String what) {
    Matcher m = Pattern.compile(Pattern.quote(what)).matcher(text);
    int n = 0;
    while (m.find()) {
      n++;
    }
    return n;
  }
}
