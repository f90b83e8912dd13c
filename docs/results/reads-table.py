#!/usr/bin/env python3
"""docs/reads.md, "Measured": ReadBenchmark's cells from the run that
`./latency-lab bench --include Read --profile quick --budget 15 --param rows=1000,10000,100000
--param width=narrow,wide --param window=cold,warm --out docs/results/reads` wrote: per size
and width, each strategy's round trips, window flights and largest reply per operation, and its
time at each RTT, cold and warm.

  python3 docs/results/reads-table.py [docs/results/reads]

The million-row run (`--param rows=1000000 --param width=narrow --out docs/results/reads-1m`)
prints the same way: python3 docs/results/reads-table.py docs/results/reads-1m (and its wide
twin, --param width=wide --out docs/results/reads-1m-wide: docs/results/reads-1m-wide)

Prints the Markdown tables; paste them into the page. Times the model predicted (over the
profile's budget) are in italics.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pages import count, dur, load, rtt_ms  # noqa: E402

ORDER = ["defaultFetch", "fetchSizeIgnoredInAutocommit", "fetchSize10000", "fetchSize1000",
         "defaultRowFetchSize", "hibernateStream", "hibernateScroll", "fetchSize100"]


def size(b):
    if b >= 1_000_000:
        return f"{b / 1e6:.1f} MB"
    if b >= 1000:
        return f"{b / 1000:.0f} kB"
    return f"{b:.0f} B"


def largest_replies(path):
    """(strategy, rows, window, rtt) -> the largest reply JMH's secondary results carry."""
    out = {}
    if not os.path.exists(path):
        return out
    with open(path) as f:
        for b in json.load(f):
            p = b.get("params", {})
            m = b.get("secondaryMetrics", {}).get("largestReplyBytes")
            if m is not None:
                key = (b["benchmark"].rsplit(".", 1)[1], p.get("rows"), p.get("width"),
                       p.get("window"))
                out[key] = max(out.get(key, 0), m["score"])
    return out


def main(directory):
    results = load(os.path.join(directory, "results.json"))
    replies = largest_replies(os.path.join(directory, "jmh-results.json"))
    cells = [c for c in results["measurements"] if c["benchmark"] == "ReadBenchmark"]
    rtts = sorted({c["rtt"] for c in cells}, key=rtt_ms)
    shapes = sorted({(c["params"]["rows"], c["params"]["width"]) for c in cells},
                    key=lambda s: (int(s[0]), s[1] != "narrow"))
    for rows, width in shapes:
        print(f"**{int(rows):,} rows** ({width}), time per read at each RTT, cold / warm window:")
        print()
        print("| strategy | round trips | window flights (cold) | largest reply | "
              + " | ".join(rtts) + " |")
        print("|---|---:|---:|---:|" + "---:|" * len(rtts))
        for strategy in ORDER:
            mine = [c for c in cells if c["strategy"] == strategy and c["params"]["rows"] == rows
                    and c["params"]["width"] == width]
            if not mine:
                continue
            by = {(c["rtt"], c["params"]["window"]): c for c in mine}
            any_cell = mine[0]
            cold = [c for c in mine if c["params"]["window"] == "cold" and not c["predicted"]]
            w = max((c.get("windowRoundTripsPerOp", 0) for c in cold), default=0)
            reply = replies.get((strategy, rows, width, "cold"))
            times = []
            for r in rtts:
                parts = []
                for window in ("cold", "warm"):
                    c = by.get((r, window))
                    if c is None:
                        parts.append("-")
                    else:
                        t = dur(c["timeMs"])
                        parts.append(f"*{t}*" if c["predicted"] else t)
                times.append(" / ".join(parts))
            print(f"| {strategy} | {count(any_cell['roundTripsPerOp'])} | {count(w)} |"
                  f" {size(reply) if reply else '-'} | " + " | ".join(times) + " |")
        print()


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "reads")
