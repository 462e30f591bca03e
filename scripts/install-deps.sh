#!/usr/bin/env bash
# install-deps.sh — installs the Debian packages weir's build, tests and tools need, when missing.
# Idempotent: does nothing (and needs no network) when everything is present.
# Usage: scripts/install-deps.sh [--fuzz] [--rocksdb-build]    (--fuzz adds clang and its libFuzzer
# runtime; --rocksdb-build what scripts/install-rocksdb-release.sh needs to build Debian's RocksDB source)
set -euo pipefail

pkgs=(gcc make libc6-dev libedit-dev libjansson-dev librocksdb-dev libmicrohttpd-dev librdkafka-dev kcat python3)
pkgs+=(libpq-dev postgresql)   # the jdbc connector (libpq) and its tests' PostgreSQL server
for opt in "$@"; do
  case "$opt" in
    --fuzz) pkgs+=(clang libclang-rt-14-dev) ;;
    --rocksdb-build) pkgs+=(g++ cmake dpkg-dev curl binutils libgflags-dev libsnappy-dev libbz2-dev zlib1g-dev liblz4-dev libzstd-dev) ;;
    *) echo "install-deps: unknown option $opt" >&2; exit 2 ;;
  esac
done

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
