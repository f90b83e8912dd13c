#!/usr/bin/env python3
"""Side-by-side calibration table from two `./latency-lab calibrate --json` files.

  python3 docs/results/calibration-table.py EMBEDDED_JSON TESTCONTAINERS_JSON
"""
import json
import sys

a, b = (json.load(open(p)) for p in sys.argv[1:3])
rows_b = {r["configured"]: r for r in b["rows"]}
print("| configured | embedded: added mean | p50 | p99 | error | baseline | testcontainers: added mean | p50 | p99 | error | baseline |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
for r in a["rows"]:
    s = rows_b.get(r["configured"])
    def part(x):
        if x is None:
            return "- | - | - | - | -"
        return (f"{x['addedMeanMs']:.3f} ms | {x['addedP50Ms']:.3f} | {x['addedP99Ms']:.3f} | "
                f"{x['errorPercent']:+.1f}% | {x['baselineMeanMs']:.3f} ms")
    print(f"| {r['configured']} | {part(r)} | {part(s)} |")
