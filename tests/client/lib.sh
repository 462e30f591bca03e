#!/usr/bin/env bash
# lib.sh — helpers for the interactive client tests (sourced, not run).
#
# A test sets TEST_NAME, sources this file and calls client_start: weir's interactive SQL client
# (embedded, no cluster) runs in a terminal of a private tmux server (its own socket, no user
# configuration) with a fresh HOME (history file) under a temporary folder and the "C" locale
# (so the client itself must switch to UTF-8). Keys are typed with type_text / keys, the screen is
# read with screen / wait_for (polls until a pattern shows up, so no fixed sleeps decide a
# result). Cleanup (every exit) kills that tmux server and removes the folder.
# Exit status of a test: 0 pass, 1 fail, 77 skipped (tmux missing).
#   WEIR  the weir binary (default: $BUILD/weir, else build/weir)

ROOT="${ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}"
WEIR="${WEIR:-${BUILD:+$BUILD/weir}}"
WEIR="${WEIR:-$ROOT/build/weir}"
FAILS=0
TMPD=""
SOCK=""

fail() { echo "FAIL $TEST_NAME: $*"; FAILS=$((FAILS + 1)); }
skip() { echo "SKIP $TEST_NAME: $*"; exit 77; }
tm() { tmux -L "$SOCK" -f /dev/null "$@"; }

client_cleanup() {
  local rc=$?
  trap - EXIT INT TERM
  [[ -n "$SOCK" ]] && tm kill-server > /dev/null 2>&1
  if [[ -n "$CLUSTER" && -f "$TMPD/log/weir-cluster.pid" ]]; then
    local pid
    pid="$(cat "$TMPD/log/weir-cluster.pid" 2>/dev/null)"
    WEIR_CONF_DIR="$TMPD/conf" WEIR_LOG_DIR="$TMPD/log" timeout 40 "$WEIR" cluster stop > /dev/null 2>&1
    if [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null; then kill -KILL "$pid" 2>/dev/null; fi
  fi
  [[ -n "$TMPD" && -d "$TMPD" ]] && rm -rf "$TMPD"
  if [[ $rc -eq 0 && $FAILS -gt 0 ]]; then rc=1; fi
  exit $rc
}

# client_start [cols rows]: the client in a cols x rows terminal, waiting for its first prompt.
# With CLUSTER=1 set before, a private cluster daemon (free loopback port, own conf/log folders,
# stopped by the cleanup) is started first and the client runs in remote mode against it.
CLUSTER="${CLUSTER:-}"
client_start() {
  command -v tmux > /dev/null 2>&1 || skip "tmux is not installed"
  TMPD="$(mktemp -d)"
  SOCK="weir-client-$$"
  trap client_cleanup EXIT INT TERM
  local mode="WEIR_EMBEDDED=1"
  if [[ -n "$CLUSTER" ]]; then
    mkdir -p "$TMPD/conf" "$TMPD/log"
    printf 'rest:\n  address: 127.0.0.1\n  bind-address: 127.0.0.1\n  port: 0\nsql-gateway.endpoint.rest.port: 0\nparallelism.default: 1\n' \
      > "$TMPD/conf/config.yaml"
    (unset WEIR_EMBEDDED; WEIR_CONF_DIR="$TMPD/conf" WEIR_LOG_DIR="$TMPD/log" "$WEIR" cluster start \
      > "$TMPD/start.out" 2>&1) || { fail "the cluster did not start: $(cat "$TMPD/start.out")"; exit 1; }
    mode="-u WEIR_EMBEDDED WEIR_CONF_DIR='$TMPD/conf' WEIR_LOG_DIR='$TMPD/log'"
  fi
  tm new-session -d -s t -x "${1:-100}" -y "${2:-30}" \
    "env -u LANG -u LC_ALL -u LC_CTYPE -u LANGUAGE $mode HOME='$TMPD' '$WEIR' sql-client; echo CLIENT-EXITED \$?; sleep 60"
  wait_for 'Flink SQL>' || { fail "no prompt"; screen; exit 1; }
}

# type_text TEXT: typed literally (a trailing ';' is sent on its own: tmux reads it as a separator).
type_text() {
  local t="$1"
  if [[ "$t" == *';' ]]; then
    tm send-keys -t t -l -- "${t%;}"
    tm send-keys -t t '\;'
  else
    tm send-keys -t t -l -- "$t"
  fi
}
keys() { tm send-keys -t t "$@"; }
screen() { tm capture-pane -p -t t -S -200; }          # with the scrollback
visible() { tm capture-pane -p -t t; }                  # the screen only
line_at() { visible | sed -n "${1}p" | sed -e 's/[[:space:]]*$//'; }

# wait_for REGEX [seconds]: true once the screen (with its scrollback) matches.
# wait_count REGEX N [seconds]: true once N lines of the screen and scrollback match.
wait_count() {
  local deadline=$((SECONDS + ${3:-20}))
  while (( SECONDS < deadline )); do
    [[ "$(screen | grep -cE -- "$1")" -ge "$2" ]] && return 0
    sleep 0.1
  done
  return 1
}
wait_for() {
  local deadline=$((SECONDS + ${2:-20}))
  while (( SECONDS < deadline )); do
    screen | grep -qE -- "$1" && return 0
    sleep 0.1
  done
  return 1
}

# expect_line TEXT: some screen line is exactly TEXT (trailing blanks ignored).
expect_line() {
  if ! screen | sed -e 's/[[:space:]]*$//' | grep -qxF -- "$1"; then
    fail "no line '$1' on the screen"
    screen | grep -v '^$' | tail -n 25
  fi
}
