#!/usr/bin/env bash
# Regenerates docs/results/pipelining.md and its data (docs/results/pipelining/) from real runs
# of the project's own commands, on the embedded backend. About 20 minutes on 2 cores; run it
# on a quiet machine (uptime's load well under the core count).
#
#   bash docs/results/pipelining.sh [--pgbench-only]
#
# docs/results/pipelining/remarks.md (the commands' story and what the numbers say) is kept.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=docs/results/pipelining
mkdir -p "$out"
echo "load before: $(uptime)" >&2

if [ "${1:-}" != "--pgbench-only" ]; then
  # the JVM clients: pgjdbc 42.7.13 and 42.7.12, Vert.x, R2DBC, COPY; every workload and size,
  # workload by workload (the quick profile alone runs the clients of the table; --param client
  # is one list for every workload), merged into one results.json
  for w in inserts:jdbcOneByOne,jdbcBatch,jdbcRewrite,jdbc42712Batch,jdbc42712Rewrite,vertx1,vertx16,vertx256,r2dbcFlux,r2dbcBatch,r2dbcBind,copy \
      lookups:jdbcOneByOne,jdbcJoin,jdbcAny,vertx1,vertx16,vertx256,r2dbcFlux,r2dbcBatch,r2dbcBind \
      tpcb:jdbcOneByOne,vertx1,vertx16,vertx256,r2dbcFlux,r2dbcBatch; do
    ./latency-lab bench --include "PipelineBenchmark\\.${w%%:*}\$" --profile quick --budget 15 \
      --param client="${w#*:}" --param rows=100,1000,10000 --rtt 0.5ms,20ms,320ms \
      --backend embedded --out "$out/jvm-${w%%:*}"
  done
  ./latency-lab report --results "$out"/jvm-{inserts,lookups,tpcb}/results.json --out "$out"
fi
# libpq through pgbench: one statement at a time and in one pipeline, also straight to the
# server over TCP and over its Unix-domain socket (--local)
for w in inserts:100 inserts:1000 inserts:10000 lookups:0 tpcb:0; do
  workload=${w%%:*} rows=${w##*:}
  name=$workload$([ "$rows" != 0 ] && echo "-$rows" || true)
  ./latency-lab pgbench --workload "$workload" $([ "$rows" != 0 ] && echo "--rows $rows") \
    --modes prepared,pipeline --rtt 0.5ms,20ms,320ms --clients 1 --synchronous-commit on \
    --duration 5s --local --backend embedded --json "$out/pgbench-$name.json" \
    | tee "$out/pgbench-$name.txt"
done
python3 docs/results/pipelining-page.py > docs/results/pipelining.md
echo "load after: $(uptime)" >&2
