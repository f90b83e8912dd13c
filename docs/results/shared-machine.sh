#!/usr/bin/env bash
# The time gate on a shared machine: verify's gate as ./mvnw verify runs it (the verify profile,
# the embedded backend, against the committed src/latency-baseline.json) on unchanged code,
# QUIET runs alone and LOADED beside a build of core looping, then one beside the build with a
# round trip seeded (the canary's, LATENCYLAB_CANARY_EXTRA_ROUND_TRIPS=1). Each run's output and
# report.md go into docs/results/shared-machine/, the table into docs/results/shared-machine.md
# (shared-machine-page.py). About 7 minutes a run on 2 cores.
#
#   bash docs/results/shared-machine.sh [QUIET] [LOADED]
set -euo pipefail
cd "$(dirname "$0")/../.."
quiet=${1:-2}
loaded=${2:-2}
out=docs/results/shared-machine
work=target/shared-machine
load_pid=
stop_load() {
  if [ -n "$load_pid" ]; then
    kill -- -"$load_pid" 2>/dev/null || true
    wait "$load_pid" 2>/dev/null || true
    load_pid=
  fi
}
trap stop_load EXIT
rm -rf "$out" "$work"
mkdir -p "$out" "$work"
./mvnw -B -ntp -q package -DskipTests
# the runs use a copy: the build beside them must not rebuild what they run
cp jmh-benchmarks/target/benchmarks.jar "$work/benchmarks.jar"

start_load() { # a build of core, looping, in a process group of its own
  setsid bash -c 'while :; do ./mvnw -B -ntp -q -o -pl core clean compile > /dev/null 2>&1 || true; done' &
  load_pid=$!
}
run() { # NAME [VAR=VALUE ...]: one run of the gate
  local name=$1
  shift
  local rc=0
  env "$@" java -cp "$work/benchmarks.jar" io.github.latencylab.cli.LatencyLab bench \
    --profile=verify --backend=embedded --out="$work/$name" \
    --baseline=src/latency-baseline.json > "$out/$name.log" 2>&1 || rc=$?
  cp "$work/$name/report.md" "$out/$name.md"
  echo "$name: exit $rc, load $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$out/runs.txt"
}

for i in $(seq 1 "$quiet"); do
  run "quiet-$i"
done
start_load
for i in $(seq 1 "$loaded"); do
  run "loaded-$i"
done
run loaded-round-trip-seeded LATENCYLAB_CANARY_EXTRA_ROUND_TRIPS=1
stop_load
python3 docs/results/shared-machine-page.py "$out" > docs/results/shared-machine.md
