#!/usr/bin/env python3
"""The suite-cost page: what latency-lab costs each test of a suite of short repository tests
(SuiteCostBenchmark) and whether exact budgets hold, and still run faster, in JUnit's parallel
mode (ParallelSuiteBenchmark), from the JMH JSON of both and the environment suite-cost.sh kept.

  bash docs/results/suite-cost.sh     # runs both, then:
  cd docs/results && python3 suite-cost-page.py suite-cost > suite-cost.md
"""
import json
import os
import sys

from pages import fixed

# the most a guard may add to a test over none (issue 56: a budget 0.5 ms, with the report 1 ms)
TARGETS = {"budget": 0.5, "budgetAndReport": 1.0}
GUARDS = [("none", "the Lab and its extension, no budget (the reference)"),
          ("budget", "`@ExpectRoundTrips(exactly = 4)` on every test"),
          ("budgetAndReport", "the budget and `latencylab.report=true` (the server's plans and"
           " work per statement, the report written when the run ends)"),
          ("audit", "no budget, `latencylab.audit=true`: the one switch")]


def rows(path, param):
    """The benchmark's scores by the value of param: (mean ms per test, its 99.9% error)."""
    with open(path, encoding="utf-8") as f:
        runs = json.load(f)
    out = {}
    for r in runs:
        m = r["primaryMetric"]
        out[r["params"][param]] = (m["score"], m["scoreError"], r["forks"],
                                   r["measurementIterations"], r["warmupIterations"])
    return out, runs[0]


def ms(v):
    return fixed(v, 3) + " ms"


def cold(directory, warm_none):
    """The section of the first runs of fresh JVMs (suite-cost-cold.json)."""
    path = os.path.join(directory, "suite-cost-cold.json")
    if not os.path.exists(path):
        return
    with open(path, encoding="utf-8") as f:
        runs = json.load(f)
    first = {}
    for r in runs:
        samples = [s for fork in r["primaryMetric"]["rawData"] for s in fork]
        first[r["params"]["guard"]] = samples
    none = sum(first["none"]) / len(first["none"])
    print("### The first run of a fresh JVM\n")
    print(f"The same suites run once in each of {len(first['none'])} fresh JVMs (`-wi 0 -i 1 -f"
          f" {len(first['none'])}`): the test classes, JUnit, pgjdbc and latency-lab loaded and"
          " their code not compiled yet, as a build's test run meets them. What a guard adds"
          " here is paid once a JVM, about the suite's 300 tests times the difference, and"
          f" spreads over a longer suite (`none` warm: {ms(warm_none)}).\n")
    print("| guard | ms per test, each JVM | mean | over `none` |")
    print("|---|---|---:|---:|")
    for guard, _ in GUARDS:
        samples = first.get(guard)
        if not samples:
            continue
        mean = sum(samples) / len(samples)
        over = "-" if guard == "none" else "+" + ms(mean - none)
        print(f"| `{guard}` | {', '.join(fixed(s, 2) for s in samples)} | {ms(mean)} |"
              f" {over} |")
    print()


