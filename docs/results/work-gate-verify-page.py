#!/usr/bin/env python3
"""The work gate's campaign page on ./mvnw verify's cells: the runs written by
work-gate-verify.sh (each run's output, NAME.out.txt, its report.md and results.json, and runs.txt, in one directory),
the seeded regressions first (what the gate catches, by which counter), then the unchanged runs
(how often it cries wolf, and how far each counter moved against the baseline they were judged
against, the directory's baseline.json: src/latency-baseline.json as the campaign began).

  python3 docs/results/work-gate-verify-page.py docs/results/work-gate-verify \
    > docs/results/work-gate-verify.md
"""
import json
import os
import re
import sys

from pages import GATE_COUNTERS, gate_failures

WORK = [  # (results.json's name, the page's, bytes?)
    ("rowsPerOp", "rows", False),
    ("valuesReceivedPerOp", "values", False),
    ("valueBytesSentPerOp", "value bytes", True),
    ("statementBlocksPerOp", "buffers", False),
    ("statementWalBytesPerOp", "WAL", True),
    ("statementTempBytesPerOp", "temp", True),
    ("allocatedBytesPerOp", "allocations", True),
]
SEEDS = {
    "seed-index-dropped": ("TPC-B's accounts primary key dropped (`TpcbData`)", "TpcbBenchmark"),
    "seed-wide-select": ("a wide select: the DTO projection fetches the book entity for three"
                         " of its columns (`NPlusOneQueries.dtoProjection`)", "NPlusOneBenchmark"),
    "seed-index-on-inserts": ("an index on (name, created_at) added to the table the inserts"
                              " fill (`InsertRows`)", "InsertBenchmark"),
    "seed-sort-past-work-mem": ("work_mem lowered to 64 kB for the role the benchmarks connect"
                                " as (`ALTER ROLE CURRENT_USER` in the demo's schema)",
                                "NPlusOneBenchmark"),
    "seed-allocations": ("twice the allocations per book: each title copied through a scratch"
                         " buffer (`NPlusOneQueries.dtoProjection`)", "NPlusOneBenchmark"),
}
OTHERS = re.compile(r"other processes kept ([0-9.]+) of ([0-9]+) CPUs busy")


def apart(report):
    """The time findings a loaded run reported apart instead of failing them."""
    return sum(1 for line in open(report)
               if line.startswith("INFO ") and "time reported, not judged" in line)


def others(log):
    for line in open(log):
        m = OTHERS.search(line)
        if m:
            return f"{m.group(1)} of {m.group(2)}"
    return "?"


def key(m):
    params = " ".join(f"{k}={v}" for k, v in sorted((m.get("params") or {}).items()))
    return f"{m['benchmark']}.{m['strategy']}{' ' + params if params else ''} @ {m['rtt']}"


def amount(v, is_bytes):
    if not is_bytes:
        return f"{v:,.0f}" if v == round(v) else f"{v:,.1f}"
    for unit, size in (("MB", 1 << 20), ("kB", 1 << 10)):
        if v >= size:
            return f"{v / size:,.1f} {unit}"
    return f"{v:,.0f} B"


