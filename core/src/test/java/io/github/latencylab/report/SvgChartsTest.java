package io.github.latencylab.report;

import static io.github.latencylab.report.Cells.measured;
import static io.github.latencylab.report.Cells.results;
import static io.github.latencylab.report.Cells.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.latencylab.report.SvgCharts.Chart;
import io.github.latencylab.report.SvgCharts.Kind;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

class SvgChartsTest {

  static final String SVG_NS = "http://www.w3.org/2000/svg";

  /** Parses with the JDK's XML parser: throws unless the SVG is well-formed XML. */
  static Document parse(String svg) throws Exception {
    DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
    f.setNamespaceAware(true);
    f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
    f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
    return f.newDocumentBuilder().parse(new ByteArrayInputStream(
        svg.getBytes(StandardCharsets.UTF_8)));
  }

  static List<Element> elements(Document d, String name) {
    NodeList nodes = d.getElementsByTagNameNS(SVG_NS, name);
    List<Element> out = new ArrayList<>();
    for (int i = 0; i < nodes.getLength(); i++) {
      out.add((Element) nodes.item(i));
    }
    return out;
  }

  static List<Element> series(Document d) {
    return elements(d, "g").stream().filter(g -> g.getAttribute("class").equals("series"))
        .toList();
  }

  static Element series(Document d, String strategy) {
    return series(d).stream().filter(g -> g.getAttribute("data-strategy").equals(strategy))
        .findFirst().orElseThrow();
  }

  static List<String> texts(Document d) {
    return elements(d, "text").stream().map(Element::getTextContent).toList();
  }

  @Test
  void everyChartIsAStandaloneSvgWithOneSeriesPerStrategy() throws Exception {
    List<Chart> charts = SvgCharts.all(Cells.fixture("results-insert.json"));

    assertThat(charts).extracting(Chart::fileName).containsExactly(
        "InsertBenchmark-rows-1000-time.svg", "InsertBenchmark-rows-1000-round-trips.svg",
        "InsertBenchmark-rows-10000-time.svg", "InsertBenchmark-rows-10000-round-trips.svg");
    for (Chart c : charts) {
      Document d = parse(c.svg());
      Element root = d.getDocumentElement();
      assertThat(root.getLocalName()).isEqualTo("svg");
      assertThat(root.getNamespaceURI()).isEqualTo(SVG_NS);
      assertThat(root.getAttribute("viewBox")).matches("0 0 \\d+ \\d+");
      assertThat(elements(d, "title").get(0).getTextContent()).isEqualTo(c.title());
      assertThat(series(d)).extracting(g -> g.getAttribute("data-strategy"))
          .containsExactlyInAnyOrder("copyCsv", "multiRowValues");
    }
    assertThat(charts.get(0).title())
        .isEqualTo("InsertBenchmark (rows=1000): time per operation vs added RTT");
    assertThat(charts.get(1).title())
        .isEqualTo("InsertBenchmark (rows=1000): round trips per operation");
    assertThat(charts).extracting(Chart::kind).containsExactly(Kind.TIME_VS_RTT,
        Kind.ROUND_TRIPS, Kind.TIME_VS_RTT, Kind.ROUND_TRIPS);
  }

  @Test
  void timeVsRttHasLogTicksAxisLabelsAndALegend() throws Exception {
    Document d = parse(SvgCharts.timeVsRtt("InsertBenchmark", Map.of("rows", "1000"), run()));

    // 14 ms to 20 s: decades 10 ms ... 100 s, the RTT ticks from 0.5 to 320 ms
    assertThat(texts(d)).contains("0.5", "1", "2", "5", "10", "20", "50", "100", "200",
        "320", "10 ms", "100 ms", "1 s", "10 s", "100 s",
        "added round-trip time L (ms, log scale)", "time per operation (log scale)",
        "executeBatch", "executeEach", "measured", "predicted (model)");
    assertThat(texts(d)).doesNotContain("1 ms", "1,000 s");
    // legend: slowest first, with round trips and the time at the highest RTT
    assertThat(texts(d)).contains("strategy (slowest first)");
    assertThat(texts(d)).containsSubsequence("executeEach",
        "1,000 RT/op \u00b7 20.09 s at 20ms (model)", "executeBatch",
        "4 RT/op \u00b7 94.00 ms at 20ms");
  }

