#!/usr/bin/env bash
# Re-measures the data of docs/results/inserts.md (docs/results/inserts/) with the project's own
# commands on the embedded backend, then prints the page's tables (field-figures.py) to paste
# in; the page's prose says what they show. About 40 minutes on 2 cores; run it on a quiet
# machine (uptime's load well under the core count).
#
#   bash docs/results/inserts.sh [--each-1m]
#
# --each-1m also loads 1,000,000 rows one by one, once (about 20 minutes with stock durability:
# a commit's fsync each); without it the page shows the model's prediction for that cell.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=docs/results/inserts
mkdir -p "$out/rows-10000"
echo "load before: $(uptime)" >&2

# every strategy at 100, 1,000 and 1,000,000 rows (the include also matches
# HibernateInsertBenchmark); cells over 100 s predicted by the model, marked
./latency-lab bench --include InsertBenchmark --profile quick --budget 100 \
  --rtt 0ms,0.5ms,320ms --param rows=100,1000,1000000 --backend embedded --out "$out"
# 10,000 rows: round trips and speedups
./latency-lab bench --include InsertBenchmark --profile quick --budget 15 --param rows=10000 \
  --rtt 0.5ms,320ms --backend embedded --out "$out/rows-10000"
each=-
if [ "${1:-}" = "--each-1m" ]; then
  # the 1,000,000-row row-by-row load, once, on loopback through the proxy (its own Lab)
  each="$out/execute-each-1m-single-shot.json"
  java -jar jmh-benchmarks/target/benchmarks.jar 'InsertBenchmark.executeEach$' \
    -p rows=1000000 -p rtt=0ms -bm ss -wi 0 -i 1 -f 1 -rf json -rff "$each"
fi
# the COPY helper against psql \copy, the same rows through the same proxy
./latency-lab copy-reference --backend embedded --rows 1000000 --rtt 0ms,0.5ms,20ms --runs 5 \
  | tee "$out/copy-reference.txt"

python3 docs/results/field-figures.py "$out/results.json" "$each" \
  "$out/copy-reference.txt" "$out/rows-10000/results.json"
echo "load after: $(uptime)" >&2
