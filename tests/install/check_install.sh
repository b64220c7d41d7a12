#!/usr/bin/env bash
# Installs the build in $1 into a temporary prefix, then builds and runs consumer programs (C++
# and C) against it, each linked to the static library and to the shared one: through CMake's
# find_package(sluice) and through pkg-config (sluice.pc). Also checks that the tools, every
# public header and the license were installed, and that libsluice.so has its SONAME and exports
# the public API only.
set -euo pipefail
build_dir=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
here=$(cd "$(dirname "$0")" && pwd)
fail() { echo "check_install: $*" >&2; exit 1; }

cmake --install "$build_dir" --prefix "$tmp/prefix" >/dev/null
for h in db.h options.h status.h slice.h iterator.h write_batch.h snapshot.h c.h env.h; do
  test -f "$tmp/prefix/include/sluice/$h" || fail "missing header $h"
done
for tool in sluice_bench sluice sluice-server; do
  test -x "$tmp/prefix/bin/$tool" || fail "missing $tool"
done
test -f "$tmp/prefix/share/doc/sluice/LICENSE" || fail "missing share/doc/sluice/LICENSE"
"$tmp/prefix/bin/sluice" --help >/dev/null

libdir=$(dirname "$(ls "$tmp"/prefix/lib*/pkgconfig/sluice.pc | head -1)")
libdir=$(dirname "$libdir")
test -f "$libdir/libsluice.a" || fail "missing libsluice.a"
version=$(sed -n 's/^Version: //p' "$libdir/pkgconfig/sluice.pc")
soname="libsluice.so.${version%.*}"
test -f "$libdir/libsluice.so.$version" || fail "missing libsluice.so.$version"
test -L "$libdir/libsluice.so" || fail "missing the libsluice.so link"
readelf -d "$libdir/libsluice.so" | grep -q "Library soname: \[$soname\]" ||
  fail "libsluice.so's SONAME is not $soname"

# Exports: the C API and namespace sluice (with its classes' vtables and type information), and
# of the latter only what the public headers declare.
exports=$(nm -D --defined-only -C "$libdir/libsluice.so" | awk '{ $1 = ""; $2 = ""; print substr($0, 3) }')
foreign=$(grep -Ev '^(sluice_|sluice::|typeinfo for sluice::|typeinfo name for sluice::|vtable for sluice::|VTT for sluice::|guard variable for sluice::)' <<<"$exports" |
  grep -Ev '^(_init|_fini|SLUICE_[A-Z0-9_]*)$' || true)
[ -z "$foreign" ] || fail "libsluice.so exports symbols outside the API: $(head -5 <<<"$foreign")"
for wanted in 'sluice::DB::Open(' 'sluice_open' 'sluice::WriteBatch::Put(' 'sluice::Env::Default()' \
  'typeinfo for sluice::Iterator' 'sluice::NewLRUCache(' 'sluice::WriteBufferManager::WriteBufferManager(' \
  'sluice_write_buffer_manager_create' 'sluice_cache_create_lru'; do
  grep -qF "$wanted" <<<"$exports" || fail "libsluice.so does not export $wanted"
done
for internal in 'sluice::DBImpl' 'sluice::SequenceOracle' 'sluice::FloDBComponent' \
  'sluice::WriteBatchInternal' 'sluice::MemoryBudget' 'sluice::MemoryCharge' 'fmt::'; do
  if grep -qF "$internal" <<<"$exports"; then fail "libsluice.so exports internal $internal"; fi
done

# Each public header compiles on its own (c.h as C too).
for h in "$tmp"/prefix/include/sluice/*.h; do
  echo "#include <sluice/$(basename "$h")>" | g++ -std=c++20 -fsyntax-only -I"$tmp/prefix/include" -x c++ -
done
echo "#include <sluice/c.h>" | gcc -std=c99 -fsyntax-only -I"$tmp/prefix/include" -x c -

# CMake: find_package, static and shared, C++ and C.
cmake -S "$here/consumer" -B "$tmp/cmake-build" -G Ninja -DCMAKE_PREFIX_PATH="$tmp/prefix" >/dev/null
cmake --build "$tmp/cmake-build" >/dev/null
for program in consumer consumer_shared c_consumer c_consumer_shared; do
  "$tmp/cmake-build/$program" "$tmp/db-cmake-$program" >/dev/null || fail "$program (CMake) failed"
done
readelf -d "$tmp/cmake-build/consumer_shared" | grep -q "NEEDED.*\[$soname\]" ||
  fail "consumer_shared does not load $soname"
if readelf -d "$tmp/cmake-build/consumer" | grep -q "NEEDED.*libsluice"; then
  fail "the static consumer loads libsluice.so"
fi

# pkg-config: the shared library (-lsluice), and the static one (libsluice.a with Libs.private).
export PKG_CONFIG_PATH="$libdir/pkgconfig"
g++ -std=c++20 "$here/consumer/main.cc" -o "$tmp/pc-consumer" $(pkg-config --cflags --libs sluice)
gcc "$here/consumer/main.c" -o "$tmp/pc-c-consumer" $(pkg-config --cflags --libs sluice)
LD_LIBRARY_PATH="$libdir" "$tmp/pc-consumer" "$tmp/db-pc-cxx" >/dev/null || fail "pkg-config C++ consumer failed"
LD_LIBRARY_PATH="$libdir" "$tmp/pc-c-consumer" "$tmp/db-pc-c" >/dev/null || fail "pkg-config C consumer failed"
static_libs=$(pkg-config --static --libs sluice | sed 's/-lsluice\b//')
g++ -std=c++20 "$here/consumer/main.cc" -o "$tmp/pc-consumer-static" $(pkg-config --cflags sluice) \
  "$libdir/libsluice.a" $static_libs
gcc "$here/consumer/main.c" -o "$tmp/pc-c-consumer-static" $(pkg-config --cflags sluice) \
  "$libdir/libsluice.a" $static_libs
"$tmp/pc-consumer-static" "$tmp/db-pc-cxx-static" >/dev/null || fail "static pkg-config C++ consumer failed"
"$tmp/pc-c-consumer-static" "$tmp/db-pc-c-static" >/dev/null || fail "static pkg-config C consumer failed"
echo "install check passed"
