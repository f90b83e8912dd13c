package io.github.latencylab.wire;

/**
 * A line of the application's code on the stack of a statement that reached the wire.
 *
 * @param frame as the reports write it, {@code OwnerController.show(OwnerController.java:42)}
 *     ({@link CallSites})
 * @param source the source file's path under its source root, from the class's package and its
 *     file name ({@code org/example/owner/OwnerController.java}); null when the class has none
 * @param line its line, or -1 when the frame has none
 */
public record CodeLine(String frame, String source, int line) {

  /** The frame without its file and line: {@code OwnerController.show}. */
  public String method() {
    int paren = frame.indexOf('(');
    return paren < 0 ? frame : frame.substring(0, paren);
  }
}
