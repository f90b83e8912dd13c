#!/usr/bin/env bash
# Regenerates docs/results/durability.md: the insert and round-trip suites, 1,000 rows at 0.5 and
# 20 ms, on the embedded backend twice, with latencylab.server.durability=fast (fsync,
# synchronous_commit and full_page_writes off: what the embedded backend ran before stock
# durability became the default) and stock, one after the other on the same machine. The quick
# profile's iterations (the verify profile's 200 ms ones hold a single operation of the
# row-by-row strategies, too few to see a commit's flush through the machine's noise). About
# 10 minutes on 2 cores; run it on a quiet machine.
#
#   bash docs/results/durability.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
out=docs/results/durability
mkdir -p "$out"
echo "load before: $(uptime)" >&2
for durability in fast stock; do
  LATENCYLAB_SERVER_DURABILITY=$durability ./latency-lab bench \
    --include 'InsertBenchmark|RoundTripBenchmark' --profile quick --budget 15 --param rows=1000 \
    --rtt 0.5ms,20ms --backend embedded \
    --out "$out/$durability"
done
echo "load after: $(uptime)" >&2
# keep the cells, the Markdown report and the charts; JMH's raw log and JSON stay out
for d in "$out"/fast "$out"/stock; do rm -f "$d/jmh-output.txt" "$d/jmh-results.json" "$d/report.html"; done
python3 docs/results/durability-page.py "$out/fast/results.json" "$out/stock/results.json" \
  > docs/results/durability.md
echo "wrote docs/results/durability.md" >&2
