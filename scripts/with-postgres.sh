#!/usr/bin/env bash
# Runs a command with STRAND_TEST_PG_URL pointing at a PostgreSQL server: the one already set, or a
# throwaway local server started for the command (scripts/ci-postgres.sh; needs root or the
# `postgres` account, as on Debian) and stopped after it.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${STRAND_TEST_PG_URL:-}" ]; then
  source scripts/ci-postgres.sh
fi
"$@"
