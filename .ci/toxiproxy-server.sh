#!/usr/bin/env bash
# Builds latency-lab's Toxiproxy server (upstream Toxiproxy + the latency_us and tcp_window
# toxics) from the Go module in core's resources into the cache, exactly where and how the Lab
# builds it where no latency-lab-toxiproxy-PLATFORM artifact fits
# (io.github.latencylab.env.ToxiproxyServer, GoModule): a directory named for Toxiproxy's
# version and the first 12 hex digits of the SHA-256 of SOURCES followed by each file it lists;
# a static go build; moved into place. Does nothing when the binary is there. Prints its path.
# The Lab installs the artifact's binary there itself (CI no longer pre-builds); this is for a
# Toxiproxy of your own (the external backend) or a machine no artifact fits.
#
# Usage: .ci/toxiproxy-server.sh [--print-path]
#   --print-path  only print where the binary goes (no build)
# Honours LATENCYLAB_CACHE and XDG_CACHE_HOME like the Lab.
set -euo pipefail

SRC="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/core/src/main/resources/io/github/latencylab/env/toxiproxy"
[[ -x /usr/local/go/bin/go ]] && PATH="$PATH:/usr/local/go/bin"

cd "$SRC"
mapfile -t files < <(grep -v '^[[:space:]]*$' SOURCES)
version=$(sed -n 's|^[[:space:]]*github.com/Shopify/toxiproxy/v2 \(v[^[:space:]]*\).*|\1|p' go.mod | head -n 1)
[[ -n $version ]] || { echo "toxiproxy-server.sh: no Toxiproxy version in $SRC/go.mod" >&2; exit 1; }
hash=$(cat SOURCES "${files[@]}" | sha256sum | cut -c1-12)
cache="${LATENCYLAB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/latency-lab}"
target="$cache/toxiproxy/$version-latency_us-$hash/toxiproxy-server"

if [[ ${1:-} == --print-path ]]; then
  printf '%s\n' "$target"
  exit 0
fi
if [[ -x $target ]]; then
  printf '%s\n' "$target"
  exit 0
fi

mkdir -p "$(dirname "$target")"
work=$(mktemp -d "$(dirname "$target")/build-XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir "$work/src"
cp "${files[@]}" "$work/src/"
echo "toxiproxy-server.sh: go build of $version + latency_us into $(dirname "$target")" >&2
(cd "$work/src" && CGO_ENABLED=0 GOFLAGS=-mod=readonly GOWORK=off \
  go build -trimpath -buildvcs=false "-ldflags=-s -w" -o "$work/toxiproxy-server" .) >&2
mv -f "$work/toxiproxy-server" "$target"
printf '%s\n' "$target"
