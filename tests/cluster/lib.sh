#!/usr/bin/env bash
# lib.sh — shared helpers for the cluster tests (sourced, not run).
#
# A test sources this file after setting TEST_NAME, then calls cluster_setup (a private conf and
# log folder under a fresh temporary folder; rest.port 0 = a free port on 127.0.0.1), cluster_start,
# and the helpers below. Cleanup runs on every exit, also on failure, Ctrl-C or a timeout's
# SIGTERM: it stops the daemon this test started (by its own pid file, then SIGKILL by that pid if
# needed), fails the test when the daemon's log shows a sanitizer report, and removes the folder.
# Exit status of a test: 0 pass, 1 fail, 77 skipped.
#   WEIR       the weir binary (default: $BUILD/weir, else build/weir)
#   KEEP_TMP=1 keep the temporary folder (its path is printed)

ROOT="${ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}"
WEIR="${WEIR:-${BUILD:+$BUILD/weir}}"
WEIR="${WEIR:-$ROOT/build/weir}"
FAILS=0
TMPD=""
PORT=""
BASE=""

fail() { echo "FAIL $TEST_NAME: $*"; FAILS=$((FAILS + 1)); }
pass() { [[ -n "${VERBOSE:-}" ]] && echo "ok   $TEST_NAME: $*"; return 0; }
check() { # check "description" <command...>: passes when the command succeeds
  local what="$1"; shift
  if "$@"; then pass "$what"; else fail "$what"; fi
}
skip() { echo "SKIP $TEST_NAME: $*"; exit 77; }

need_tools() {
  local t
  for t in "$@"; do command -v "$t" >/dev/null 2>&1 || skip "$t is not installed (tests/cluster/setup.sh installs it)"; done
}

cluster_cleanup() {
  local rc=$?
  trap - EXIT INT TERM
  if [[ -n "$TMPD" && -d "$TMPD" ]]; then
    if [[ -f "$TMPD/proxy.pids" ]]; then
      local ppid
      while read -r ppid; do kill "$ppid" 2>/dev/null; done < "$TMPD/proxy.pids"
    fi
    if [[ -f "$TMPD/log/weir-cluster.pid" ]]; then
      local pid
      pid="$(cat "$TMPD/log/weir-cluster.pid" 2>/dev/null)"
      WEIR_CONF_DIR="$TMPD/conf" WEIR_LOG_DIR="$TMPD/log" timeout 40 "$WEIR" cluster stop >/dev/null 2>&1
      if [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null; then kill -KILL "$pid" 2>/dev/null; fi
    fi
    if [[ -f "$TMPD/log/weir-cluster.log" ]] &&
       grep -qE "ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:|WARNING: ThreadSanitizer" "$TMPD/log/weir-cluster.log"; then
      echo "FAIL $TEST_NAME: the daemon's log shows a sanitizer report:"
      grep -A 30 -E "ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:|WARNING: ThreadSanitizer" "$TMPD/log/weir-cluster.log" | head -80
      FAILS=$((FAILS + 1))
    fi
    if [[ -n "${KEEP_TMP:-}" ]]; then echo "kept $TMPD"; else rm -rf "$TMPD"; fi
  fi
  if [[ $rc -eq 77 ]]; then exit 77; fi
  if [[ $FAILS -gt 0 || $rc -ne 0 ]]; then exit 1; fi
  exit 0
}

# cluster_setup [extra yaml lines...]
cluster_setup() {
  [[ -x "$WEIR" ]] || { echo "FAIL $TEST_NAME: $WEIR not found"; exit 1; }
  TMPD="$(mktemp -d "${TMPDIR:-/tmp}/weir-cluster-test.XXXXXX")"
  trap cluster_cleanup EXIT
  trap 'exit 1' INT TERM
  mkdir -p "$TMPD/conf" "$TMPD/log" "$TMPD/work"
  {
    echo "rest:"
    echo "  address: 127.0.0.1"
    echo "  bind-address: 127.0.0.1"
    echo "  port: 0"
    echo "sql-gateway.endpoint.rest.port: 0"
    echo "parallelism.default: 1"
    local l
    for l in "$@"; do echo "$l"; done
  } > "$TMPD/conf/config.yaml"
  export WEIR_CONF_DIR="$TMPD/conf" WEIR_LOG_DIR="$TMPD/log"
  unset WEIR_EMBEDDED
}

cluster_start() {
  if ! "$WEIR" cluster start > "$TMPD/start.out" 2>&1; then
    echo "FAIL $TEST_NAME: the cluster did not start:"; cat "$TMPD/start.out"; tail -n 20 "$TMPD/log/weir-cluster.log" 2>/dev/null
    exit 1
  fi
  read -r _ PORT < "$TMPD/log/weir-cluster.rest"
  BASE="http://127.0.0.1:$PORT"
  # Flink's SQL gateway endpoint (sql-gateway.endpoint.rest.port: 0 = a free port), from the log
  GWPORT="$(sed -n 's/.*SQL gateway endpoint listening at http:\/\/[^ ]*:\([0-9][0-9]*\) .*/\1/p' \
    "$TMPD/log/weir-cluster.log" | tail -n 1)"
}

# api METHOD PATH [curl args...]: prints the body; HTTP status in $STATUS
api() {
  local method="$1" path="$2"; shift 2
  local out
  out="$(curl -sS --max-time 20 -o "$TMPD/body" -w '%{http_code}' -X "$method" "$@" "$BASE$path" 2>"$TMPD/curl.err")"
  STATUS="${out:-000}"
  cat "$TMPD/body" 2>/dev/null
}

# sql FILE [args...]: runs the SQL client (remote mode, since the cluster runs); output in $TMPD/<name>.out
sql() {
  local f="$1"; shift
  timeout 120 "$WEIR" sql-client -f "$f" "$@" < /dev/null
}

# wait_state JID STATE: up to 30 s
wait_state() {
  local i s
  for ((i = 0; i < 300; i++)); do
    s="$(api GET "/jobs/$1/status" | jq -r '.status // empty' 2>/dev/null)"
    [[ "$s" == "$2" ]] && return 0
    sleep 0.1
  done
  echo "job $1 is $s, not $2" >&2
  return 1
}

jid_by_name() { api GET /jobs/overview | jq -r --arg n "$1" '[.jobs[] | select(.name == $n)][0].jid // empty'; }
jqe() { jq -e "$@" > /dev/null; }

# start_gateway_proxy LOG: tests/gateway/proxy.py between a Flink client and the daemon's SQL
# gateway endpoint ($GWPORT); sets PPORT (the port clients connect to); every call is appended to
# LOG as "METHOD /path STATUS". Stopped by the cleanup (its pid is in $TMPD/proxy.pids).
start_gateway_proxy() {
  local log="$1" pf="$TMPD/proxy.$RANDOM.port" i
  python3 "$ROOT/tests/gateway/proxy.py" --target "$GWPORT" --port-file "$pf" --log "$log" &
  echo $! >> "$TMPD/proxy.pids"
  for i in $(seq 1 100); do [[ -s "$pf" ]] && break; sleep 0.1; done
  read -r PPORT < "$pf"
}
