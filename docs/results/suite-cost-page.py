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


def median(values):
    v = sorted(values)
    n = len(v)
    return v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2


def cold(directory, warm_none):
    """The section of the first runs of fresh JVMs (SuiteCostCold's cold-JIT-ROUND-GUARD.json):
    a table for the JIT's default tiers, one for the JIT stopped at C1."""
    by_jit = {}
    for name in sorted(os.listdir(directory)):
        if name.startswith("cold-") and name.endswith(".json"):
            with open(os.path.join(directory, name), encoding="utf-8") as f:
                run = json.load(f)
            by_jit.setdefault(run.get("jit", ""), {}).setdefault(run["guard"], []).append(run)
    if "none" not in by_jit.get("", {}):
        return
    jvms = len(by_jit[""]["none"])
    print("### The first run of a fresh JVM\n")
    print(f"The same suites run once in each of {jvms} fresh JVMs a guard (`SuiteCostCold`, the"
          " guards' JVMs interleaved): the test classes, JUnit, pgjdbc and latency-lab loaded"
          " and their code not compiled yet, as a build's test run meets them. Each test's time"
          " is JUnit's start to finish of it (its extensions' callbacks included); the median"
          " test and the mean of the fastest 95% are what a test pays through that first run,"
          " the wall time per test also what is paid once (the first test's loading, the report"
          " written at the end). Means over the JVMs; what a guard adds over the suite's 300"
          f" tests spreads over a longer one (`none` warm: {ms(warm_none)}).\n")
    first_run(by_jit[""], "With the JIT's default tiers (what a JVM does unless told):")
    c1 = "-XX:TieredStopAtLevel=1"
    if "none" in by_jit.get(c1, {}):
        first_run(by_jit[c1], f"With `{c1}`, a common flag for short test JVMs (surefire's"
                  " `argLine`): compiled by C1 alone, no profiling tier and no C2 compiling on"
                  " the cores the tests need:")


def first_run(runs, title):
    """One table of first runs: each guard's means over its JVMs, and what it adds."""

    def stats(guard):
        """Over the guard's JVMs, the means of: the run's wall time per test, its median test,
        the mean of its fastest 95% of tests (the issue's statistics)."""
        per_jvm = []
        for run in runs[guard]:
            tests = sorted(run["testMs"])
            fastest = tests[:int(len(tests) * 0.95)]
            per_jvm.append((run["wallMs"] / len(tests), median(tests),
                            sum(fastest) / len(fastest)))
        return [sum(j[i] for j in per_jvm) / len(per_jvm) for i in range(3)]

    none = stats("none")
    print(title + "\n")
    print("| guard | ms per test, the run's wall time | over `none` | median test | over `none`"
          " | mean of the fastest 95% | over `none` |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for guard, _ in GUARDS:
        if guard not in runs:
            continue
        mine = stats(guard)
        cells = []
        for i in range(3):
            over = "-" if guard == "none" else f"+{ms(mine[i] - none[i])}"
            cells += [ms(mine[i]), over]
        print(f"| `{guard}` | " + " | ".join(cells) + " |")
    allowed = []
    for guard, limit in TARGETS.items():
        if guard in runs:
            over = stats(guard)[1] - none[1]
            allowed.append(f"`{guard}` +{ms(over)} (allowed +{ms(limit)}:"
                           f" {'yes' if over <= limit else '**no**'})")
    print("\nThe median test over `none` against what a test may cost: " + ", ".join(allowed)
          + ".")
    # one JVM against none's of the same round (the files sort alike for every guard)
    spread = []
    for guard in TARGETS:
        if guard in runs and len(runs[guard]) == len(runs["none"]):
            d = sorted(median(g["testMs"]) - median(n["testMs"])
                       for g, n in zip(runs[guard], runs["none"]))
            spread.append(f"`{guard}` +{ms(d[0])} to +{ms(d[-1])} (median +{ms(median(d))})")
    if spread:
        print("\nFrom one JVM to the next, each against `none`'s of its round: "
              + ", ".join(spread) + ".")
    once = {g: (stats(g)[0] - stats(g)[1]) * len(runs[g][0]["testMs"]) for g in runs}
    print("\nPaid once a JVM beyond its tests' median, the run's wall time less 300 median tests: "
          + ", ".join(f"`{g}` {fixed(once[g], 0)} ms" for g, _ in GUARDS if g in once) + ".\n")


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
        within = "yes" if mean <= TARGETS[guard] else "**no**"
        print(f"| `{guard}` | +{ms(mean)} ± {fixed(half, 3)} | +{ms(median(d))} |"
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
          " as surefire launches them, the test classes loaded from a directory of classes as"
          " a build's are (so that their lines are the statements' call sites, as in a team's"
          " suite), on one Lab held open across the runs. A score is the"
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
