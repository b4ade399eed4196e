#!/bin/sh
# First start: make the cluster in the (empty) volume, with password authentication
# over the network (trust only on the socket inside the container) and the application's
# role and database; then run PostgreSQL.
# POSTGRES_PASSWORD has no default: the stack refuses to start without one.
set -eu
: "${POSTGRES_PASSWORD:?set POSTGRES_PASSWORD}"
: "${POSTGRES_USER:=hotpath}"
: "${POSTGRES_DB:=hotpath}"

if [ ! -s "$PGDATA/PG_VERSION" ]; then
  password_file="$(mktemp)"
  printf '%s\n' "$POSTGRES_PASSWORD" >"$password_file"
  initdb --pgdata="$PGDATA" --username="$POSTGRES_USER" --pwfile="$password_file" \
    --auth-local=trust --auth-host=scram-sha-256 --encoding=UTF8 --locale=C.UTF-8 >/dev/null
  rm -f "$password_file"
  echo "host all all 0.0.0.0/0 scram-sha-256" >>"$PGDATA/pg_hba.conf"
  echo "host all all ::/0 scram-sha-256" >>"$PGDATA/pg_hba.conf"
  pg_ctl --pgdata="$PGDATA" --options="-c listen_addresses=''" --wait start >/dev/null
  createdb --username="$POSTGRES_USER" "$POSTGRES_DB"
  pg_ctl --pgdata="$PGDATA" --mode=fast --wait stop >/dev/null
fi
exec postgres -D "$PGDATA" -c listen_addresses='*'
