#!/usr/bin/env bash
# stop-cluster.sh — stops the weir cluster daemon (Flink's bin/stop-cluster.sh): `weir cluster stop`.
#
# The daemon serves Flink's REST API, weir's SQL gateway and the dashboard (rest.port, default 8081,
# on rest.bind-address, default localhost). Configuration: $WEIR_CONF_DIR/config.yaml (default
# conf/config.yaml); logs, pid file and the print sinks' .out file: $WEIR_LOG_DIR (default log/).
# The binary is ../build/weir relative to this script (WEIR_BIN overrides it). It builds nothing.
set -euo pipefail

self="$(readlink -f "${BASH_SOURCE[0]}")"
here="$(cd "$(dirname "$self")" && pwd)"
weir="${WEIR_BIN:-$here/../build/weir}"

if [[ ! -x "$weir" ]]; then
  echo "stop-cluster.sh: $weir not found or not executable; build it with 'make' first." >&2
  exit 1
fi
exec "$weir" cluster stop "$@"
