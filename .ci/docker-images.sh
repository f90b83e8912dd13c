#!/usr/bin/env bash
# Builds (once) the two local Docker images the latency-lab tests use, on a
# Debian machine that reaches package registries but no container registry:
#
#   latency-lab/postgres:17       PostgreSQL 17 from a Debian release that
#                                 packages it, via debootstrap + docker import,
#                                 with an entrypoint that behaves like the
#                                 official image's (.ci/docker/postgres/)
#   latency-lab/toxiproxy:2.5.0   the static toxiproxy server binary, built
#                                 from the Go module proxy
#
# Steps: install missing apt packages (docker.io, debootstrap, ...), start
# dockerd if `docker info` does not answer, build each image only when
# `docker image inspect` does not find it. Idempotent; a second run with
# everything in place only checks and returns.
#
# Usage: .ci/docker-images.sh [--print-env]
#   Progress goes to stderr. stdout gets the image names, or with --print-env
#   only `export VAR=value` lines for eval/source:
#     eval "$(.ci/docker-images.sh --print-env)"
#
# Environment knobs (all optional):
#   LATENCYLAB_DEBIAN_MIRROR  Debian mirror for debootstrap (default: the
#                             machine's own, read from its apt sources)
#   LATENCYLAB_PG_SUITE       Debian suite that packages postgresql-17
#                             (default: trixie)
#   LATENCYLAB_DOCKERD_LOG    dockerd log file (default /tmp/latency-lab-dockerd.log)
set -euo pipefail

PG_IMAGE=latency-lab/postgres:17
PG_ROOTFS_IMAGE=latency-lab/postgres-rootfs:17
TOXI_IMAGE=latency-lab/toxiproxy:2.5.0
TOXI_VERSION=v2.5.0
TOXI_MODULE=github.com/Shopify/toxiproxy/v2
TOXI_CACHE="${XDG_CACHE_HOME:-$HOME/.cache}/latency-lab/toxiproxy/${TOXI_VERSION}/toxiproxy-server"
PG_SUITE=${LATENCYLAB_PG_SUITE:-trixie}
DOCKERD_LOG=${LATENCYLAB_DOCKERD_LOG:-/tmp/latency-lab-dockerd.log}
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
PG_CONTEXT="$HERE/docker/postgres"

log() { printf 'docker-images: %s\n' "$*" >&2; }
die() { printf 'docker-images: ERROR: %s\n' "$*" >&2; exit 1; }

print_env=false
for arg in "$@"; do
	case $arg in
		--print-env) print_env=true ;;
		-h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 0 ;;
		*) die "unknown argument: $arg (try --help)" ;;
	esac
done

[[ $(id -u) == 0 ]] || die "must run as root (apt-get, dockerd, debootstrap)"
# One run at a time (tests and CI may call this concurrently).
LOCK=/tmp/latency-lab-docker-images.lock
exec 9>"$LOCK"
if ! flock -n 9; then
	log "another run holds $LOCK; waiting for it (at most 20 min)"
	flock -w 1200 9 || die "timed out waiting for $LOCK"
fi
export DEBIAN_FRONTEND=noninteractive
# Debian's go lives outside PATH in some setups; the machine's own one first.
[[ -x /usr/local/go/bin/go ]] && PATH="$PATH:/usr/local/go/bin"

# Everything temporary lives below one directory, removed on exit. The
# debootstrap target may have proc/sys mounted if we are interrupted:
# unmount before deleting, and never delete across a mount point.
WORK=$(mktemp -d /var/tmp/latency-lab-images.XXXXXX)
POLICY_RC_TMP=""
cleanup() {
	local m
	if [[ -n $POLICY_RC_TMP ]]; then rm -f "$POLICY_RC_TMP"; fi
	if [[ -d $WORK ]]; then
		# /proc/mounts escapes spaces etc.; WORK has none.
		# shellcheck disable=SC2013
		for m in $(awk -v w="$WORK/" 'index($2, w) == 1 { print $2 }' /proc/mounts | sort -r); do
			umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null || :
		done
		if awk -v w="$WORK/" 'index($2, w) == 1 { found = 1 } END { exit !found }' /proc/mounts; then
			log "WARNING: something is still mounted below $WORK; not deleting it"
		else
			rm -rf --one-file-system "$WORK"
		fi
	fi
}
trap cleanup EXIT

