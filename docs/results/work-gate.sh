#!/usr/bin/env bash
# The work gate's campaign on the Spring Boot example (docs/examples/spring-boot): a baseline
# taken with -Dlatencylab.updateBaseline=true, RUNS runs of the unchanged example against it
# (the last LOADED of them beside a build of core, looping), then one run per seeded
# regression, each a copy of the example with one change. Every run's findings, by counter,
# go into docs/results/work-gate.md (each run's report.md beside it, in work-gate/; Maven's logs
# in target/work-gate-logs/). About 30 s a run on 2 cores, 60 s beside the build.
#
#   bash docs/results/work-gate.sh [RUNS] [LOADED]
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
runs=${1:-5}
loaded=${2:-2}
out=$root/docs/results/work-gate
logs=$root/target/work-gate-logs
scratch=$(mktemp -d)
load_pid=
cleanup() {
  if [ -n "$load_pid" ]; then kill "$load_pid" 2>/dev/null || true; fi
  rm -rf "$scratch"
}
trap cleanup EXIT
rm -rf "$out" "$logs"
mkdir -p "$out" "$logs"
./mvnw -B -ntp -q install -pl core,frameworks/spring -am -DskipTests

example() { # a fresh copy of the example, its baseline the campaign's
  rm -rf "$scratch/app"
  cp -r docs/examples/spring-boot/. "$scratch/app"
  rm -rf "$scratch/app/target"
  if [ -f "$scratch/baseline.json" ]; then
    cp "$scratch/baseline.json" "$scratch/app/src/test/latency-baseline.json"
  fi
}
run() { # NAME [maven args]: runs the copy's tests, keeps its report
  local name=$1
  shift
  local start=$SECONDS
  ./mvnw -B -ntp -f "$scratch/app/pom.xml" verify "$@" > "$logs/$name.log" 2>&1 || true
  cp "$scratch/app/target/latency-report/report.md" "$out/$name.md"
  echo "$name: $((SECONDS - start)) s, load $(cut -d' ' -f1-3 /proc/loadavg)" \
    | tee -a "$out/runs.txt"
}
edit() { # FILE PYTHON-EXPRESSION-ON-s: one change to the copy's sources
  python3 "$root/docs/results/seed-edit.py" "$scratch/app/$1" "$2"
}

example
run baseline -Dlatencylab.updateBaseline=true
cp "$scratch/app/src/test/latency-baseline.json" "$scratch/baseline.json"
cp "$scratch/baseline.json" "$out/baseline.json"

for i in $(seq 1 "$runs"); do
  example
  if [ "$i" -gt $((runs - loaded)) ] && [ -z "$load_pid" ]; then
    (while :; do ./mvnw -B -ntp -q -o -pl core clean compile > /dev/null 2>&1 || true; done) &
    load_pid=$!
  fi
  run "unchanged-$i$([ -n "$load_pid" ] && echo -loaded || true)"
done
if [ -n "$load_pid" ]; then
  kill "$load_pid" 2>/dev/null || true
  wait "$load_pid" 2>/dev/null || true
  load_pid=
fi

J=src/main/java/com/example/library
example # an index dropped: the ISBN lookups read the table whole
edit $J/Edition.java 's.replace("@Table(indexes = @Index(name = \"edition_isbn\", columnList = \"isbn\"))\n", "")'
run seed-index-dropped

example # a wide SELECT: the lookups fetch the whole entity, a 1 kB blurb each, for its title
edit $J/EditionRepository.java 's.replace("@Query(\"select e.title from Edition e where e.isbn = ?1\")\n  String titleOf", "@Query(\"select e from Edition e where e.isbn = ?1\")\n  Edition titleOf")'
edit $J/EditionService.java 's.replace("titles.add(editions.titleOf(isbn));", "titles.add(editions.titleOf(isbn).getTitle());")'
run seed-wide-select

example # an index added to an insert-heavy table: title and blurb, a kilobyte of letters an entry
edit $J/Edition.java 's.replace("@Table(indexes = @Index(name = \"edition_isbn\", columnList = \"isbn\"))", "@Table(indexes = {@Index(name = \"edition_isbn\", columnList = \"isbn\"),\n    @Index(name = \"edition_title_blurb\", columnList = \"title, blurb\")})")'
run seed-index-on-inserts

example # work_mem lowered for the application's connections: the report's sort spills
edit src/main/resources/application.properties 's + "spring.datasource.hikari.connection-init-sql=SET work_mem = \x2764kB\x27\n"'
run seed-sort-past-work-mem

example # twice the allocations per lookup: each title copied through a scratch buffer
edit $J/EditionService.java 's.replace("titles.add(editions.titleOf(isbn));", "String title = editions.titleOf(isbn);\n      titles.add(new String(java.util.Arrays.copyOf(title.toCharArray(), ALLOCATION_SEED)).trim());")'
edit $J/EditionService.java 's.replace("  private final EditionRepository editions;", "  private static final int ALLOCATION_SEED = 30_000;\n\n  private final EditionRepository editions;")'
run seed-allocations

python3 docs/results/work-gate-page.py "$out" > docs/results/work-gate.md
echo "docs/results/work-gate.md"
