#!/usr/bin/env bash
# sql-client.sh — Flink-style entry point for weir's SQL client.
#
# Runs `weir sql-client "$@"` with the weir binary found relative to this script (../build/weir;
# WEIR_BIN overrides it). It builds nothing: run `make` first. Options are Flink's:
#   bin/sql-client.sh [embedded] [-i init.sql] [-f script.sql] [-D key=value]... [-h]
set -euo pipefail

self="$(readlink -f "${BASH_SOURCE[0]}")"
here="$(cd "$(dirname "$self")" && pwd)"
weir="${WEIR_BIN:-$here/../build/weir}"

if [[ ! -x "$weir" ]]; then
  echo "sql-client.sh: $weir not found or not executable; build it with 'make' first." >&2
  exit 1
fi
exec "$weir" sql-client "$@"
