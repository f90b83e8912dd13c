package io.github.latencylab.gate;

import io.github.latencylab.gate.BaselineComparison.Finding;
import io.github.latencylab.gate.BaselineComparison.Level;
import io.github.latencylab.latency.Link;
import io.github.latencylab.latency.LinkWindows;
import io.github.latencylab.latency.Rtt;
import io.github.latencylab.report.Cell;
import io.github.latencylab.report.Format;
import io.github.latencylab.wire.SqlShape;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The gate on counted work, beside round trips: rows and their values exactly, the values'
 * bytes sent within an epsilon, buffers,
 * WAL, temp bytes and allocations within their {@link WorkTolerances}, and each statement's plan
 * by its fingerprint. A cell carries its work per operation in {@link Cell#server()} by the
 * names below; a counter the baseline has and a run lacks is a failure of its own ({@link
 * #uncounted}), one the baseline lacks is not compared. Every finding is priced: bytes
 * as the window flights they take on a new connection at each RTT, buffers by the server's time
 * for them now.
 */
public final class WorkGate {

  /** Rows returned to the client, at the wire. */
  public static final String ROWS = "rowsPerOp";
  /**
   * Bytes of the values the statements sent (Bind's parameters, a simple Query's text), at the
   * wire: the data, not the protocol around it, which depends on what the driver prepared
   * before (a statement prepared on a connection is parsed and described once).
   */
  public static final String VALUE_BYTES = "valueBytesSentPerOp";
  /** The values of the rows the statements got back (rows x columns), at the wire. */
  public static final String VALUES = "valuesReceivedPerOp";
  /** Shared buffers the statements touched (pg_stat_statements). */
  public static final String BLOCKS = "statementBlocksPerOp";
  /** WAL the statements wrote (pg_stat_statements). */
  public static final String WAL = "statementWalBytesPerOp";
  /** Temp bytes the statements wrote (pg_stat_statements). */
  public static final String TEMP = "statementTempBytesPerOp";
  /** The server's time executing them: shown, never gated. */
  public static final String SERVER_MS = "statementServerMsPerOp";
  /** Bytes allocated on the test's thread. */
  public static final String ALLOCATED = "allocatedBytesPerOp";

  /** The counters a baseline keeps, in the order it writes them. */
  static final List<String> KEPT = List.of(ROWS, VALUES, VALUE_BYTES, BLOCKS, WAL, TEMP,
      ALLOCATED);

  // what the findings call each counter
  // other statements do other work: counters are compared where the statements are the same
  private static boolean sameCounts(Cell b, Cell c) {
    return b.statementsPerOp() == c.statementsPerOp() && b.roundTripsPerOp() == c.roundTripsPerOp();
  }

  private static final Map<String, String> LABELS = Map.of(ROWS, "rows/op", VALUES,
      "values received/op", VALUE_BYTES, "value bytes sent/op", BLOCKS, "buffers touched/op",
      WAL, "WAL/op", TEMP, "temp bytes/op", ALLOCATED, "allocated bytes/op");

  private static final List<Rtt> PRICED_AT = List.of(Rtt.parse("20ms"), Rtt.parse("320ms"));

  private WorkGate() {
  }

  /**
   * Judges {@code c}'s work against {@code b}'s: its counters only where the statements and
   * round trips match (other statements do other work, and that finding says so already), its
   * plans always. Allocations depend on what the JVM ran before (a framework's lazy set-up):
   * they fail
   * only where {@code ranAfter} is the baseline's {@code baselineRanAfter} (null: not known,
   * judged), and are reported otherwise; so too where {@code otherMachine} says what differs
   * from the machine the baseline was taken on (another backend or JVM allocates otherwise:
   * pgjdbc's COPY at 20 ms allocated 243.9 kB per operation on the embedded backend, 465.3 kB
   * through testcontainers' port mapping), null where it is of the same kind.
   */
  static void judge(List<Finding> out, Cell b, Cell c, WorkTolerances t,
      Map<String, StatementPlan> before, Map<String, StatementPlan> after, String ranAfter,
      String baselineRanAfter, String otherMachine) {
    String key = c.key();
    plans(out, key, before, after, t);
    if (!sameCounts(b, c)) {
      return;
    }
    exact(out, key, LABELS.get(ROWS), b.server().get(ROWS), c.server().get(ROWS),
        "the rows a statement returns are the data's");
    exact(out, key, LABELS.get(VALUES), b.server().get(VALUES), c.server().get(VALUES),
        "rows x columns: a wider select, an EAGER join, more");
    bytes(out, key, LABELS.get(VALUE_BYTES), b.server().get(VALUE_BYTES),
        c.server().get(VALUE_BYTES), t);
    String history = ranAfter == null || ranAfter.equals(baselineRanAfter) ? null
        : " (reported, not failed: the test ran " + ranAfter + ", the baseline's "
        + baselineRanAfter + "; a subset or another order, whose JVM and connections did other"
        + " things first)";
    if (history == null && otherMachine != null) {
      history = " (reported, not failed: " + otherMachine + " differs from the baseline's"
          + " machine)";
    }
    List<Finding> historical = new ArrayList<>();
    Double serverMs = c.server().get(SERVER_MS);
    grown(out, key, LABELS.get(BLOCKS), BLOCKS, b, c, t.blocksRatio(), t.blocksFloor(), false,
        serverMs == null ? "" : "; the server's time executing the statements now "
            + Format.duration(serverMs) + "/op");
    grown(out, key, LABELS.get(WAL), WAL, b, c, t.walRatio(), t.walFloorBytes(), true, "");
    Double tempBefore = b.server().get(TEMP);
    Double tempAfter = c.server().get(TEMP);
    if (tempBefore != null && tempAfter != null && tempBefore == 0 && tempAfter > 0) {
      out.add(fail(key, LABELS.get(TEMP) + " 0 B -> " + Format.bytes(tempAfter) + " (a sort or hash"
          + " now spills past work_mem to disk)"));
    } else {
      grown(out, key, LABELS.get(TEMP), TEMP, b, c, t.tempRatio(), t.tempFloorBytes(), true, "");
    }
    grown(historical, key, LABELS.get(ALLOCATED), ALLOCATED, b, c, t.allocatedRatio(),
        t.allocatedFloorBytes(), true, "; on the test's thread");
    for (Finding f : historical) {
      out.add(history == null || f.level() != Level.FAIL ? f
          : new Finding(Level.INFO, f.subject(), f.message() + history, false));
    }
  }

  /**
   * The counters {@code b} counted and {@code c} did not, by what the findings call them, for
   * cells whose statements and round trips match (the others are not judged on work): the gate
   * cannot judge what a run did not count, e.g. the server's work on a database without
   * pg_stat_statements.
   */
  static List<String> uncounted(Cell b, Cell c) {
    if (!sameCounts(b, c)) {
      return List.of();
    }
    List<String> out = new ArrayList<>();
    for (String name : KEPT) {
      if (b.server().get(name) != null && c.server().get(name) == null) {
        out.add(LABELS.get(name));
      }
    }
    return out;
  }

  private static void exact(List<Finding> out, String key, String what, Double before,
      Double after, String why) {
    if (before != null && after != null && Math.abs(after - before) > 0.01) {
      out.add(fail(key, what + " " + Format.number(before) + " -> " + Format.number(after)
          + " (must match exactly: " + why + ")"));
    }
  }

  private static void bytes(List<Finding> out, String key, String what, Double before,
      Double after, WorkTolerances t) {
    if (before == null || after == null
        || Math.abs(after - before) <= t.bytesEpsilon() * before) {
      return;
    }
    long flights = flights(after) - flights(before);
    String price = flights == 0 ? "no window flight more on a new connection"
        : (flights > 0 ? "+" : "") + flights + " window flight" + (Math.abs(flights) == 1 ? ""
        : "s") + " on a new connection: " + priced(flights);
    out.add(fail(key, what + " " + Format.bytes(before) + " -> " + Format.bytes(after) + " ("
        + price + "; must match within " + Format.number(t.bytesEpsilon() * 100) + "%: the"
        + " same statements over the same data send the same values)"));
  }

  // flights beyond the first a transfer of this many bytes takes on Linux's new connection
  private static long flights(double bytes) {
    return new LinkWindows(Link.LINUX).downstream().add((long) bytes);
  }

  private static String priced(long flights) {
    StringBuilder s = new StringBuilder();
    for (Rtt r : PRICED_AT) {
      s.append(s.length() == 0 ? "" : ", ").append(flights > 0 ? "+" : "-")
          .append(Format.duration(Math.abs(flights) * r.millis())).append(" at ").append(r);
    }
    return s.toString();
  }

  private static void grown(List<Finding> out, String key, String what, String name, Cell b,
      Cell c, double ratio, long floor, boolean bytes, String more) {
    Double before = b.server().get(name);
    Double after = c.server().get(name);
    if (before == null || after == null) {
      return;
    }
    double limit = ratio * before + floor;
    String change = what + " " + amount(before, bytes) + " -> " + amount(after, bytes);
    if (after > limit) {
      out.add(fail(key, change + " (more than " + Format.number(ratio) + "x the baseline + "
          + amount(floor, bytes) + " = " + amount(limit, bytes) + more + ")"));
    } else if (after * ratio + floor < before) {
      out.add(new Finding(Level.INFO, key, change + more + " (less than the baseline by more"
          + " than its tolerance: if that is the change's purpose, update the baseline)",
          false));
    }
  }

  private static String amount(double v, boolean bytes) {
    return bytes ? Format.bytes(v) : Format.count(v);
  }

  private static void plans(List<Finding> out, String key, Map<String, StatementPlan> before,
      Map<String, StatementPlan> after, WorkTolerances t) {
    before.forEach((shape, b) -> {
      StatementPlan a = after.get(shape);
      if (a == null || a.plan() == null || b.plan() == null || a.plan().equals(b.plan())) {
        return;
      }
      long rows = Math.max(a.tableRows(), b.tableRows());
      boolean small = rows < t.planMinTableRows();
      String site = a.callSite() != null ? a.callSite() : b.callSite();
      String message = "`" + SqlShape.brief(shape) + "`" + (site == null ? "" : " (" + site + ")") + ": plan "
          + b.plan() + " -> " + a.plan() + "; buffers " + perCall(b.blocksPerCall()) + " -> "
          + perCall(a.blocksPerCall()) + "/call" + (Double.isNaN(a.serverMsPerCall()) ? ""
          : ", " + Format.duration(a.serverMsPerCall()) + "/call on the server now")
          + (small ? " (reported, not failed: its largest table has " + Format.count(rows)
          + " rows, fewer than planMinTableRows " + Format.count(t.planMinTableRows()) + ")"
          : "");
      out.add(new Finding(small ? Level.INFO : Level.FAIL, key, message, false));
    });
  }

  private static String perCall(double blocks) {
    return Double.isNaN(blocks) ? "?" : Format.number(blocks);
  }

  private static Finding fail(String key, String message) {
    return new Finding(Level.FAIL, key, message, false);
  }
}
