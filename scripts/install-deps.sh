#!/usr/bin/env bash
# install-deps.sh — installs the Debian packages weir's build, tests and tools need, when missing.
# Idempotent: does nothing (and needs no network) when everything is present.
# Usage: scripts/install-deps.sh [--fuzz]    (--fuzz adds clang and its libFuzzer runtime)
set -euo pipefail

pkgs=(gcc make libc6-dev libedit-dev libjansson-dev librocksdb-dev libmicrohttpd-dev librdkafka-dev kcat python3)
pkgs+=(libpq-dev postgresql)   # the jdbc connector (libpq) and its tests' PostgreSQL server
if [[ "${1:-}" == "--fuzz" ]]; then pkgs+=(clang libclang-rt-14-dev); fi

missing=()
for p in "${pkgs[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

echo "install-deps: installing ${missing[*]}" >&2
SUDO=""
if [[ $(id -u) -ne 0 ]]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
if ! $SUDO apt-get install -y --no-install-recommends "${missing[@]}" >/dev/null 2>&1; then
  $SUDO apt-get update -qq >/dev/null
  $SUDO apt-get install -y --no-install-recommends "${missing[@]}" >/dev/null
fi
