#!/usr/bin/env bash
# install-flink.sh — installs the Apache Flink release weir follows (the one in FLINK_VERSION) and a
# headless JDK, for the Flink-backed tests and benchmarks. Flink is never part of weir itself.
#
# Usage: scripts/install-flink.sh            prints FLINK_HOME on stdout (exit 0), or the reason on
#                                            stderr and exit 77 when nothing can be downloaded
# Idempotent: a complete installation (marker file .weir-complete) is reused without any network.
#
# Where things come from (the registries this project's machines reach):
#   - a JDK: Debian's openjdk-17-jdk-headless (when `java` is missing or older than 11);
#   - Flink's distribution: the Python package index's `apache-flink-libraries` wheel (lib/, opt/,
#     plugins/) and the `apache-flink` wheel (bin/ and conf/), unpacked, not pip-installed;
#   - the SQL gateway jar, which the wheels leave out of opt/: Maven Central's
#     org.apache.flink:flink-sql-gateway, fetched with Maven.
# The installation goes to $WEIR_FLINK_CACHE (default ~/.cache/weir)/flink-<version>.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VERSION="$(tr -d '[:space:]' < "$ROOT/FLINK_VERSION")"
CACHE="${WEIR_FLINK_CACHE:-$HOME/.cache/weir}"
HOME_DIR="$CACHE/flink-$VERSION"
log() { echo "install-flink: $*" >&2; }

if [[ -f "$HOME_DIR/.weir-complete" ]] && command -v java >/dev/null 2>&1; then
  echo "$HOME_DIR"; exit 0
fi

# One installer at a time: make test, a benchmark and a second checkout may start together.
mkdir -p "$CACHE"
exec 9>"$CACHE/.install-flink.lock"
flock 9
if [[ -f "$HOME_DIR/.weir-complete" ]] && command -v java >/dev/null 2>&1; then
  echo "$HOME_DIR"; exit 0
fi

SUDO=""; [[ $(id -u) -ne 0 ]] && SUDO="sudo"
apt_install() {
  export DEBIAN_FRONTEND=noninteractive
  if ! $SUDO apt-get install -y --no-install-recommends "$@" >/dev/null 2>&1; then
    $SUDO apt-get update -qq >/dev/null 2>&1 || true
    $SUDO apt-get install -y --no-install-recommends "$@" >/dev/null
  fi
}

java_major() { java -version 2>&1 | sed -nE 's/.*version "([0-9]+)(\.[0-9]+)?.*/\1/p' | head -n 1; }
if ! command -v java >/dev/null 2>&1 || [[ "$(java_major)" -lt 11 ]]; then
  log "installing openjdk-17-jdk-headless"
  apt_install openjdk-17-jdk-headless || { log "no JDK could be installed"; exit 77; }
fi
command -v unzip >/dev/null 2>&1 || apt_install unzip
command -v mvn >/dev/null 2>&1 || apt_install maven
command -v pip3 >/dev/null 2>&1 || command -v pip >/dev/null 2>&1 || apt_install python3-pip
PIP="$(command -v pip3 || command -v pip)"

dl="$CACHE/downloads/$VERSION"
mkdir -p "$dl"
fetch_wheel() { # $1 = package; wheels are platform-independent zip files for what we unpack
  local pkg="$1"
  ls "$dl"/"${pkg//-/_}"-"$VERSION"-*.whl >/dev/null 2>&1 && return 0
  log "downloading $pkg==$VERSION"
  "$PIP" download --quiet --no-deps --only-binary=:all: --python-version 3.11 \
      --platform manylinux2014_x86_64 --platform any -d "$dl" "$pkg==$VERSION" >&2 \
    || { log "cannot download $pkg==$VERSION from the Python package index"; exit 77; }
}
fetch_wheel apache-flink-libraries
fetch_wheel apache-flink

tmp="$(mktemp -d "$CACHE/.flink-XXXXXX")"
trap 'rm -rf "$tmp"' EXIT
unzip -q "$dl"/apache_flink_libraries-"$VERSION"-*.whl 'pyflink/lib/*' 'pyflink/opt/*' 'pyflink/plugins/*' \
    'pyflink/bin/*' 'pyflink/licenses/*' -d "$tmp"
unzip -qo "$dl"/apache_flink-"$VERSION"-*.whl 'pyflink/bin/*' 'pyflink/conf/*' -d "$tmp"
fh="$tmp/pyflink"
mkdir -p "$fh/log"
chmod +x "$fh"/bin/*.sh "$fh/bin/flink"

if ! ls "$fh"/opt/flink-sql-gateway-*.jar >/dev/null 2>&1; then
  log "downloading org.apache.flink:flink-sql-gateway:$VERSION"
  mvn -q -B -Dstyle.color=never dependency:copy -Dartifact="org.apache.flink:flink-sql-gateway:$VERSION" \
      -DoutputDirectory="$fh/opt" >&2 \
    || { log "cannot download flink-sql-gateway $VERSION from Maven Central"; exit 77; }
fi
for need in lib/flink-dist-"$VERSION".jar opt/flink-sql-client-"$VERSION".jar bin/sql-client.sh \
            bin/start-cluster.sh bin/sql-gateway.sh conf/config.yaml; do
  [[ -e "$fh/$need" ]] || { log "the unpacked distribution lacks $need"; exit 1; }
done
echo "$VERSION" > "$fh/.weir-complete"
rm -rf "$HOME_DIR"
mv "$fh" "$HOME_DIR"
log "Flink $VERSION in $HOME_DIR"
echo "$HOME_DIR"
