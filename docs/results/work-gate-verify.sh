#!/usr/bin/env bash
# The work gate's campaign on ./mvnw verify's own cells: the verify profile on the embedded
# backend against the committed src/latency-baseline.json, as ./mvnw verify runs it. First one
# run per seeded regression, each a copy of this repository with one change, its suite alone;
# then RUNS runs of unchanged code, the whole profile, the last LOADED of them beside a build of
# core looping (in the copy). Each run's output, report.md and results.json go into docs/results/work-gate-verify/,
# the page into docs/results/work-gate-verify.md (work-gate-verify-page.py). About 3 minutes a
# seed and 7 a whole run on 2 cores, 10 beside the build.
#
#   bash docs/results/work-gate-verify.sh [RUNS] [LOADED]
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
runs=${1:-5}
loaded=${2:-2}
out=$root/docs/results/work-gate-verify
work=$root/target/work-gate-verify
scratch=$(mktemp -d)
load_pid=
cleanup() {
  if [ -n "$load_pid" ]; then
    kill -- -"$load_pid" 2>/dev/null || true
    wait "$load_pid" 2>/dev/null || true
  fi
  rm -rf "$scratch"
}
trap cleanup EXIT
rm -rf "$out" "$work"
mkdir -p "$out" "$work"
cp src/latency-baseline.json "$out/baseline.json" # what the runs were judged against

run() { # NAME JAR [bench options]: one run of the gate
  local name=$1 jar=$2
  shift 2
  local rc=0 start=$SECONDS
  java -cp "$jar" io.github.latencylab.cli.LatencyLab bench --profile=verify --backend=embedded \
    --out="$work/$name" --baseline="$root/src/latency-baseline.json" "$@" \
    > "$out/$name.out.txt" 2>&1 || rc=$?
  cp "$work/$name/report.md" "$out/$name.md"
  cp "$work/$name/results.json" "$out/$name.json"
  echo "$name: exit $rc, $((SECONDS - start)) s, load $(cut -d' ' -f1-3 /proc/loadavg)" \
    | tee -a "$out/runs.txt"
}
copy() { # the repository at HEAD, unchanged (its build kept: only what a seed edits rebuilds)
  if [ -d "$scratch/repo" ]; then
    git -C "$scratch/repo" checkout -q -- .
  else
    git clone -q "$root" "$scratch/repo"
  fi
}
edit() { # FILE PYTHON-EXPRESSION-ON-s: one change to the copy's sources
  python3 "$root/docs/results/seed-edit.py" "$scratch/repo/$1" "$2"
}
seed() { # NAME INCLUDE: builds the edited copy, runs its suite against the baseline
  (cd "$scratch/repo" && ./mvnw -B -ntp -q -o package -pl jmh-benchmarks -am -DskipTests)
  run "$1" "$scratch/repo/jmh-benchmarks/target/benchmarks.jar" --include="$2"
}

T=jmh-benchmarks/src/main/java/io/github/latencylab/bench
D=hibernate-demo/src/main/java/io/github/latencylab/demo
copy # an index dropped: TPC-B's account lookups and updates read 100,000 accounts whole
edit $T/tpcb/TpcbData.java 's.replace("      st.execute(\"ALTER TABLE pgbench_accounts ADD PRIMARY KEY (aid)\");\n", "")'
seed seed-index-dropped 'TpcbBenchmark'

copy # a wide select: the DTO projection fetches the book entity for three of its columns
edit $D/NPlusOneQueries.java 's.replace("\"select a.id, a.name, b.id, b.title, b.published\"", "\"select a.id, a.name, b\"")'
edit $D/NPlusOneQueries.java 's.replace("books.add(new BookSummary((Long) row[2], (String) row[3], (Integer) row[4]));", "Book book = (Book) row[2];\n        books.add(new BookSummary(book.getId(), book.getTitle(), book.getPublished()));")'
seed seed-wide-select 'NPlusOneBenchmark'

copy # an index added to the table the inserts fill: (name, created_at)
edit $T/insert/InsertRows.java 's.replace("          + \" amount numeric(12,2) NOT NULL, created_at timestamptz NOT NULL)\");\n", "          + \" amount numeric(12,2) NOT NULL, created_at timestamptz NOT NULL)\");\n      st.execute(\"CREATE INDEX ON \" + TABLE + \" (name, created_at)\");\n")'
seed seed-index-on-inserts 'InsertBenchmark'

copy # work_mem lowered to 64 kB for the role the benchmarks connect as: the DTO's sort spills
edit $D/Library.java 's.replace("      \"CREATE INDEX book_author_id_idx ON book (author_id)\",\n", "      \"CREATE INDEX book_author_id_idx ON book (author_id)\",\n      \"ALTER ROLE CURRENT_USER SET work_mem = \x2764kB\x27\",\n")'
seed seed-sort-past-work-mem 'NPlusOneBenchmark'

copy # twice the allocations per book: each title copied through a scratch buffer
edit $D/NPlusOneQueries.java 's.replace("books.add(new BookSummary((Long) row[2], (String) row[3], (Integer) row[4]));", "String title = new String(java.util.Arrays.copyOf(((String) row[3]).toCharArray(), 256)).trim();\n        books.add(new BookSummary((Long) row[2], title, (Integer) row[4]));")'
seed seed-allocations 'NPlusOneBenchmark'

# unchanged code: the whole profile, built once from the copy at HEAD; the build beside the
# loaded runs, in the copy, must not rebuild what they run
copy
(cd "$scratch/repo" && ./mvnw -B -ntp -q -o package -pl jmh-benchmarks -am -DskipTests)
cp "$scratch/repo/jmh-benchmarks/target/benchmarks.jar" "$work/benchmarks.jar"
for i in $(seq 1 "$runs"); do
  if [ "$i" -gt $((runs - loaded)) ] && [ -z "$load_pid" ]; then
    setsid bash -c 'cd "$0" && while :; do ./mvnw -B -ntp -q -o -pl core clean compile > /dev/null 2>&1 || true; done' "$scratch/repo" &
    load_pid=$!
  fi
  run "unchanged-$i$([ -n "$load_pid" ] && echo -loaded || true)" "$work/benchmarks.jar"
done

python3 docs/results/work-gate-verify-page.py "$out" > docs/results/work-gate-verify.md
echo "docs/results/work-gate-verify.md"
