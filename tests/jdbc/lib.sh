#!/usr/bin/env bash
# lib.sh — helpers for the jdbc connector tests (sourced, not run).
#
# pg_start: a throw-away PostgreSQL server (Debian's postgresql package, installed by
# scripts/install-deps.sh) with its data directory and unix socket directory in a private folder
# under /tmp, listening on 127.0.0.1 on a free port chosen now; a database "weir" and a password
# user "weir"/"weir-pw" are created. PostgreSQL refuses to run as root, so as root the server runs
# as the "postgres" user in a folder it owns. The cleanup (every exit) stops the server
# (pg_ctl stop -m immediate, then kill) and removes the folder.
# psql_q SQL: run SQL in the database, unaligned output without headers.
# weir_sql FILE: run a script with the embedded client, stdout+stderr to stdout.
# Exit status of a test: 0 pass, 1 fail, 77 skipped (PostgreSQL not installed).
#   PGPORT PGHOST  (exported by pg_start; PGHOST is 127.0.0.1)
#   JDBC_URL      jdbc:postgresql://127.0.0.1:PORT/weir
#   WEIR          the weir binary (default: $BUILD/weir, else build/weir)

ROOT="${ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}"
WEIR="${WEIR:-${BUILD:+$BUILD/weir}}"
WEIR="${WEIR:-$ROOT/build/weir}"
FAILS=0
PGD=""
PG_AS=()

fail() { echo "FAIL $TEST_NAME: $*"; FAILS=$((FAILS + 1)); }
skip() { echo "SKIP $TEST_NAME: $*"; exit 77; }

pg_bin() {
  local b
  for b in /usr/lib/postgresql/*/bin; do [[ -x "$b/initdb" ]] && { echo "$b"; return 0; }; done
  return 1
}

pg_cleanup() {
  local rc=$?
  trap - EXIT INT TERM
  if [[ -n "$PGD" && -f "$PGD/data/postmaster.pid" ]]; then
    local pid
    pid="$(head -n 1 "$PGD/data/postmaster.pid" 2>/dev/null)"
    "${PG_AS[@]}" "$PGBIN/pg_ctl" -D "$PGD/data" -m immediate -w -t 10 stop > /dev/null 2>&1
    if [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null; then kill -KILL "$pid" 2>/dev/null; fi
  fi
  [[ -n "$PGD" && -d "$PGD" ]] && rm -rf "$PGD"
  if [[ $rc -eq 0 && $FAILS -gt 0 ]]; then rc=1; fi
  exit $rc
}

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'
}

pg_start() {
  PGBIN="$(pg_bin)" || skip "PostgreSQL server is not installed (scripts/install-deps.sh)"
  command -v psql > /dev/null 2>&1 || skip "psql is not installed"
  PGD="$(mktemp -d /tmp/jdbc-pg-XXXXXX)"
  trap pg_cleanup EXIT INT TERM
  chmod 755 "$PGD"
  if [[ $(id -u) -eq 0 ]]; then
    chown postgres "$PGD"
    PG_AS=(runuser -u postgres --)
  fi
  printf 'weir-pw\n' > "$PGD/pw" && chmod 644 "$PGD/pw"
  "${PG_AS[@]}" "$PGBIN/initdb" -D "$PGD/data" -U postgres -A trust --no-sync -E UTF8 --locale=C \
    > "$PGD/initdb.log" 2>&1 || { fail "initdb failed: $(tail -n 5 "$PGD/initdb.log")"; exit 1; }
  local try
  for try in 1 2 3; do
    PGPORT="$(free_port)"
    if "${PG_AS[@]}" "$PGBIN/pg_ctl" -D "$PGD/data" -l "$PGD/server.log" -w -t 30 \
         -o "-h 127.0.0.1 -p $PGPORT -k $PGD -c fsync=off -c full_page_writes=off" start > /dev/null 2>&1; then
      break
    fi
    [[ $try -eq 3 ]] && { fail "postgres did not start: $(tail -n 5 "$PGD/server.log")"; exit 1; }
  done
  export PGHOST=127.0.0.1 PGPORT PGUSER=postgres PGDATABASE=postgres
  psql -q -v ON_ERROR_STOP=1 -c "CREATE USER weir PASSWORD 'weir-pw' SUPERUSER" -c "CREATE DATABASE weir OWNER weir" \
    > /dev/null || { fail "could not create the database"; exit 1; }
  export PGDATABASE=weir
  JDBC_URL="jdbc:postgresql://127.0.0.1:$PGPORT/weir"
}

psql_q() { psql -X -q -A -t -v ON_ERROR_STOP=1 -c "$1"; }

# weir_sql FILE: the embedded client on a script (the test's own files live in $PGD).
weir_sql() { WEIR_EMBEDDED=1 timeout "${WEIR_TIMEOUT:-60}" "$WEIR" sql-client -f "$1" 2>&1; }
