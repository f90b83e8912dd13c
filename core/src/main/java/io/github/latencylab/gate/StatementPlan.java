package io.github.latencylab.gate;

/**
 * The plan a test's statement shape ran with, as the baseline keeps it: a changed plan is a
 * finding that names the statement, its call site, both plans and the buffers before and
 * after.
 *
 * @param callSite where the shape's first statement came from, or null
 * @param plan its plan's fingerprint ({@code io.github.latencylab.server.QueryPlan})
 * @param blocksPerCall shared buffers each execution touched, or NaN where not counted
 * @param tableRows the rows of the largest table the plan reads: below the tolerances'
 *     {@code planMinTableRows} a changed plan is reported, never failed
 * @param serverMsPerCall the server's time per execution (this run's; the baseline keeps
 *     none), or NaN
 */
public record StatementPlan(String callSite, String plan, double blocksPerCall,
    long tableRows, double serverMsPerCall) {
}
