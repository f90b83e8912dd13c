package io.github.latencylab.report;

import static io.github.latencylab.report.Cells.measured;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** One key and one order for every cell, wherever it is shown, stored or compared. */
class CellTest {

  @Test
  void theKeyIsTheSeriesAtItsRtt() {
    Cell c = measured("InsertBenchmark", "executeBatch", Map.of("rows", "1000", "batch", "50"),
        "0.5ms", 0.5, 14, 4, 1000);

    assertThat(c.series().key()).isEqualTo("InsertBenchmark.executeBatch batch=50 rows=1000");
    assertThat(c.key()).isEqualTo("InsertBenchmark.executeBatch batch=50 rows=1000 @ 0.5ms");
    assertThat(c.note()).isEqualTo("measured");
  }

  @Test
  void cellsOrderBySuiteStrategyParametersAsNumbersThenRtt() {
    List<Cell> cells = new ArrayList<>();
    for (String rtt : new String[] {"320ms", "20ms", "0.5ms"}) {
      for (String rows : new String[] {"10000", "100", "1000"}) {
        cells.add(measured("InsertBenchmark", "copyCsv", Map.of("rows", rows), rtt, 1, 1, 2, 1));
      }
    }
    cells.add(measured("HibernateInsertBenchmark", "x", Map.of(), "1ms", 1, 1, 1, 1));

    cells.sort(Cell.ORDER);

    assertThat(cells).extracting(Cell::key).containsExactly(
        "HibernateInsertBenchmark.x @ 1ms",
        "InsertBenchmark.copyCsv rows=100 @ 0.5ms", "InsertBenchmark.copyCsv rows=100 @ 20ms",
        "InsertBenchmark.copyCsv rows=100 @ 320ms", "InsertBenchmark.copyCsv rows=1000 @ 0.5ms",
        "InsertBenchmark.copyCsv rows=1000 @ 20ms", "InsertBenchmark.copyCsv rows=1000 @ 320ms",
        "InsertBenchmark.copyCsv rows=10000 @ 0.5ms", "InsertBenchmark.copyCsv rows=10000 @ 20ms",
        "InsertBenchmark.copyCsv rows=10000 @ 320ms");
  }

  @Test
  void aSeriesKnowsItsSizeAndItsSiblingsOfAnotherSize() {
    Series small = Series.of("InsertBenchmark", "copyCsv", Map.of("rows", "1000", "k", "v"));
    Series big = Series.of("InsertBenchmark", "copyCsv", Map.of("rows", "100000", "k", "v"));

    assertThat(small.size()).hasValue(1000);
    assertThat(small.sameButSize(big)).isTrue();
    assertThat(small.sameButSize(Series.of("InsertBenchmark", "copyCsv", Map.of("rows", "1000",
        "k", "w")))).isFalse();
    assertThat(Series.of("RoundTripBenchmark", "selectOne", Map.of()).size()).isEmpty();
  }
}
