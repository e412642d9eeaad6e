#!/usr/bin/env bash
# Starts a local PostgreSQL server for the gateway's PostgreSQL tests and prints its connection URL.
# Installs Debian's postgresql package when the server is missing. Exits non-zero if it can't.
set -euo pipefail
DB=${PG_TEST_DB:-console_test}
PORT=${PG_TEST_PORT:-5432}

if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
  echo "[ci-postgres] installing postgresql with apt-get" >&2
  apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >&2
fi

cluster=$(pg_lsclusters --no-header 2>/dev/null | head -n 1 || true)
if [ -z "$cluster" ]; then
  ver=$(ls /usr/lib/postgresql | sort -n | tail -n 1)
  pg_createcluster "$ver" main --port "$PORT" >&2
  cluster=$(pg_lsclusters --no-header | head -n 1)
fi
ver=$(echo "$cluster" | awk '{print $1}')
name=$(echo "$cluster" | awk '{print $2}')
PORT=$(echo "$cluster" | awk '{print $3}')
if ! echo "$cluster" | grep -q online; then
  pg_ctlcluster "$ver" "$name" start >&2
fi
for _ in $(seq 1 30); do
  su postgres -c "pg_isready -q -p $PORT" && break
  sleep 1
done
su postgres -c "psql -q -p $PORT -c \"ALTER USER postgres PASSWORD 'postgres'\"" >&2
su postgres -c "psql -q -p $PORT -tAc \"SELECT 1 FROM pg_database WHERE datname='$DB'\"" | grep -q 1 \
  || su postgres -c "createdb -p $PORT $DB" >&2
echo "postgres://postgres:postgres@127.0.0.1:$PORT/$DB"
