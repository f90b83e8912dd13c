#!/usr/bin/env python3
"""docs/batching.md, "Which helper, by rows and RTT": the copyable helpers' strategies of
InsertBenchmark from the run that

  ./latency-lab bench --backend embedded \\
      --include 'InsertBenchmark\\.(executeBatch|multiRowValues|unnestArrays|copyCsv|copyBinary)$' \\
      --param rows=100,10000,100000 --rtt 0ms,1ms,20ms --out docs/results/helpers

wrote: per rows and RTT, each one's time per operation and (round trips).

  python3 docs/results/helpers-table.py [docs/results/helpers]

Prints the Markdown table; paste it into the page. Times the model predicted (over the
profile's budget) are marked \\*.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pages import cell, count, load, rtt_ms  # noqa: E402

# the strategy each helper runs in the suite, in the page's order
COLUMNS = [("executeBatch", "`executeBatch`"), ("multiRowValues", "MultiRowInsert"),
           ("unnestArrays", "UnnestInsert"), ("copyCsv", "CopyLoader CSV"),
           ("copyBinary", "CopyLoader BINARY")]


def main(directory):
    results = load(os.path.join(directory, "results.json"))
    cells = {(c["strategy"], c["params"]["rows"], c["rtt"]): c
             for c in results["measurements"] if c["benchmark"] == "InsertBenchmark"}
    rows = sorted({k[1] for k in cells}, key=int)
    rtts = sorted({k[2] for k in cells}, key=rtt_ms)
    print("| rows | added RTT | " + " | ".join(title for _, title in COLUMNS) + " |")
    print("|---:|---:|" + "---:|" * len(COLUMNS))
    for n in rows:
        for rtt in rtts:
            line = [f"{int(n):,}", rtt.replace("ms", " ms")]
            for strategy, _ in COLUMNS:
                c = cells.get((strategy, n, rtt))
                line.append("–" if c is None
                            else f"{cell(c)} ({count(c['roundTripsPerOp'])})")
            print("| " + " | ".join(line) + " |")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "helpers"))
