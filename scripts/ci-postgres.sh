#!/usr/bin/env bash
# Starts a throwaway local PostgreSQL server for the test suite (sourced by .ci/run and
# scripts/with-postgres.sh). Debian's server refuses to run as root, so as root the cluster is
# initialized and run as `postgres`; as any other user, as that user.
# Exports STRAND_TEST_PG_URL (a superuser role `strand`) and STRAND_REQUIRE_PG=1, so the
# PostgreSQL suites fail rather than skip if the server is missing. The server stops on exit, and
# its folder is removed.
set -euo pipefail

if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq postgresql >/dev/null
fi
PG_BIN=$(dirname "$(ls -d /usr/lib/postgresql/*/bin/initdb | sort -V | tail -1)")
PG_PORT=${STRAND_CI_PG_PORT:-54329}
# A port something else already listens on (another server, a parallel run) is skipped.
while (exec 3<>"/dev/tcp/127.0.0.1/$PG_PORT") 2>/dev/null; do PG_PORT=$((PG_PORT + 1)); done
PG_DIR=$(mktemp -d /tmp/strand-ci-pg.XXXXXX)

as_pg_owner() {
  if [ "$(id -u)" = 0 ]; then su postgres -s /bin/sh -c "$1"; else sh -c "$1"; fi
}
[ "$(id -u)" = 0 ] && chown postgres:postgres "$PG_DIR"

as_pg_owner "'$PG_BIN/initdb' -D '$PG_DIR/data' -A trust -U postgres >'$PG_DIR/initdb.log' 2>&1"
as_pg_owner "'$PG_BIN/pg_ctl' -D '$PG_DIR/data' -l '$PG_DIR/server.log' -w start \
  -o '-p $PG_PORT -k $PG_DIR -c listen_addresses=127.0.0.1 -c max_connections=300'" >/dev/null
# Stopped and removed on exit: a throwaway cluster is 130–650 MB, and every run makes a new one.
trap "$(declare -f as_pg_owner); as_pg_owner \"'$PG_BIN/pg_ctl' -D '$PG_DIR/data' -m immediate stop\" >/dev/null 2>&1 || true; rm -rf '$PG_DIR'" EXIT
"$PG_BIN/psql" -h 127.0.0.1 -p "$PG_PORT" -U postgres -qc 'CREATE ROLE strand LOGIN SUPERUSER'

export STRAND_TEST_PG_URL="postgres://strand@127.0.0.1:$PG_PORT/postgres"
export STRAND_REQUIRE_PG=1
echo "PostgreSQL $("$PG_BIN/postgres" --version | awk '{print $3}') on port $PG_PORT"
