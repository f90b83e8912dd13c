package io.github.latencylab.report;

import static io.github.latencylab.report.SvgChartsTest.elements;
import static io.github.latencylab.report.SvgChartsTest.parse;
import static io.github.latencylab.report.SvgChartsTest.texts;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.latencylab.report.AddedRttHistogram.Series;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;

class AddedRttHistogramTest {

  // whole-millisecond toxics at 0.5 ms: most round trips 0, some 1 or 2 ms; latency_us: ~0.5
  private static final List<Double> WHOLE_MS = repeat(new double[] {0.05, 0.05, 1.1, 2.1}, 250);
  private static final List<Double> MICROS = repeat(new double[] {0.48, 0.5, 0.5, 0.52}, 250);

  @Test
  void oneOutlinedSeriesEachWithTheirStatisticsAndTheSettingMarked() throws Exception {
    Document d = parse(AddedRttHistogram.svg("Added round-trip time at 0.5ms", 0.5,
        List.of(new Series("whole-millisecond toxics", WHOLE_MS),
            new Series("latency_us toxics", MICROS))));

    assertThat(elements(d, "title").get(0).getTextContent())
        .isEqualTo("Added round-trip time at 0.5ms");
    assertThat(elements(d, "g")).extracting(g -> g.getAttribute("data-series"))
        .containsExactly("whole-millisecond toxics", "latency_us toxics");
    assertThat(texts(d)).contains("setting 0.5 ms", "added round-trip time (ms)",
        "share of round trips", "mean 0.825, p50 0.050, p99 2.100 ms",
        "mean 0.500, p50 0.500, p99 0.520 ms", "1,000 samples");
  }

  @Test
  void samplesFarOffTheBulkAreCountedNotDrawn() throws Exception {
    List<Double> withSpike = new ArrayList<>(MICROS);
    withSpike.set(0, 40.0); // one load spike
    Document d = parse(AddedRttHistogram.svg("t", 0.5,
        List.of(new Series("latency_us toxics", withSpike))));
    assertThat(texts(d)).contains("1,000 samples, 1 off the axis");
    // the axis stays around the bulk: no tick beyond a millisecond
    assertThat(texts(d)).doesNotContain("40", "10", "5");
  }

  private static List<Double> repeat(double[] values, int times) {
    List<Double> out = new ArrayList<>();
    for (int i = 0; i < times; i++) {
      for (double v : values) {
        out.add(v);
      }
    }
    return out;
  }
}
