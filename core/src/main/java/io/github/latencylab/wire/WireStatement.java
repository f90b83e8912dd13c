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
 * @param chain the application's frames on the stack that sent it, the call site first, then
 *     the callers above it ({@link CallSites}); null when the counter was not tracing, empty
 *     when no frame was the application's
 * @param overhead what it was if not the code's own work, else null
 * @param connection the number of the connection that sent it (0: none known)
 * @param roundTrip the ordinal of the round trip that carried it on that connection:
 *     statements of one batch share it
 * @param endpoint the HTTP route whose handler sent it (the nearest handler method on the stack),
 *     {@code GET /owners/{ownerId}}; null when no handler was on the stack, or the counter was
 *     not tracing
 * @param relayed sent by a client the Lab counts at its relay (R2DBC, Vert.x), not by pgjdbc
 *     through its socket factory
 */
public record WireStatement(String sql, List<BoundParameter> parameters, long valueBytes,
    List<CodeLine> chain, Overhead overhead, int connection, long roundTrip,
    String endpoint, boolean relayed) {

  /**
   * The first frame of the application on the stack that sent it, e.g. {@code
   * AuthorService.listAuthors(AuthorService.java:42)}; null when the counter was not tracing,
   * {@value CallSites#NONE} when no frame was the application's.
   */
  public String callSite() {
    return chain == null ? null : chain.isEmpty() ? CallSites.NONE : chain.get(0).frame();
  }

  /**
   * "OwnersResource.setVisits(OwnersResource.java:154) -> Visit.findByPetId(Visit.java:31)":
   * the chain, the outermost caller first; as {@link #callSite()} when it has one frame.
   */
  public String callChain() {
    if (chain == null || chain.size() < 2) {
      return callSite();
    }
    List<String> frames = new java.util.ArrayList<>();
    chain.forEach(l -> frames.add(0, l.frame()));
    return String.join(" -> ", frames);
  }

  /** The round trip that carried it, "connection.ordinal": statements of one batch share it. */
  public String trip() {
    return connection + "." + roundTrip;
  }

  /** True when it is the code's own work, not {@link Overhead}. */
  public boolean counted() {
    return overhead == null;
  }
}
