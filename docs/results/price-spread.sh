#!/usr/bin/env bash
# How much @ExpectWireCost's price of one test moves from one fresh JVM to the next: runs core's
# FirstRequestPriceTest (four queries rendered as JSON, the first thing its JVM does) RUNS times
# (default 10), each in a JVM of its own (a Maven run), with latencylab.report=true, and prints
# its price at 20 ms from each run's report (results.json: the model's cell at 20ms), then the
# median and each run's distance from it. A price a team puts in CI should stay within +-10%.
# About 20 s a run on 2 cores.
#
#   bash docs/results/price-spread.sh [RUNS]
set -euo pipefail
cd "$(dirname "$0")/../.."
runs=${1:-10}
test=FirstRequestPriceTest
out=$PWD/core/target/price-spread
rm -rf "$out"
mkdir -p "$out"
echo "load before: $(uptime)" >&2
./mvnw -q -pl core -am test-compile -DskipTests
prices=()
for i in $(seq 1 "$runs"); do
  ./mvnw -q -pl core -am surefire:test -Dtest="$test" -Dsurefire.failIfNoSpecifiedTests=false \
    -Dlatencylab.report=true -Dlatencylab.report.dir="$out/$i" \
    -Dlatencylab.report.baseline="$out/no-baseline.json" > "$out/$i.log" 2>&1 \
    || { cat "$out/$i.log" >&2; exit 1; }
  # a test's row is its class's full name
  price=$(jq -r --arg t "$test" '.measurements[] | select(.rtt == "20ms"
    and (.benchmark | endswith("." + $t))) | .timeMs' "$out/$i/results.json")
  # the report's line for the test: its counts, its wait and wall time at 0 ms
  measured=$(grep -m1 "\.$test\.[a-zA-Z]*: " "$out/$i/report.md" | sed 's/.*SQL statements, //')
  printf 'run %2d: %s ms at 20ms (%s)\n' "$i" "$(printf '%.1f' "$price")" "$measured"
  prices+=("$price")
done
echo "load after: $(uptime)" >&2
printf '%s\n' "${prices[@]}" | python3 -c '
import statistics, sys
p = [float(x) for x in sys.stdin]
m = statistics.median(p)
print(f"median {m:.1f} ms; min {min(p):.1f} ms ({(min(p) - m) / m:+.1%}),"
      f" max {max(p):.1f} ms ({(max(p) - m) / m:+.1%}); each: "
      + ", ".join(f"{(x - m) / m:+.1%}" for x in p))'
