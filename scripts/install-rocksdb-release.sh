#!/usr/bin/env bash
# install-rocksdb-release.sh — builds a release librocksdb (NDEBUG: no assertions, no sync points) from
# Debian's own source package of the installed librocksdb7.8, once, into build-rocksdb/lib (ignored by
# git, kept by `make clean`). The release weir (build/weir, RUNPATH $ORIGIN/../build-rocksdb/lib) loads
# it when it is there and Debian's lib otherwise; the test builds always use Debian's lib, whose
# assertions check weir's use of the RocksDB API. Why and what it gains: bench/state/README.md
# ("Debian's librocksdb against a release build", 2026-12-04).
# The build is Debian's (debian/rules: cmake build type None, dpkg-buildflags, PORTABLE=ON, the same
# compression libraries and patches) plus -DNDEBUG, without -g, tests and tools: the same SONAME
# (librocksdb.so.7.8) and C API. About 15 CPU minutes (-O2, one compile of each source).
# Never fails: without the pinned Debian version, network or build tools it says why and leaves
# Debian's lib in use. Idempotent: does nothing (and needs no network) once built.
# Usage: scripts/install-rocksdb-release.sh   (JOBS=N: make -jN, default the number of cores;
#        WEIR_ROCKSDB=debian: skip, and remove a built lib so Debian's is used)
set -uo pipefail
cd "$(dirname "$0")/.."

version=7.8.3-2                 # Debian bookworm's librocksdb7.8 (the .dsc pinned by its sha256)
dsc=rocksdb_$version.dsc
dsc_sha256=8c799d700b825cc4eebb5afbd43ebf2fb13d397828fc442c61d786f7792c2976
pool=http://deb.debian.org/debian/pool/main/r/rocksdb
top=$PWD/build-rocksdb
lib=$top/lib
stamp="$version NDEBUG"

skip() { echo "install-rocksdb-release: $*; weir uses Debian's librocksdb" >&2; exit 0; }

if [[ "${WEIR_ROCKSDB:-}" == debian ]]; then rm -rf "$lib"; exit 0; fi
installed=$(dpkg-query -W -f='${Version}' librocksdb7.8 2>/dev/null)
if [[ "$installed" != "$version" ]]; then
  rm -rf "$lib"                 # a release build of another version must not shadow Debian's lib
  skip "librocksdb7.8 is '${installed:-not installed}', this script builds $version"
fi
[[ -f "$lib/librocksdb.so.7.8" && "$(cat "$lib/stamp" 2>/dev/null)" == "$stamp" ]] && exit 0

scripts/install-deps.sh --rocksdb-build || skip "the build tools could not be installed"
echo "install-rocksdb-release: building librocksdb $version with NDEBUG into build-rocksdb/lib (about 15 CPU minutes)" >&2
rm -rf "$lib" "$top/src" "$top/obj"
mkdir -p "$top/download" "$top/src" "$top/obj"
cd "$top/download"
if ! echo "$dsc_sha256  $dsc" | sha256sum -c --quiet > /dev/null 2>&1; then
  curl -fsSO "$pool/$dsc" || skip "cannot download $pool/$dsc"
  echo "$dsc_sha256  $dsc" | sha256sum -c --quiet || skip "$dsc has not the pinned sha256"
fi
# the .dsc's Checksums-Sha256 section: " <sha256> <size> <file>" lines
files=$(awk '/^Checksums-Sha256:/ {on = 1; next} /^[^ ]/ {on = 0} on && NF == 3 {print $1 "  " $3}' "$dsc")
[[ -n "$files" ]] || skip "$dsc lists no files"
while read -r sum name; do
  echo "$sum  $name" | sha256sum -c --quiet > /dev/null 2>&1 && continue
  curl -fsSO "$pool/$name" || skip "cannot download $pool/$name"
  echo "$sum  $name" | sha256sum -c --quiet || skip "$name has not the sha256 of $dsc"
done <<< "$files"
# the sha256 checks above replace the .dsc's signature check (no Debian keyring needed)
dpkg-source --no-check -x "$dsc" "$top/src/rocksdb" > "$top/src/unpack.log" 2>&1 ||
  skip "dpkg-source failed (build-rocksdb/src/unpack.log)"

cd "$top/obj"
export CFLAGS="$(cd "$top/src/rocksdb" && dpkg-buildflags --get CFLAGS | sed 's/-g //') $(dpkg-buildflags --get CPPFLAGS) -DNDEBUG"
export CXXFLAGS="$(cd "$top/src/rocksdb" && dpkg-buildflags --get CXXFLAGS | sed 's/-g //') $(dpkg-buildflags --get CPPFLAGS) -DNDEBUG"
export LDFLAGS="$(dpkg-buildflags --get LDFLAGS)"
cmake "$top/src/rocksdb" -DCMAKE_BUILD_TYPE=None -DWITH_BZ2=ON -DWITH_LZ4=ON -DWITH_ZLIB=ON -DWITH_ZSTD=ON \
      -DWITH_SNAPPY=ON -DWITH_LIBURING=OFF -DROCKSDB_BUILD_SHARED=ON -DWITH_BENCHMARK_TOOLS=OFF \
      -DWITH_CORE_TOOLS=OFF -DWITH_TOOLS=OFF -DWITH_TESTS=OFF -DPORTABLE=ON -DFAIL_ON_WARNINGS=OFF \
      > "$top/build.log" 2>&1 || skip "cmake failed (build-rocksdb/build.log)"
make -j"${JOBS:-$(nproc)}" rocksdb-shared >> "$top/build.log" 2>&1 || skip "the build failed (build-rocksdb/build.log)"

# the same SONAME, no assertion left, and every C API function Debian's lib has
built=$top/obj/librocksdb.so.7.8.3
debian=$(dpkg -L librocksdb7.8 | grep '/librocksdb\.so\.7\.8\.3$')
[[ "$(objdump -p "$built" | awk '/SONAME/ {print $2}')" == librocksdb.so.7.8 ]] || skip "the built lib has another SONAME"
[[ $(nm -D "$built" | grep -c __assert_fail) == 0 ]] || skip "the built lib still has assertions"
missing=$(comm -23 <(nm -D --defined-only "$debian" | awk '$3 ~ /^rocksdb_/ {print $3}' | sort) \
                   <(nm -D --defined-only "$built" | awk '$3 ~ /^rocksdb_/ {print $3}' | sort))
[[ -z "$missing" ]] || skip "the built lib lacks C API functions: $missing"

rm -rf "$lib.tmp" && mkdir -p "$lib.tmp"
strip --strip-unneeded -o "$lib.tmp/librocksdb.so.7.8.3" "$built"
ln -sf librocksdb.so.7.8.3 "$lib.tmp/librocksdb.so.7.8"
echo "$stamp" > "$lib.tmp/stamp"
mv "$lib.tmp" "$lib"
rm -rf "$top/obj" "$top/src"  # the downloaded files stay, so a rebuild needs no network
echo "install-rocksdb-release: build-rocksdb/lib/librocksdb.so.7.8 built" >&2
