package io.github.latencylab.gate;

/**
 * How far a test's counted work may move on unchanged code, counter by counter, each for what
 * moves it (never one factor for all). Rows are the data's, so exact; the rest move a little
 * between runs of the same code, for reasons of their own, and the defaults come from A/A runs
 * of the examples' tests (docs/results/work-gate.md).
 *
 * @param bytesEpsilon the rows' bytes and the values' may differ by this share of the
 *     baseline's: values of another length (a timestamp's fractional digits, a generated key
 *     one digit longer)
 * @param blocksRatio shared buffers touched may grow to this many times the baseline's
 *     (plus {@code blocksFloor}): a new connection's catalog look-ups, hint bits set by the
 *     first reader, HOT pruning, an index page split
 * @param blocksFloor see {@code blocksRatio}
 * @param walRatio WAL bytes may grow to this many times the baseline's (plus {@code
 *     walFloorBytes}): full-page images of the first change of a page after a checkpoint
 * @param walFloorBytes see {@code walRatio}
 * @param tempRatio temp bytes may grow to this many times the baseline's (plus {@code
 *     tempFloorBytes}): parallel workers' files; a statement that spills where it did not is a
 *     finding whatever the ratio
 * @param tempFloorBytes see {@code tempRatio}
 * @param allocatedRatio the test thread's allocated bytes may grow to this many times the
 *     baseline's (plus {@code allocatedFloorBytes}): the JIT, class loading and caches filled
 *     on first use, a framework's lazy set-up in whichever test comes first
 * @param allocatedFloorBytes see {@code allocatedRatio}
 * @param planMinTableRows a changed plan whose tables all have fewer rows fails nothing, it is
 *     reported: on a table of a few rows the planner's choice follows its statistics, and any
 *     plan is as good
 */
public record WorkTolerances(double bytesEpsilon, double blocksRatio, long blocksFloor,
    double walRatio, long walFloorBytes, double tempRatio, long tempFloorBytes,
    double allocatedRatio, long allocatedFloorBytes, long planMinTableRows) {

  public static final WorkTolerances DEFAULTS = new WorkTolerances(0.02, 1.5, 32, 1.5, 16_384,
      1.5, 0, 1.5, 256L << 10, 1000);

  public WorkTolerances {
    if (!(bytesEpsilon >= 0 && bytesEpsilon < 1) || !(blocksRatio >= 1) || !(walRatio >= 1)
        || !(tempRatio >= 1) || !(allocatedRatio >= 1) || blocksFloor < 0 || walFloorBytes < 0
        || tempFloorBytes < 0 || allocatedFloorBytes < 0 || planMinTableRows < 0) {
      throw new IllegalArgumentException("Invalid baseline work tolerances " + this
          + ": bytesEpsilon from 0 to less than 1, ratios of at least 1, floors and"
          + " planMinTableRows of at least 0");
    }
  }
}