def pairs(directory):
    """The section of SuiteCostPairs' runs (pairs-N.json): each guard less the unbudgeted suite
    of the same round."""
    files = sorted(f for f in os.listdir(directory) if f.startswith("pairs-"))
    rounds = []
    for name in files:
        with open(os.path.join(directory, name), encoding="utf-8") as f:
            run = json.load(f)
        rounds += run["rounds"]
        warmup = run["warmupRounds"]
    if not rounds:
        return
    print("### In pairs\n")
    print(f"The same guards measured in pairs (`SuiteCostPairs`): {len(files)} JVMs x"
          f" {len(rounds) // len(files)} rounds after {warmup} warm-up rounds each, each round"
          " running the three suites once in a shuffled order; a guard's cost is its suite's"
          " ms per test less the unbudgeted suite's of the same round, so that a machine that"
          " slows down or speeds up between the guards moves both. Mean of the rounds and its"
          " 99.9% interval (normal approximation), and the median.\n")
    print("| guard | over `none`, mean | median | allowed | within |")
    print("|---|---:|---:|---:|---|")
    for guard in ("budget", "budgetAndReport"):
        d = sorted(r[guard] - r["none"] for r in rounds)
        n = len(d)
        mean = sum(d) / n
        sd = (sum((x - mean) ** 2 for x in d) / (n - 1)) ** 0.5
        half = 3.291 * sd / n ** 0.5
        median = d[n // 2] if n % 2 else (d[n // 2 - 1] + d[n // 2]) / 2
        within = "yes" if mean <= TARGETS[guard] else "**no**"
        print(f"| `{guard}` | +{ms(mean)} ± {fixed(half, 3)} | +{ms(median)} |"
              f" +{ms(TARGETS[guard])} | {within} |")
    print()


def main(directory):
    cost, first = rows(os.path.join(directory, "suite-cost.json"), "guard")
    parallel, _ = rows(os.path.join(directory, "parallel.json"), "execution")
    with open(os.path.join(directory, "environment.txt"), encoding="utf-8") as f:
        environment = [line.rstrip("\n") for line in f if line.strip()]
    none = cost["none"][0]
    forks, iterations, warmups = cost["none"][2], cost["none"][3], cost["none"][4]
    print("# What latency-lab costs a suite\n")
    print("Generated from the JMH runs of `bash docs/results/suite-cost.sh` (its JSON in"
          " [suite-cost/](suite-cost/)) by `python3 suite-cost-page.py suite-cost`.\n")
    print("**The suite** (`jmh-benchmarks/.../bench/suite/RepositoryTests.java`): 300 tests, each"
          " a lookup, an insert, a count and a commit (4 round trips) on a pooled connection"
          " (HikariCP, 4) of the embedded Lab at no added RTT, launched by JUnit's own launcher"
          " as surefire launches them, on one Lab held open across the runs. A score is the"
          " suite's wall time over its tests (JUnit's discovery included, the same under every"
          " guard): SingleShotTime, " + f"{forks} forks x {iterations} runs after {warmups}"
          " warm-up runs each, mean and its 99.9% interval. A test that fails (a budget that"
          " does not hold) fails the run.\n")
    print("## A budget, the report and the audit, each test\n")
    print("| guard | what | ms per test | over `none` | allowed | within |")
    print("|---|---|---:|---:|---:|---|")
    for guard, what in GUARDS:
        score, error, *_ = cost[guard]
        over = "-" if guard == "none" else "+" + ms(score - none)
        allowed = "+" + ms(TARGETS[guard]) if guard in TARGETS else "-"
        within = ("-" if guard not in TARGETS
                  else "yes" if score - none <= TARGETS[guard] else "**no**")
        print(f"| `{guard}` | {what} | {ms(score)} ± {fixed(error, 3)} | {over} | {allowed}"
              f" | {within} |")
    print()
    cold(directory, none)
    pairs(directory)
    print("## Exact budgets in JUnit's parallel mode\n")
    print("The same 300 tests under `@ExpectRoundTrips(exactly = 4)` beside 300 with no budget"
          " (600 tests), one at a time and in JUnit's parallel mode (methods and classes"
          " concurrent, 4 threads): every budget held in every run (a failed one fails the"
          " benchmark).\n")
    print("| execution | ms per test |")
    print("|---|---:|")
    for execution in ("oneAtATime", "parallel"):
        score, error, *_ = parallel[execution]
        print(f"| `{execution}` | {ms(score)} ± {fixed(error, 3)} |")
    ratio = parallel["oneAtATime"][0] / parallel["parallel"][0]
    print(f"\nIn parallel the suite ran {fixed(ratio, 2)}x as fast as one test at a time.\n")
    print("## Environment\n")
    print(f"- JDK {first['jdkVersion']} ({first['vmName']} {first['vmVersion']}), JMH"
          f" {first['jmhVersion']}")
    for line in environment:
        print(f"- {line}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "suite-cost")
