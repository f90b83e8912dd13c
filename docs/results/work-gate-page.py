#!/usr/bin/env python3
"""The work gate's campaign page: the Spring Boot example's runs written by work-gate.sh (each
run's report.md and runs.txt in one directory), the unchanged runs first (how often the gate
cries wolf), then the seeded regressions (what it catches, and by which counter).

  python3 docs/results/work-gate-page.py docs/results/work-gate > docs/results/work-gate.md
"""
import os
import re
import sys

from pages import gate_failures

SEEDS = {
    "seed-index-dropped": "the ISBN index dropped (`@Index` removed from `Edition`)",
    "seed-wide-select": "a wide select: the lookups fetch the entity (a 1 kB blurb) for its title",
    "seed-index-on-inserts": "an index on (title, blurb) added to the table new editions go to",
    "seed-sort-past-work-mem": "work_mem lowered to 64 kB on the application's connections",
    "seed-allocations": "twice the allocations per lookup (a scratch copy of each title)",
}


def findings(report):
    """Its FAIL lines by test (the key less its " @ 0ms"), counter and message."""
    return [(test.rsplit(" @ ", 1)[0], counter, message)
            for test, counter, message in gate_failures(report)]


UNITS = {"B": 1, "kB": 1024, "MB": 1024 * 1024}
TEST_LINE = re.compile(r"^(\S+): [0-9,]+ round trips?, ")
WORK_LINE = re.compile(r"^  ([0-9,]+) rows? returned \([0-9,]+ values?, ([0-9.,]+) (B|kB|MB)\), ([0-9.,]+) (B|kB|MB)"
                       r" of values sent; the server: ([0-9,]+) buffers? touched"
                       r" \(([0-9,]+) read\), ([0-9.,]+) (B|kB|MB) WAL, ([0-9.,]+) (B|kB|MB) temp;"
                       r" ([0-9.,]+) (B|kB|MB) allocated")


def amount(number, unit="B"):
    return float(number.replace(",", "")) * UNITS[unit]


def work(report):
    """Each test's counted work, as its report.md writes it (rounded as written)."""
    out, test = {}, None
    for line in open(report):
        m = TEST_LINE.match(line)
        if m:
            test = m.group(1)
            out[test] = {}
            continue
        m = WORK_LINE.match(line)
        if m and test:
            out[test].update({"rows": amount(m.group(1)),
                              "row bytes": amount(m.group(2), m.group(3)),
                              "value bytes": amount(m.group(4), m.group(5)),
                              "buffers": amount(m.group(6)),
                              "WAL": amount(m.group(8), m.group(9)),
                              "temp": amount(m.group(10), m.group(11)),
                              "allocations": amount(m.group(12), m.group(13))})
    return out


def short(test):
    return test.rsplit(".", 2)[-2] + "." + test.rsplit(".", 1)[-1]


def main(directory):
    runs = [line.split(": ", 1) for line in open(os.path.join(directory, "runs.txt"))
            if ": " in line]
    print("# The work gate's campaign: the Spring Boot example\n")
    print("Written by `bash docs/results/work-gate.sh` from real runs of the example"
          " ([docs/examples/spring-boot](../examples/spring-boot/)) against a baseline it took"
          " first ([work-gate/baseline.json](work-gate/baseline.json)): unchanged runs, some"
          " beside a build of core looping on the same 2 cores, then one run per seeded"
          " regression. A finding is a `FAIL` line of the run's baseline check (each run's"
          " report.md is in [work-gate/](work-gate/)). What each counter includes and its"
          " tolerance: [../work.md](../work.md).\n")
    unchanged = [(n, info) for n, info in runs if n.startswith("unchanged")]
    seeded = [(n, info) for n, info in runs if n.startswith("seed")]
    print("## Unchanged code: false alarms\n")
    print("| run | wall time, load (1, 5, 15 min) | failures |")
    print("|---|---|---|")
    alarms = 0
    for name, info in unchanged:
        f = findings(os.path.join(directory, name + ".md"))
        alarms += len(f)
        print(f"| {name} | {info.strip()} | {len(f)}"
              + ("".join(f"<br>`{short(t)}` {c}: {m}" for t, c, m in f) if f else "") + " |")
    print(f"\n{alarms} false alarm{'s' if alarms != 1 else ''} over {len(unchanged)} runs of"
          " unchanged code.\n")
    base = work(os.path.join(directory, "baseline.md"))
    spread = {}
    for name, _ in unchanged:
        for test, counters in work(os.path.join(directory, name + ".md")).items():
            for counter, value in counters.items():
                before = base.get(test, {}).get(counter)
                if before is None:
                    continue
                ratio = value / before if before else (1.0 if value == 0 else float("inf"))
                worst = spread.get(counter)
                if worst is None or abs(ratio - 1) > abs(worst[0] - 1):
                    spread[counter] = (ratio, test, before, value, name)
    print("How far each counter moved on unchanged code, the largest move of any test in any"
          " unchanged run against the baseline run (as report.md writes them, rounded):\n")
    print("| counter | largest move | test | baseline -> run |")
    print("|---|---|---|---|")
    for counter in ["rows", "row bytes", "value bytes", "buffers", "WAL", "temp",
                    "allocations"]:
        if counter in spread:
            ratio, test, before, value, name = spread[counter]
            print(f"| {counter} | {ratio:.3f}x | `{short(test)}` | {before:,.0f} -> {value:,.0f}"
                  f" ({name}) |")
    print()
    print("## Seeded regressions: caught, and by what\n")
    print("| seed | run | caught by | the finding |")
    print("|---|---|---|---|")
    for name, info in seeded:
        f = findings(os.path.join(directory, name + ".md"))
        by = sorted({c for _, c, _ in f})
        first = f[0] if f else None
        print(f"| {SEEDS.get(name, name)} | {info.strip()} | {', '.join(by) or '**not caught**'}"
              f" | {('`' + short(first[0]) + '`: ' + first[2].replace('|', '/')) if first else ''} |")
    caught = sum(1 for name, _ in seeded if findings(os.path.join(directory, name + ".md")))
    print(f"\n{caught} of {len(seeded)} seeded regressions caught, each in one run.")


if __name__ == "__main__":
    main(sys.argv[1])