# ---------------------------------------------------------------- apt ------
apt_updated=false
apt_install() {
	[[ $# -gt 0 ]] || return 0
	if ! $apt_updated; then
		log "apt-get update"
		apt-get update -qq >"$WORK/apt.log" 2>&1 || { tail -n 30 "$WORK/apt.log" >&2; die "apt-get update failed"; }
		apt_updated=true
	fi
	# Package maintainer scripts must not start services (we start dockerd
	# ourselves, with our log file); add a policy-rc.d only if none exists.
	if [[ ! -e /usr/sbin/policy-rc.d ]]; then
		POLICY_RC_TMP=/usr/sbin/policy-rc.d
		printf '#!/bin/sh\nexit 101\n' >"$POLICY_RC_TMP"
		chmod 755 "$POLICY_RC_TMP"
	fi
	log "apt-get install $*"
	if ! apt-get install -y -q --no-install-recommends "$@" >>"$WORK/apt.log" 2>&1; then
		tail -n 30 "$WORK/apt.log" >&2
		die "apt-get install failed"
	fi
	if [[ -n $POLICY_RC_TMP ]]; then rm -f "$POLICY_RC_TMP"; POLICY_RC_TMP=""; fi
}

have() { command -v "$1" >/dev/null 2>&1; }

ensure_packages() {
	local -a want=()
	have dockerd || want+=(docker.io)
	have docker || want+=(docker.io)
	have debootstrap || want+=(debootstrap)
	have go || want+=(golang-go)
	have setsid || want+=(util-linux)
	have curl || want+=(curl)
	# debootstrap verifies the Release file of the target suite with this
	[[ -s /usr/share/keyrings/debian-archive-keyring.gpg ]] || want+=(debian-archive-keyring)
	if [[ ${#want[@]} -gt 0 ]]; then
		# shellcheck disable=SC2207
		want=($(printf '%s\n' "${want[@]}" | sort -u))
		apt_install "${want[@]}"
	else
		log "packages: all present"
	fi
}

# ------------------------------------------------------------- dockerd -----
docker_up() { timeout 10 docker info >/dev/null 2>&1; }

ensure_dockerd() {
	if docker_up; then
		log "dockerd: already answering"
		return
	fi
	if pgrep -x dockerd >/dev/null 2>&1; then
		log "dockerd: a dockerd process exists but does not answer yet; waiting for it"
	else
		log "dockerd: starting in the background (log: $DOCKERD_LOG)"
		# Detached from this script's session so it outlives it; without fd 9
		# (our lock), or the daemon would hold the lock forever.
		setsid nohup dockerd >>"$DOCKERD_LOG" 2>&1 </dev/null 9>&- &
	fi
	local i
	for ((i = 0; i < 60; i++)); do
		if docker_up; then
			log "dockerd: up after ${i}s"
			return
		fi
		sleep 1
	done
	tail -n 30 "$DOCKERD_LOG" >&2 2>/dev/null || :
	die "dockerd did not answer within 60 s (see $DOCKERD_LOG)"
}

have_image() { docker image inspect "$1" >/dev/null 2>&1; }

# ------------------------------------------------------- Debian mirror -----
# The main Debian archive URI of this machine's own apt sources: the first
# enabled `deb` entry (one-line *.list or deb822 *.sources) whose suites
# include this machine's codename.
debian_mirror() {
	if [[ -n ${LATENCYLAB_DEBIAN_MIRROR:-} ]]; then
		printf '%s\n' "${LATENCYLAB_DEBIAN_MIRROR%/}"
		return
	fi
	local codename f uri=""
	codename=$(. /etc/os-release && printf '%s' "${VERSION_CODENAME:-}")
	[[ -n $codename ]] || die "no VERSION_CODENAME in /etc/os-release; set LATENCYLAB_DEBIAN_MIRROR"
	shopt -s nullglob
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
		[[ -r $f ]] || continue
		uri=$(awk -v cn="$codename" '
			$1 == "deb" {
				i = 2
				if ($i ~ /^\[/) { while (i <= NF && $i !~ /\]$/) i++; i++ }
				if ($(i + 1) == cn) { print $i; exit }
			}' "$f")
		[[ -z $uri ]] || break
	done
	if [[ -z $uri ]]; then
		for f in /etc/apt/sources.list.d/*.sources; do
			[[ -r $f ]] || continue
			uri=$(awk -v cn="$codename" '
				BEGIN { RS = ""; FS = "\n" }
				{
					types = ""; uris = ""; suites = ""; enabled = "yes"
					for (i = 1; i <= NF; i++) {
						line = $i
						if (line ~ /^#/ || line ~ /^[ \t]/) continue
						k = tolower(line); sub(/:.*/, "", k)
						v = line; sub(/^[^:]*:[ \t]*/, "", v)
						if (k == "types") types = v
						else if (k == "uris") uris = v
						else if (k == "suites") suites = v
						else if (k == "enabled") enabled = tolower(v)
					}
					if (enabled == "no" || (" " types " ") !~ /[ \t]deb[ \t]/) next
					n = split(suites, s, /[ \t]+/)
					for (j = 1; j <= n; j++) if (s[j] == cn) { split(uris, u, /[ \t]+/); print u[1]; exit }
				}' "$f")
			[[ -z $uri ]] || break
		done
	fi
	shopt -u nullglob
	[[ -n $uri ]] || die "no Debian archive for '$codename' found in the apt sources; set LATENCYLAB_DEBIAN_MIRROR"
	printf '%s\n' "${uri%/}"
}

# ------------------------------------------------------------ postgres -----
build_postgres() {
	local mirror rootfs t0=$SECONDS
	mirror=$(debian_mirror)
	rootfs="$WORK/pg-rootfs"
	log "postgres: debootstrap $PG_SUITE (minbase + postgresql-17) from the machine's apt mirror $mirror"
	# postgresql-17 pulls postgresql-common, whose postinst creates the
	# 17/main cluster; it is removed below. The server itself is started by
	# our entrypoint, never by pg_ctlcluster.
	if ! debootstrap --variant=minbase --include=postgresql-17 \
		"$PG_SUITE" "$rootfs" "$mirror" >"$WORK/debootstrap.log" 2>&1; then
		tail -n 40 "$WORK/debootstrap.log" >&2
		[[ -f $rootfs/debootstrap/debootstrap.log ]] && tail -n 40 "$rootfs/debootstrap/debootstrap.log" >&2
		die "debootstrap failed"
	fi
	log "postgres: debootstrap done in $((SECONDS - t0))s; trimming the rootfs"

	[[ -x $rootfs/usr/lib/postgresql/17/bin/postgres ]] || die "no /usr/lib/postgresql/17/bin/postgres in the rootfs"
	if awk -v r="$rootfs/" 'index($2, r) == 1 { found = 1 } END { exit !found }' /proc/mounts; then
		die "debootstrap left file systems mounted below $rootfs"
	fi
	# The packaged cluster (config, data, logs): the entrypoint initdb's its own.
	rm -rf "$rootfs"/etc/postgresql/17 "$rootfs"/var/lib/postgresql/17 \
		"$rootfs"/var/log/postgresql/*
	# Like the official image: listen on all interfaces by default (the
	# entrypoint's temporary init server overrides this with '').
	sed -ri "s/^#?(listen_addresses)\s*=\s*\S+.*/\1 = '*'/" \
		"$rootfs"/usr/share/postgresql/17/postgresql.conf.sample
	grep -q "^listen_addresses = '\*'" "$rootfs"/usr/share/postgresql/17/postgresql.conf.sample \
		|| die "could not set listen_addresses in postgresql.conf.sample"
	# Size: apt state and caches, docs, man pages, translations, locale
	# sources (only locale-gen reads them; the image uses C.UTF-8, built in).
	rm -rf "$rootfs"/var/cache/apt/* "$rootfs"/var/lib/apt/lists/* \
		"$rootfs"/var/cache/debconf/*-old "$rootfs"/var/log/*.log "$rootfs"/var/log/apt/* \
		"$rootfs"/usr/share/doc/* "$rootfs"/usr/share/man/* "$rootfs"/usr/share/info/* \
		"$rootfs"/usr/share/locale/* "$rootfs"/usr/share/lintian "$rootfs"/usr/share/linda \
		"$rootfs"/usr/share/i18n/locales "$rootfs"/usr/share/i18n/charmaps \
		"$rootfs"/debootstrap "$rootfs"/tmp/* "$rootfs"/var/tmp/*
	# Device nodes come from docker at run time.
	find "$rootfs/dev" -mindepth 1 -delete

	install -m 0755 "$PG_CONTEXT/docker-entrypoint.sh" "$rootfs/usr/local/bin/docker-entrypoint.sh"
	chroot "$rootfs" /bin/sh -ec '
		mkdir -p /var/lib/postgresql/data /var/run/postgresql /docker-entrypoint-initdb.d
		chown postgres:postgres /var/lib/postgresql /var/lib/postgresql/data /var/run/postgresql
		chmod 0700 /var/lib/postgresql/data
		chmod 3775 /var/run/postgresql
	'
	local u
	for u in setpriv runuser su; do
		if chroot "$rootfs" /bin/sh -c "command -v $u" >/dev/null 2>&1; then
			log "postgres: entrypoint will drop root with $u"
			break
		fi
	done
	log "postgres: rootfs is $(du -sh --one-file-system "$rootfs" | cut -f1); importing"

	tar --numeric-owner --xattrs --one-file-system -C "$rootfs" -c . \
		| docker import \
			--change 'ENV PATH=/usr/lib/postgresql/17/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
			--change 'ENV PG_MAJOR=17' \
			--change 'ENV PGDATA=/var/lib/postgresql/data' \
			--change 'ENV LANG=C.UTF-8' \
			--change 'ENTRYPOINT ["/usr/local/bin/docker-entrypoint.sh"]' \
			--change 'CMD ["postgres"]' \
			--change 'EXPOSE 5432' \
			--change 'WORKDIR /' \
			--message "latency-lab: debootstrap $PG_SUITE minbase + postgresql-17" \
			- "$PG_ROOTFS_IMAGE" >/dev/null
	log "postgres: adding STOPSIGNAL SIGINT ($PG_CONTEXT/Dockerfile)"
	# Legacy builder: no buildx/BuildKit needed, FROM resolves to the local image.
	if ! DOCKER_BUILDKIT=0 docker build --build-arg "BASE_IMAGE=$PG_ROOTFS_IMAGE" \
		-t "$PG_IMAGE" "$PG_CONTEXT" >"$WORK/build.log" 2>&1; then
		cat "$WORK/build.log" >&2
		die "docker build of $PG_IMAGE failed"
	fi
	# Drop the helper tag; its layer stays as the parent of $PG_IMAGE.
	docker rmi "$PG_ROOTFS_IMAGE" >/dev/null
	log "postgres: built $PG_IMAGE in $((SECONDS - t0))s ($(docker image inspect -f '{{.Size}}' "$PG_IMAGE" | awk '{ printf "%.0f MB", $1 / 1e6 }'))"
}

# ----------------------------------------------------------- toxiproxy -----
is_static_elf() {
	[[ -s $1 && -x $1 ]] || return 1
	# A dynamically linked ELF names its loader in a PT_INTERP segment; a
	# static Go binary has none (and `go version -m` says CGO_ENABLED=0).
	# (Output captured first: `cmd | grep -q` can fail under pipefail.)
	local out
	if have readelf; then
		out=$(readelf -lW "$1" 2>/dev/null) || return 1
		[[ $out != *'program interpreter'* ]]
	else
		out=$(go version -m "$1" 2>/dev/null) || return 1
		[[ $out == *CGO_ENABLED=0* ]]
	fi
}

toxiproxy_binary() {
	if is_static_elf "$TOXI_CACHE"; then
		log "toxiproxy: reusing cached static binary $TOXI_CACHE"
		return
	fi
	local gobin="$WORK/gobin" t0=$SECONDS
	mkdir -p "$gobin"
	log "toxiproxy: go install $TOXI_MODULE/cmd/server@$TOXI_VERSION (CGO_ENABLED=0)"
	CGO_ENABLED=0 GOBIN="$gobin" GOFLAGS=-mod=mod go install -trimpath \
		-ldflags "-s -w -X $TOXI_MODULE.Version=${TOXI_VERSION#v}" \
		"$TOXI_MODULE/cmd/server@$TOXI_VERSION" >&2
	is_static_elf "$gobin/server" || die "go install did not produce a static binary"
	mkdir -p "$(dirname "$TOXI_CACHE")"
	# Atomic: the Java side may read or write the same path.
	cp "$gobin/server" "$TOXI_CACHE.tmp.$$"
	mv -f "$TOXI_CACHE.tmp.$$" "$TOXI_CACHE"
	log "toxiproxy: built in $((SECONDS - t0))s, cached at $TOXI_CACHE"
}

build_toxiproxy() {
	toxiproxy_binary
	local dir="$WORK/toxi-rootfs"
	mkdir -p "$dir"
	install -m 0755 "$TOXI_CACHE" "$dir/toxiproxy"
	tar --numeric-owner --owner=0 --group=0 -C "$dir" -c toxiproxy \
		| docker import \
			--change 'ENTRYPOINT ["/toxiproxy"]' \
			--change 'CMD ["-host=0.0.0.0"]' \
			--change 'EXPOSE 8474' \
			--message "latency-lab: toxiproxy-server $TOXI_VERSION (static)" \
			- "$TOXI_IMAGE" >/dev/null
	log "toxiproxy: built $TOXI_IMAGE"
}

# ---------------------------------------------------------------- main -----
t_start=$SECONDS
ensure_packages
ensure_dockerd

if have_image "$PG_IMAGE"; then
	log "postgres: $PG_IMAGE exists, reusing it"
else
	build_postgres
fi
if have_image "$TOXI_IMAGE"; then
	log "toxiproxy: $TOXI_IMAGE exists, reusing it"
else
	build_toxiproxy
fi

log "ready in $((SECONDS - t_start))s: $PG_IMAGE $TOXI_IMAGE"
if $print_env; then
	cat <<EOF
export TESTCONTAINERS_RYUK_DISABLED=true
export TESTCONTAINERS_HOST_OVERRIDE=localhost
export LATENCYLAB_POSTGRES_IMAGE=$PG_IMAGE
export LATENCYLAB_TOXIPROXY_IMAGE=$TOXI_IMAGE
EOF
else
	printf '%s\n' "$PG_IMAGE" "$TOXI_IMAGE"
	log "for Testcontainers: eval \"\$($0 --print-env)\""
fi
