#!/usr/bin/env python3
"""Field figures beside ours: reads a bench results.json (and optionally a JMH JSON with the
single-shot 1,000,000-row row-by-row load, copy-reference's output, and the 10,000-row run's
results.json) and prints Markdown.

  python3 docs/results/field-figures.py RESULTS_JSON [EACH_1M_JMH_JSON] [COPY_REFERENCE_TXT] \
      [ROWS_10000_RESULTS_JSON]

"-" for EACH_1M_JMH_JSON: not measured (the table shows the model's prediction).
"""
import json
import sys

import pages
from pages import dur, load


def cell(m):
    """A cell's time: * predicted from the same row's measured cells, ~ scaled from a smaller
    size."""
    return dur(m["timeMs"]) + "~" if pages.scaled(m) else pages.cell(m, "*")


def cells(path):
    return load(path)["measurements"]


def find(ms, strategy, rows, rtt):
    for m in ms:
        if m["strategy"] == strategy and m["params"].get("rows") == str(rows) and m["rtt"] == rtt:
            return m
    return None


def main():
    ms = cells(sys.argv[1])
    each_1m = None
    if len(sys.argv) > 2 and sys.argv[2] != "-":
        with open(sys.argv[2]) as f:
            run = json.load(f)[0]
        each_1m = run["primaryMetric"]["score"]  # ms, single shot
    out = []
    out.append("### Batch vs row by row (seed: ~120x at ~320 ms; batching still ~50% faster locally)\n")
    out.append("| rows | RTT | executeEach (row by row) | executeBatch | speedup | COPY (copyCsv) | speedup |")
    out.append("|---:|---|---:|---:|---:|---:|---:|")
    for rows in ("100", "1000"):
        for rtt in ("0ms", "0.5ms", "320ms"):
            each = find(ms, "executeEach", rows, rtt)
            batch = find(ms, "executeBatch", rows, rtt)
            copy = find(ms, "copyCsv", rows, rtt)
            if each and batch:
                sb = each["timeMs"] / batch["timeMs"]
                sc = each["timeMs"] / copy["timeMs"] if copy else float("nan")
                out.append(f"| {int(rows):,} | {rtt} | {cell(each)} | {cell(batch)} | {sb:,.0f}x | {cell(copy)} | {sc:,.0f}x |")
    out.append("\n\\* predicted by the model from the same row's measured cell (see the full table).\n")
    out.append("### 1,000,000 rows (seed, laptop, local: sequential 36.15 s, batch 23.7 s, COPY 1.74 s)\n")
    out.append("| strategy | 0 ms (loopback through the proxy) | 0.5 ms | 320 ms |")
    out.append("|---|---:|---:|---:|")
    for s in ("executeEach", "executeEachInTransaction", "executeBatch", "executeBatchRewritten",
              "multiRowValues", "unnestArrays", "copyCsv", "copyBinary"):
        row = [cell(find(ms, s, "1000000", r)) for r in ("0ms", "0.5ms", "320ms")]
        if s == "executeEach" and each_1m is not None:
            row[0] = f"{dur(each_1m)} (single shot)"
        out.append(f"| {s} | " + " | ".join(row) + " |")
    out.append("\n\\* predicted by the model from the same row's measured cells; ~ scaled from the"
               " 1,000-row cell at the same RTT (time, round trips and statements x1,000), an"
               " estimate where measuring would have taken longer than the budget.")
    base = find(ms, "copyCsv", "1000000", "0ms")
    each_cell = find(ms, "executeEach", "1000000", "0ms")
    each0 = each_1m if each_1m is not None else (each_cell or {}).get("timeMs")
    each_shown = dur(each_1m) if each_1m is not None else cell(each_cell)
    batch0 = find(ms, "executeBatch", "1000000", "0ms")
    if base and batch0 and each0:
        out.append(f"\nOrdering at 0 ms: row by row {each_shown} > batch {cell(batch0)} > COPY "
                   f"{dur(base['timeMs'])}; ratios row-by-row/batch {each0 / batch0['timeMs']:.1f} "
                   f"(seed 1.5), batch/COPY {batch0['timeMs'] / base['timeMs']:.1f} (seed 13.6).")
    if len(sys.argv) > 3:
        with open(sys.argv[3]) as f:
            out.append("\n### COPY helper vs `psql \\copy` (the physical reference), same run\n")
            out.append("```")
            out.append(f.read().strip())
            out.append("```")
    if len(sys.argv) > 4:
        out.append("\n" + ten_thousand(cells(sys.argv[4])))
    print("\n".join(out))


def ten_thousand(ms):
    """Each strategy's round trips and time for 10,000 rows at 0.5 and 320 ms, fastest last,
    with its speedup over row by row."""
    rtts = ("0.5ms", "320ms")
    ms = [m for m in ms if m["params"].get("rows") == "10000"]
    strategies = sorted({m["strategy"] for m in ms},
                        key=lambda s: -find(ms, s, "10000", "320ms")["timeMs"])
    base = {r: find(ms, "executeEach", "10000", r) for r in rtts}
    out = ["| strategy | round trips / 10,000 rows | 0.5 ms | speedup vs executeEach | 320 ms"
           " | speedup vs executeEach |", "|---|---:|---:|---:|---:|---:|"]
    for s in strategies:
        row = [s, pages.count(find(ms, s, "10000", rtts[0])["roundTripsPerOp"])]
        for r in rtts:
            m = find(ms, s, "10000", r)
            row += [cell(m), f"{base[r]['timeMs'] / m['timeMs']:,.0f}x"]
        out.append("| " + " | ".join(row) + " |")
    return "\n".join(out)


if __name__ == "__main__":
    main()
