#!/usr/bin/env bash
# Runs a command against a fresh database on a local PostgreSQL server (started if needed):
#   scripts/with-postgres.sh <database-name> <command…>
# DATABASE_URL is set for the command. Debian's initdb refuses root, so the cluster is driven
# with pg_ctlcluster and roles are made as the postgres user.
set -euo pipefail
db="$1"
shift

version=$(ls /usr/lib/postgresql | sort -V | tail -n 1)
if ! pg_lsclusters -h | awk -v v="$version" '$1 == v && $2 == "main"' | grep -q .; then
  pg_createcluster "$version" main >/dev/null
fi
pg_lsclusters -h | awk -v v="$version" '$1 == v && $2 == "main" {print $4}' | grep -q online || pg_ctlcluster "$version" main start
port=$(pg_lsclusters -h | awk -v v="$version" '$1 == v && $2 == "main" {print $3}')

as_postgres() { su postgres -c "$1" 2>/dev/null || sudo -u postgres sh -c "$1"; }
as_postgres "psql -p $port -qtAc \"select 1 from pg_roles where rolname = 'remarket'\"" | grep -q 1 ||
  as_postgres "psql -p $port -qc \"create role remarket login password 'remarket' superuser\""
as_postgres "dropdb -p $port --if-exists --force $db"
as_postgres "createdb -p $port -O remarket $db"

export DATABASE_URL="postgres://remarket:remarket@localhost:$port/$db"
echo "Running against PostgreSQL $version ($db): $*"
"$@"