def main(directory):
    runs = [line.rstrip("\n").split(": ", 1) for line in open(os.path.join(directory, "runs.txt"))
            if ": " in line]
    baseline = json.load(open(os.path.join(directory, "baseline.json")))
    tolerances = baseline["tolerances"]["work"]
    print("# The work gate's campaign: ./mvnw verify's cells\n")
    print("Written by `bash docs/results/work-gate-verify.sh` from real runs of the verify profile"
          " (the embedded backend, 0.5, 20 and 320 ms) against the committed"
          " `src/latency-baseline.json`, as `./mvnw verify` runs its gate: one run per seeded"
          " regression, each a copy of the repository with one change and its suite alone, then"
          " runs of unchanged code, the whole profile, the last beside a build of core looping on"
          " the same 2 cores. A finding is a `FAIL` line of the run's baseline check (each run's"
          " output, report.md and results.json are in [work-gate-verify/](work-gate-verify/)). The"
          " same campaign on a Spring Boot application's tests: [work-gate.md](work-gate.md);"
          " what each counter includes: [../work.md](../work.md).\n")
    print("The baseline's work tolerances: buffers {blocksRatio}x + {blocksFloor}, WAL {walRatio}x"
          " + {wal}, temp none where there was none, allocations {allocatedRatio}x + {alloc};"
          " rows and values exact, value bytes within {eps}%.\n".format(
              wal=amount(tolerances["walFloorBytes"], True),
              alloc=amount(tolerances["allocatedFloorBytes"], True),
              eps=f"{tolerances['bytesEpsilon'] * 100:g}", **tolerances))

    seeded = [(n, i) for n, i in runs if n.startswith("seed")]
    print("## Seeded regressions: caught, and by what\n")
    print("| seed | run | caught by | cells failed | a finding |")
    print("|---|---|---|---|---|")
    caught = 0
    for name, info in seeded:
        what, suite = SEEDS.get(name, (name, "?"))
        f = [x for x in gate_failures(os.path.join(directory, name + ".md")) if x[1] != "time"]
        counters = sorted({c for _, c, _ in f}, key=[n for n, _ in GATE_COUNTERS].index)
        caught += bool(f)
        first = next((x for x in f if x[1] == counters[0]), None) if f else None
        example = f"`{first[0]}`: {first[2]}" if first else "not caught"
        print(f"| {what} | `--include {suite}`: {info} | {', '.join(counters) or '-'}"
              f" | {len({c for c, _, _ in f})} | {example} |")
    print(f"\n{caught} of {len(seeded)} seeded regressions caught by a counted fact, each in one"
          " run (time findings left out of this table: see each run's report).\n")

    unchanged = [(n, i) for n, i in runs if n.startswith("unchanged")]
    print("## Unchanged code: false alarms\n")
    print("| run | exit, wall time, load (1, 5, 15 min) | other processes' CPUs | counted"
          " findings | time findings: failed, reported apart |")
    print("|---|---|---|---|---|")
    alarms = 0
    for name, info in unchanged:
        f = gate_failures(os.path.join(directory, name + ".md"))
        counted = [x for x in f if x[1] != "time"]
        alarms += len(counted)
        print(f"| {name} | {info} | {others(os.path.join(directory, name + '.out.txt'))}"
              f" | {len(counted)}" + "".join(f"<br>`{c}` {n}: {m}" for c, n, m in counted)
              + f" | {len(f) - len(counted)}, {apart(os.path.join(directory, name + '.md'))} |")
    print(f"\n{alarms} false alarm{'s' if alarms != 1 else ''} of the counted work over"
          f" {len(unchanged)} runs of unchanged code. Time findings fail a run only where the"
          " machine was quiet; beside the build they are reported apart"
          " ([shared-machine.md](shared-machine.md)).\n")

    cells = baseline["cells"]
    spread = {}
    for name, _ in unchanged:
        for m in json.load(open(os.path.join(directory, name + ".json")))["measurements"]:
            b = cells.get(key(m))
            if m.get("predicted") or not b or "work" not in b:
                continue
            for counter, label, is_bytes in WORK:
                before, after = b["work"].get(counter), (m.get("server") or {}).get(counter)
                if before is None or after is None:
                    continue
                move = abs(after - before)
                worst = spread.get(label)
                if worst is None or move > worst[0]:
                    spread[label] = (move, key(m), before, after, name, is_bytes)
    print("How far each counter moved on unchanged code: the largest move of any measured cell"
          " in any unchanged run from the baseline's value (the median of the runs of unchanged code"
          " it was taken from, none of these):\n")
    print("| counter | largest move | cell | baseline -> run |")
    print("|---|---|---|---|")
    for _, label, _ in WORK:
        if label in spread:
            move, cell, before, after, name, is_bytes = spread[label]
            print(f"| {label} | {amount(move, is_bytes)} | `{cell}` | {amount(before, is_bytes)}"
                  f" -> {amount(after, is_bytes)} ({name}) |")


if __name__ == "__main__":
    main(sys.argv[1])
