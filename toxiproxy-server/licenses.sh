#!/usr/bin/env bash
# Writes the licences that travel with the toxiproxy-server binary (src/main/resources/META-INF/
# LICENSE and NOTICE, in every platform's jar): Toxiproxy's (MIT) first, then those of every other
# Go module the binary links and of Go itself (its runtime and standard library are in every Go
# binary), from the Go module cache. Run it after go.mod changes and commit what it writes.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="$here/src/main/resources/META-INF"
cd "$here/../core/src/main/resources/io/github/latencylab/env/toxiproxy"
export GOFLAGS=-mod=readonly GOWORK=off
cache="$(go env GOMODCACHE)"
# the modules of the packages the binary is built from; Toxiproxy first
mapfile -t modules < <(go list -deps -f '{{with .Module}}{{if not .Main}}{{.Path}}@{{.Version}}{{end}}{{end}}' . \
  | sort -u | awk '/^github.com\/Shopify\/toxiproxy/ {print; next} {rest[++n]=$0} END {for (i=1;i<=n;i++) print rest[i]}')
escape() { sed -e 's/\([A-Z]\)/!\L\1/g' <<<"$1"; } # the module cache's case encoding
rule='=============================================================================='
{
  echo "toxiproxy-server, in this jar, is latency-lab's build of Toxiproxy's server (Apache"
  echo "License 2.0, as latency-lab) statically linked with the Go modules below and with Go's"
  echo "runtime and standard library. Their licences follow, Toxiproxy's first."
  for m in "${modules[@]}" "go@$(go env GOVERSION | sed 's/^go//')"; do
    if [[ $m == go@* ]]; then dir="$(go env GOROOT)"; else dir="$cache/$(escape "$m")"; fi
    file=$(ls "$dir" | grep -m1 -E '^(LICENSE|LICENCE|COPYING)(\.txt|\.md)?$')
    printf '\n%s\n%s\n%s\n\n' "$rule" "$m" "$rule"
    cat "$dir/$file"
  done
} > "$out/LICENSE"
{
  echo "NOTICE files of the Apache-licensed Go modules linked into toxiproxy-server:"
  for m in "${modules[@]}"; do
    dir="$cache/$(escape "$m")"
    if [[ -f $dir/NOTICE ]]; then printf '\n--- %s ---\n' "$m"; cat "$dir/NOTICE"; fi
  done
} > "$out/NOTICE"
