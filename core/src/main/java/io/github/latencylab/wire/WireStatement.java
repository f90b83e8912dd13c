package io.github.latencylab.wire;

import java.util.List;

/**
 * One statement read at the wire (a simple Query or an Execute), with where it came from.
 *
 * @param sql its SQL as sent
 * @param parameters the values its Bind sent, kept while the counter traces (empty for a simple
 *     Query; null when not kept)
 * @param valueBytes the bytes of the values it carried: its Bind's parameter values, or a
 *     simple Query's text (the statement's data, whatever the protocol around it)
 * @param callSite the first frame of the application on the stack that sent it, e.g.
 *     {@code AuthorService.listAuthors(AuthorService.java:42)} ({@link CallSites}); null
 *     when the counter was not tracing, "(no application frame)" when none was found
 * @param overhead what it was if not the code's own work, else null
 * @param connection the number of the connection that sent it (0: none known)
 * @param roundTrip the ordinal of the round trip that carried it on that connection:
 *     statements of one batch share it
 */
public record WireStatement(String sql, List<BoundParameter> parameters, long valueBytes,
    String callSite, Overhead overhead, int connection,
    long roundTrip) {

  /** True when it is the code's own work, not {@link Overhead}. */
  public boolean counted() {
    return overhead == null;
  }
}
