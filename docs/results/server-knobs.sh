#!/usr/bin/env bash
# Regenerates docs/results/server-knobs.md and its data (docs/results/server-knobs/) from real
# runs of the project's own commands, on the embedded backend. About 25 minutes on 2 cores;
# run it on a quiet machine (uptime's load well under the core count).
#
#   bash docs/results/server-knobs.sh [REMARKS_MD]
#
# REMARKS_MD: what the operator saw that the numbers cannot say (e.g. the machine's load).
set -euo pipefail
cd "$(dirname "$0")/../.."
out=docs/results/server-knobs
mkdir -p "$out"
rtts=0.5ms,1ms,2ms,5ms,10ms,20ms,80ms
echo "load before: $(uptime)" >&2

# TPC-B over JDBC: four ways to send it, synchronous_commit on and off, 1 and 4 clients
./latency-lab bench --include 'TpcbBenchmark' --profile quick --budget 15 --rtt "$rtts" \
  --param clients=1,4 --param synchronousCommit=on,off --param fsync=on \
  --backend embedded --out "$out/tpcb"
# fsync=off on top of synchronous_commit=off (field report 4: no further gain)
./latency-lab bench --include 'TpcbBenchmark.statementByStatement' --profile quick --budget 15 --rtt "$rtts" \
  --param clients=1,4 --param synchronousCommit=off --param fsync=off \
  --backend embedded --out "$out/tpcb-fsync-off"
# the real pgbench beside the JDBC twin, through the same proxy
./latency-lab pgbench --rtt 0.5ms,20ms --clients 1,4 --duration 10s --scale 1 \
  --backend embedded --json "$out/pgbench.json" | tee "$out/pgbench.txt"
# wal_buffers, work_mem, shared_buffers, cold vs warm cache
./latency-lab knobs --backend embedded --json "$out/knobs.json" | tee "$out/knobs.txt"

echo "load after: $(uptime)" >&2
# keep the cells, the Markdown report and the charts; JMH's raw log and JSON stay out
for d in "$out"/tpcb "$out"/tpcb-fsync-off; do rm -f "$d/jmh-output.txt" "$d/jmh-results.json" "$d/report.html"; done
python3 docs/results/server-knobs-page.py "$out" ${1:+"$1"} > docs/results/server-knobs.md
echo "wrote docs/results/server-knobs.md" >&2
