#!/usr/bin/env python3
"""docs/n-plus-one.md, "Measured median times of that run": the sweep's measured median time
per strategy and RTT (ms), and the added RTT the Lab measured, from the JSON that
`./latency-lab demo --rtt 0.5ms,...,320ms --json docs/results/n-plus-one-sweep.json` wrote.

  python3 docs/results/n-plus-one-table.py [docs/results/n-plus-one-sweep.json]

Prints the Markdown table; paste it into the page as printed. Only measured times, no
predictions.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pages import fixed, load  # noqa: E402


def ms(v):
    """Milliseconds as the table has them: one decimal under 100 ms, whole ones above."""
    return fixed(v, 1) if abs(v) < 99.95 else fixed(v, 0)


def main(path):
    report = load(path)
    rtts = report["rtts"]
    labels = [r["rtt"] for r in rtts]
    by_rtt = [{s["strategy"]: s for s in r["strategies"]} for r in rtts]
    strategies = [s["strategy"] for s in rtts[0]["strategies"]]
    print("| strategy | statements | round trips | " + " | ".join(labels) + " |")
    print("|---|---:|---:|" + "---:|" * len(labels))
    print("| *added RTT, measured* | | | "
          + " | ".join(f"*{fixed(r['addedMeanMs'], 2)}*" for r in rtts) + " |")
    for name in strategies:
        first = by_rtt[0][name]
        for cells in by_rtt[1:]:  # counts are deterministic: the same at every RTT
            if (cells[name]["sqlStatements"], cells[name]["roundTrips"]) != (
                    first["sqlStatements"], first["roundTrips"]):
                sys.exit(f"{path}: {name}'s counts differ between RTTs")
        times = " | ".join(ms(cells[name]["timeMs"]) for cells in by_rtt)
        print(f"| `{name}` | {first['sqlStatements']} | {first['roundTrips']} | {times} |")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else
         os.path.join(os.path.dirname(os.path.abspath(__file__)), "n-plus-one-sweep.json"))
