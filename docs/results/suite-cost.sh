#!/usr/bin/env bash
# What latency-lab costs a suite of short tests (SuiteCostBenchmark, then SuiteCostPairs) and
# whether exact budgets hold in JUnit's parallel mode (ParallelSuiteBenchmark): all run (about
# 15 minutes on 2 cores), their JMH JSON and the environment kept in docs/results/suite-cost/, the page written
# from them. Needs the benchmarks jar: ./mvnw -q package -DskipTests
set -euo pipefail
cd "$(dirname "$0")/../.."
out=docs/results/suite-cost
jar=jmh-benchmarks/target/benchmarks.jar
mkdir -p "$out"
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
java -jar "$jar" SuiteCostBenchmark -rf json -rff "$out/suite-cost.json" | tee "$log"
# the first run of a fresh JVM under each guard (SuiteCostCold): what a suite run once pays,
# classes loaded and latency-lab's code not compiled yet; ten JVMs a guard, the guards
# interleaved, with the JIT's default tiers and stopped at C1
rm -f "$out"/suite-cost-cold.json "$out"/cold-*.json
for round in 1 2 3 4 5 6 7 8 9 10; do
  for jit in default c1; do
    for guard in none budget budgetAndReport audit; do
      flags=()
      [ "$jit" = c1 ] && flags=(-XX:TieredStopAtLevel=1)
      java "${flags[@]}" -cp "$jar" io.github.latencylab.bench.suite.SuiteCostCold "$guard" \
        "$out/cold-$jit-$round-$guard.json" | grep -E ', first run: ' \
        | sed "s/^/cold $round ($jit): /"
    done
  done
done
java -jar "$jar" ParallelSuiteBenchmark -rf json -rff "$out/parallel.json" | tee -a "$log"
# the guards' costs again, in pairs: each round of one JVM runs the three suites in a shuffled
# order, so that a machine that drifts moves a guard and its reference alike; three JVMs
rm -f "$out"/pairs-*.json
for fork in 1 2 3; do
  java -cp "$jar" io.github.latencylab.bench.suite.SuiteCostPairs "$out/pairs-$fork.json" 20 5 \
    | grep -E '^(round|warm-up) ' | sed "s/^/pairs $fork: /"
done
{
  # the Lab the suites ran on (SuiteLauncher's line): its PostgreSQL and settings, Toxiproxy,
  # pgjdbc, the added RTT
  grep -m1 -o 'suite on: .*' "$log" | sed 's/^suite on: /the Lab: /'
  echo "$(nproc) cores, $(uname -sr), measured $(date -u +%Y-%m-%dT%H:%MZ)"
} > "$out/environment.txt"
cd docs/results && python3 suite-cost-page.py suite-cost > suite-cost.md
echo "docs/results/suite-cost.md written"
