#!/usr/bin/env bash
# Entrypoint of latency-lab/postgres:17 (built by .ci/docker-images.sh).
#
# Mimics the parts of the official `postgres` image's entrypoint that
# Testcontainers' PostgreSQLContainer relies on:
#   * POSTGRES_USER (default postgres), POSTGRES_PASSWORD (required unless
#     POSTGRES_HOST_AUTH_METHOD=trust), POSTGRES_DB (default: the user's name),
#     POSTGRES_INITDB_ARGS, POSTGRES_HOST_AUTH_METHOD, and *_FILE variants;
#   * initdb into an empty $PGDATA, `host all all all <auth>` in pg_hba.conf
#     (scram-sha-256 unless configured otherwise), listen_addresses='*';
#   * a temporary socket-only server for the setup (its "database system is
#     ready to accept connections" line is the first of the two the log wait
#     strategy counts), then the real server as PID 1;
#   * a first argument starting with '-' means "postgres <args>", and
#     `postgres <args>` passes <args> to both servers (e.g. -c fsync=off);
#   * the server never runs as root: we re-exec ourselves as `postgres`.
# Anything else (e.g. `bash`, `psql ...`) is executed unchanged.
set -Eeo pipefail

log() { printf 'docker-entrypoint: %s\n' "$*"; }
die() { printf 'docker-entrypoint: error: %s\n' "$*" >&2; exit 1; }

# VAR or VAR_FILE (docker secrets style), with an optional default.
read_env() {
	local name=$1 default=${2:-} file_name="${1}_FILE"
	local value=${!name:-} file=${!file_name:-}
	if [[ -n $value && -n $file ]]; then
		die "both $name and $file_name are set, use only one"
	fi
	if [[ -n $file ]]; then
		value=$(<"$file")
	fi
	export "$name=${value:-$default}"
	unset "$file_name"
}

wants_help() {
	local a
	for a in "$@"; do
		case $a in
			'-?'|--help|--describe-config|-V|--version) return 0 ;;
		esac
	done
	return 1
}

prepare_dirs() {
	mkdir -p "$PGDATA" /var/run/postgresql
	chmod 0700 "$PGDATA" 2>/dev/null || :
	chmod 3775 /var/run/postgresql 2>/dev/null || :
	if [[ $(id -u) == 0 ]]; then
		find "$PGDATA" /var/run/postgresql ! -user postgres -exec chown postgres: {} +
	fi
}

# Re-run this script as the postgres user (PID stays the same: exec).
drop_root() {
	export HOME=/var/lib/postgresql USER=postgres LOGNAME=postgres
	if command -v setpriv >/dev/null 2>&1; then
		exec setpriv --reuid=postgres --regid=postgres --init-groups -- "$0" "$@"
	elif command -v runuser >/dev/null 2>&1; then
		exec runuser -u postgres -- "$0" "$@"
	else
		# shellcheck disable=SC2016 # expanded by the inner bash
		exec su -s /bin/bash postgres -c 'exec "$0" "$@"' -- "$0" "$@"
	fi
}

check_env_for_init() {
	if [[ -z $POSTGRES_PASSWORD && $POSTGRES_HOST_AUTH_METHOD != trust ]]; then
		die 'database is uninitialized and POSTGRES_PASSWORD is empty; set POSTGRES_PASSWORD (or POSTGRES_HOST_AUTH_METHOD=trust)'
	fi
	if [[ $POSTGRES_HOST_AUTH_METHOD == trust ]]; then
		log 'WARNING: POSTGRES_HOST_AUTH_METHOD=trust: every host connection is accepted without a password'
	fi
}

run_initdb() {
	local pwfile
	pwfile=$(mktemp)
	# initdb rejects an empty password file, hence the newline.
	printf '%s\n' "$POSTGRES_PASSWORD" >"$pwfile"
	# POSTGRES_INITDB_ARGS is a shell-quoted string, like in the official image.
	eval 'initdb --username="$POSTGRES_USER" --pwfile="$pwfile" '"${POSTGRES_INITDB_ARGS:-}"
	rm -f "$pwfile"
}

setup_hba() {
	local method=$POSTGRES_HOST_AUTH_METHOD
	if [[ -z $method ]]; then
		# Follow password_encryption (scram-sha-256 by default), honouring -c overrides.
		method=$(postgres -C password_encryption "$@")
	fi
	printf '\nhost all all all %s\n' "$method" >>"$PGDATA/pg_hba.conf"
}

temp_server_start() {
	local opts
	# Socket only: nobody can connect over TCP before the setup is done.
	opts=$(printf '%q ' "$@" -c "listen_addresses=" -p "${PGPORT:-5432}")
	NOTIFY_SOCKET='' PGUSER="${PGUSER:-$POSTGRES_USER}" pg_ctl -D "$PGDATA" -o "$opts" -w start
}

temp_server_stop() {
	PGUSER="${PGUSER:-$POSTGRES_USER}" pg_ctl -D "$PGDATA" -m fast -w stop
}

sql() {
	PGHOST='' PGHOSTADDR='' psql -v ON_ERROR_STOP=1 --no-psqlrc --no-password \
		--username "$POSTGRES_USER" "$@"
}

create_db() {
	local exists
	exists=$(sql --dbname postgres --tuples-only --no-align --set db="$POSTGRES_DB" \
		<<<"SELECT 1 FROM pg_database WHERE datname = :'db';")
	if [[ -z $exists ]]; then
		sql --dbname postgres --set db="$POSTGRES_DB" <<<'CREATE DATABASE :"db";'
	fi
}

run_init_scripts() {
	local f
	for f in /docker-entrypoint-initdb.d/*; do
		[[ -e $f ]] || continue
		case $f in
			*.sh)
				# shellcheck disable=SC1090
				if [[ -x $f ]]; then log "running $f"; "$f"
				else log "sourcing $f"; . "$f"; fi ;;
			*.sql) log "running $f"; sql --dbname "$POSTGRES_DB" -f "$f" ;;
			*.sql.gz) log "running $f"; gunzip -c "$f" | sql --dbname "$POSTGRES_DB" ;;
			*) log "ignoring $f" ;;
		esac
	done
}

main() {
	if [[ ${1:0:1} == - ]]; then
		set -- postgres "$@"
	fi
	if [[ $1 != postgres ]] || wants_help "$@"; then
		exec "$@"
	fi

	read_env POSTGRES_PASSWORD
	read_env POSTGRES_USER postgres
	read_env POSTGRES_DB "$POSTGRES_USER"
	read_env POSTGRES_INITDB_ARGS
	: "${POSTGRES_HOST_AUTH_METHOD:=}"
	: "${PGDATA:=/var/lib/postgresql/data}"
	export PGDATA

	prepare_dirs
	if [[ $(id -u) == 0 ]]; then
		drop_root "$@"
	fi

	if [[ -s $PGDATA/PG_VERSION ]]; then
		log 'PGDATA already contains a database; skipping initialization'
	else
		check_env_for_init
		run_initdb
		setup_hba "${@:2}"
		export PGPASSWORD="${PGPASSWORD:-$POSTGRES_PASSWORD}"
		temp_server_start "${@:2}"
		create_db
		run_init_scripts
		temp_server_stop
		unset PGPASSWORD
		log 'PostgreSQL init process complete; ready for start up.'
	fi

	exec "$@"
}

main "$@"