  @Test
  void measuredPointsAreFilledAndPredictedOnesHollowOnDashedLines() throws Exception {
    Document d = parse(SvgCharts.timeVsRtt("InsertBenchmark", Map.of("rows", "1000"), run()));

    Element batch = series(d, "executeBatch"); // measured at both RTTs: a solid path
    assertThat(elements(batch, "path")).singleElement()
        .satisfies(p -> assertThat(p.hasAttribute("stroke-dasharray")).isFalse());
    assertThat(elements(batch, "line")).isEmpty();
    assertThat(markers(batch)).hasSize(2).allSatisfy(m ->
        assertThat(m.getAttribute("fill")).isEqualTo("#0072B2"));

    Element each = series(d, "executeEach"); // measured, then predicted: dashed, hollow
    assertThat(elements(each, "path")).isEmpty();
    assertThat(elements(each, "line")).singleElement()
        .satisfies(l -> assertThat(l.getAttribute("stroke-dasharray")).isEqualTo("6 4"));
    assertThat(markers(each)).extracting(m -> m.getAttribute("fill"))
        .containsExactly("#D55E00", "#ffffff");
    assertThat(markers(each).get(1).getTextContent()).startsWith("executeEach @ 20ms: 20.09 s"
        + " (predicted from executeEach at 0.5ms");
  }

  static List<Element> elements(Element parent, String name) {
    NodeList nodes = parent.getElementsByTagNameNS(SVG_NS, name);
    List<Element> out = new ArrayList<>();
    for (int i = 0; i < nodes.getLength(); i++) {
      out.add((Element) nodes.item(i));
    }
    return out;
  }

  static List<Element> markers(Element series) {
    List<Element> out = new ArrayList<>();
    for (String shape : new String[] {"circle", "rect", "polygon"}) {
      out.addAll(elements(series, shape));
    }
    return out;
  }

  @Test
  void roundTripsAreBarsOnALogScaleWhenTheRangeIsWide() throws Exception {
    Document wide = parse(SvgCharts.roundTrips("InsertBenchmark", Map.of("rows", "1000"),
        run())); // 4 and 1,000
    assertThat(series(wide)).extracting(g -> g.getAttribute("data-strategy"))
        .containsExactly("executeEach", "executeBatch"); // most round trips first
    assertThat(texts(wide)).contains("round trips per operation (log scale)", "1", "10",
        "100", "1,000", "1,000 round trips  \u00b7  1,000 statements",
        "4 round trips  \u00b7  1,000 statements");
    assertThat(elements(series(wide, "executeEach"), "rect")).singleElement()
        .satisfies(r -> assertThat(r.getTextContent())
            .isEqualTo("executeEach: 1,000 round trips/op"));

    Document narrow = parse(SvgCharts.roundTrips("InsertBenchmark", Map.of("rows", "1000"),
        List.of(measured("copyCsv", "0.5ms", 0.5, 10, 2, 1),
            measured("copyBinary", "0.5ms", 0.5, 12, 3, 2))));
    assertThat(texts(narrow)).contains("round trips per operation", "0", "1", "2", "3")
        .doesNotContain("round trips per operation (log scale)");
    // bar lengths are proportional on a linear scale: 3 is 1.5 x 2
    double two = width(series(narrow, "copyCsv"));
    double three = width(series(narrow, "copyBinary"));
    assertThat(three / two).isCloseTo(1.5, org.assertj.core.api.Assertions.within(0.01));
  }

  static double width(Element series) {
    return Double.parseDouble(elements(series, "rect").get(0).getAttribute("width"));
  }

  @Test
  void aRowPredictedThroughoutIsDrawnHollowAndMarkedAsAnEstimate() throws Exception {
    Results r = Cells.fixture("results-hibernate.json");
    Chart bars = SvgCharts.all(r).stream().filter(c -> c.kind() == Kind.ROUND_TRIPS
        && c.params().get("rows").equals("10000")).findFirst().orElseThrow();

    Document d = parse(bars.svg());
    Element persist = series(d, "hibernatePersist");
    assertThat(elements(persist, "rect").get(0).getAttribute("fill")).isEqualTo("white");
    assertThat(texts(d)).contains("\u224810,010 round trips  \u00b7  10,020 statements"
        + "  (predicted)");
  }

