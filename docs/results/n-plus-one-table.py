#!/usr/bin/env python3
"""docs/n-plus-one.md, "Measured median times of that run": the sweep's measured median time
per strategy and RTT (ms), and the added RTT the Lab measured, from the JSON that
`./latency-lab demo --rtt 0.5ms,...,320ms --json docs/results/n-plus-one-sweep.json` wrote.
With --reactive, "Does going reactive fix the N+1?": the N+1s and their fixes on each client at
20 and 80 ms against JDBC's, and the model's error at 320 ms (predicted from the 20 ms run,
against the 320 ms run).

  python3 docs/results/n-plus-one-table.py [docs/results/n-plus-one-sweep.json]
  python3 docs/results/n-plus-one-table.py --reactive n-plus-one-20ms.json \
      n-plus-one-sweep.json n-plus-one-320ms.json

Prints the Markdown table; paste it into the page as printed. Only measured times, no
predictions; round trips as "4-6" where a pipelining client's differed between RTTs.
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
        for cells in by_rtt[1:]:  # statements are deterministic: the same at every RTT
            if cells[name]["sqlStatements"] != first["sqlStatements"]:
                sys.exit(f"{path}: {name}'s statements differ between RTTs")
        # round trips too, but for a pipelining client: where an answer comes back before it
        # has written its last query (at a low RTT), it sends the rest in another flight
        trips = sorted({cells[name]["roundTrips"] for cells in by_rtt})
        trips = str(trips[0]) if len(trips) == 1 else f"{trips[0]}-{trips[-1]}"
        times = " | ".join(ms(cells[name]["timeMs"]) for cells in by_rtt)
        print(f"| `{name}` | {first['sqlStatements']} | {trips} | {times} |")


# the rows of the reactive answer: each client's N+1 and its fixes, JDBC's first
REACTIVE_ROWS = ["lazyLoop", "joinFetch", "batchFetch16", "hrLazyLoop", "hrJoinFetch",
                 "hrBatchFetch16", "r2dbcConcatMap", "r2dbcFlatMap", "r2dbcJoin",
                 "vertxPipelined"]


def reactive(at20_path, sweep_path, at320_path):
    at20 = {s["strategy"]: s for s in load(at20_path)["rtts"][0]["strategies"]}
    sweep = load(sweep_path)
    at80 = next(r for r in sweep["rtts"] if r["rtt"] == "80ms")
    at80 = {s["strategy"]: s for s in at80["strategies"]}
    at320 = {s["strategy"]: s for s in load(at320_path)["rtts"][0]["strategies"]}
    predicted = {p["strategy"]: p["predictedMs"]["intercontinental 320 ms"]
                 for p in load(at20_path)["predictions"]}
    n1 = "lazyLoop"
    print("| strategy | statements | round trips + window flights | 20 ms | 80 ms "
          "| vs JDBC's N+1 at 80 ms | 320 ms, measured | 320 ms, predicted from 20 ms "
          "| model error |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name in REACTIVE_ROWS:
        s = at20[name]
        wire = f"{s['roundTrips']} + {s['windowFlights']}"
        ratio = at80[name]["timeMs"] / at80[n1]["timeMs"]
        error = predicted[name] / at320[name]["timeMs"] - 1
        print(f"| `{name}` | {s['sqlStatements']} | {wire} | {ms(s['timeMs'])} "
              f"| {ms(at80[name]['timeMs'])} | {fixed(ratio, 2)}x "
              f"| {ms(at320[name]['timeMs'])} | {ms(predicted[name])} "
              f"| {'+' if error >= 0 else ''}{fixed(100 * error, 1)}% |")


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--reactive":
        if len(sys.argv) != 5:
            sys.exit("usage: n-plus-one-table.py --reactive 20ms.json sweep.json 320ms.json")
        reactive(*sys.argv[2:])
    else:
        main(sys.argv[1] if len(sys.argv) > 1 else
             os.path.join(os.path.dirname(os.path.abspath(__file__)), "n-plus-one-sweep.json"))
