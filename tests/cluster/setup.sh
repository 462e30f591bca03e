#!/usr/bin/env bash
# setup.sh — installs what the cluster tests use when it is missing: curl and jq (small, from
# Debian), and with --chromium Debian's chromium for the dashboard test (about 30 s). Needs root
# (or sudo); without it nothing is installed and the tests that need a tool skip themselves.
set -uo pipefail
pkgs=(curl jq)
[[ "${1:-}" == "--chromium" ]] && pkgs=(chromium)
missing=()
for p in "${pkgs[@]}"; do
  bin="$p"
  command -v "$bin" >/dev/null 2>&1 || missing+=("$p")
done
[[ ${#missing[@]} -eq 0 ]] && exit 0
SUDO=""
if [[ $(id -u) -ne 0 ]]; then
  command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null || exit 1
  SUDO="sudo -n"
fi
export DEBIAN_FRONTEND=noninteractive
if ! $SUDO apt-get install -y --no-install-recommends "${missing[@]}" >/dev/null 2>&1; then
  $SUDO apt-get update -qq >/dev/null 2>&1
  $SUDO apt-get install -y --no-install-recommends "${missing[@]}" >/dev/null 2>&1 || exit 1
fi
exit 0