  @Test
  void aTestReportChartsItsCostliestTestsNotEveryOne() throws Exception {
    List<Cell> cells = new ArrayList<>();
    for (int i = 1; i <= 30; i++) { // test i: i round trips, i ms at 20 ms
      cells.add(Cells.measured("com.example.RepositoryTest", String.format("test%02d", i),
          Map.of(), "20ms", 20, i, i, i));
    }
    List<Chart> charts = SvgCharts.all(new Results("tests", "2026-12-07T17:00:00Z", null, null,
        cells));

    assertThat(charts).hasSize(2).allSatisfy(c -> {
      assertThat(c.title()).startsWith("RepositoryTest: ")
          .endsWith(" (12 costliest of 30 tests)");
      assertThat(c.fileName()).startsWith("com.example.RepositoryTest");
      assertThat(c.svg()).contains("test30", "test19").doesNotContain("test18", "test01");
    });
    // its time chart's legend lists tests, not strategies
    assertThat(charts.get(0).svg()).contains(">test (slowest first)<")
        .doesNotContain("strategy (slowest first)");
    // a benchmark's strategies are all drawn
    assertThat(SvgCharts.all(new Results("bench", "2026-12-07T17:00:00Z", null, null, cells)))
        .allSatisfy(c -> assertThat(c.svg()).contains("test01"));
  }

  @Test
  void aStrategyKeepsItsColorAcrossASuitesCharts() {
    List<Cell> cells = List.of(
        Cells.measured("S", "a", Map.of("rows", "1"), "20ms", 20, 30, 2, 2),
        Cells.measured("S", "b", Map.of("rows", "1"), "20ms", 20, 40, 3, 3),
        Cells.measured("S", "b", Map.of("rows", "2"), "20ms", 20, 50, 3, 3));
    Chart rows2 = SvgCharts.all(new Results("bench", "2026-12-07T18:40:00Z", null, null, cells))
        .stream().filter(c -> c.params().equals(Map.of("rows", "2"))
            && c.kind() == Kind.ROUND_TRIPS).findFirst().orElseThrow();

    assertThat(rows2.svg()).contains(SvgCharts.COLORS[1]).doesNotContain(SvgCharts.COLORS[0]);
  }

  @Test
  void textIsEscaped() throws Exception {
    String name = "a<b & \"c\" 'd'>";
    List<Cell> cells = List.of(
        measured("Suite<&>", name, Map.of("k", "v&w"), "0.5ms", 0.5, 1, 1, 1),
        measured("Suite<&>", name, Map.of("k", "v&w"), "20ms", 20, 21, 1, 1));

    for (Chart c : SvgCharts.all(results(cells))) {
      Document d = parse(c.svg());
      assertThat(series(d)).singleElement()
          .satisfies(g -> assertThat(g.getAttribute("data-strategy")).isEqualTo(name));
      assertThat(texts(d)).contains(name);
      assertThat(c.fileName()).matches("Suite_-k-v_w-(time|round-trips)\\.svg");
    }
  }

  @Test
  void aLongLegendMakesTheChartTallerInsteadOfOverflowing() throws Exception {
    List<Cell> cells = new ArrayList<>();
    for (int i = 0; i < 14; i++) {
      cells.add(measured("strategy" + i, "0.5ms", 0.5, 10 + i, 2, 1));
    }
    Document d = parse(SvgCharts.timeVsRtt("S", Map.of(), cells));

    int height = Integer.parseInt(d.getDocumentElement().getAttribute("height"));
    double lowest = elements(d, "text").stream()
        .mapToDouble(t -> Double.parseDouble(t.getAttribute("y"))).max().orElseThrow();
    assertThat(series(d)).hasSize(14);
    // 10 colours, by name: strategy0, strategy1, strategy10 ... strategy13, strategy2 ...;
    // the 11th, strategy6, has strategy0's colour again but another marker shape
    Element first = series(d, "strategy0");
    Element eleventh = series(d, "strategy6");
    assertThat(markers(first).get(0).getAttribute("fill"))
        .isEqualTo(markers(eleventh).get(0).getAttribute("fill"));
    assertThat(markers(first).get(0).getTagName())
        .isNotEqualTo(markers(eleventh).get(0).getTagName());
    assertThat(height).isGreaterThan(560);
    assertThat(lowest).isLessThan(height);
    assertThat(d.getDocumentElement().getAttribute("viewBox")).isEqualTo("0 0 980 " + height);
  }

  @Test
  void nothingToPlotStillGivesAValidChart() throws Exception {
    Cell none = measured("copyCsv", "0.5ms", 0.5, Double.NaN, Double.NaN, Double.NaN);
    Document time = parse(SvgCharts.timeVsRtt("S", Map.of(), List.of(none)));
    assertThat(texts(time)).contains("no time per operation to plot");
    Document bars = parse(SvgCharts.roundTrips("S", Map.of(), List.of(none)));
    assertThat(texts(bars)).contains("no round-trip counts in these results");
  }
}
