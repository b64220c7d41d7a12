#!/usr/bin/env bash
# Installs the build in $1 into a temporary prefix, then builds and runs a consumer program
# against it twice: through CMake's find_package(sluice) and through pkg-config (sluice.pc).
# Also checks that the tools and every public header were installed.
set -euo pipefail
build_dir=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
here=$(cd "$(dirname "$0")" && pwd)

cmake --install "$build_dir" --prefix "$tmp/prefix" >/dev/null
for h in db.h options.h status.h slice.h iterator.h write_batch.h snapshot.h c.h env.h; do
  test -f "$tmp/prefix/include/sluice/$h" || { echo "missing header $h"; exit 1; }
done
for tool in sluice_bench sluice sluice-server; do
  test -x "$tmp/prefix/bin/$tool" || { echo "missing $tool"; exit 1; }
done
"$tmp/prefix/bin/sluice" --help >/dev/null

# Each public header compiles on its own.
for h in "$tmp"/prefix/include/sluice/*.h; do
  echo "#include <sluice/$(basename "$h")>" | g++ -std=c++20 -fsyntax-only -I"$tmp/prefix/include" -x c++ -
done

cmake -S "$here/consumer" -B "$tmp/cmake-build" -G Ninja -DCMAKE_PREFIX_PATH="$tmp/prefix" >/dev/null
cmake --build "$tmp/cmake-build" >/dev/null
"$tmp/cmake-build/consumer" "$tmp/db1"

libdir=$(ls -d "$tmp"/prefix/lib*/pkgconfig | head -1)
export PKG_CONFIG_PATH="$libdir"
g++ -std=c++20 "$here/consumer/main.cc" -o "$tmp/pc-consumer" $(pkg-config --cflags --libs sluice)
"$tmp/pc-consumer" "$tmp/db2"
echo "install check passed"
