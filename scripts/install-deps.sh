#!/usr/bin/env bash
# Installs every system package sluice needs to build, test and benchmark. Idempotent: packages
# already present are skipped, so `make test` and `make bench` can call it every time.
#
#   scripts/install-deps.sh          everything (build, tests, benchmarks, fuzzing, Go checker),
#                                    and RocksDB's newest release build for sluice_bench
#                                    (scripts/fetch-rocksdb-release.sh, from Maven Central)
#   scripts/install-deps.sh --core   only what building the library needs (the Python package's
#                                    build runs this when a library is missing)
set -euo pipefail

core=0
case "${1:-}" in
  "") ;;
  --core) core=1 ;;
  *) echo "usage: $0 [--core]" >&2; exit 2 ;;
esac

PACKAGES=(
  cmake ninja-build g++ make pkg-config
  libgtest-dev libgmock-dev libbenchmark-dev
  libsnappy-dev libzstd-dev liblz4-dev libxxhash-dev libisal-dev
  libcli11-dev libfmt-dev nlohmann-json3-dev
  clang libclang-rt-dev
  librocksdb-dev libleveldb-dev
  python3 python3-pip python3-venv python3-pytest
  libasio-dev redis-tools redis-server nutcracker
  maven unzip
)

if [ "$core" -eq 1 ]; then
  PACKAGES=(
    cmake ninja-build g++ make pkg-config
    libsnappy-dev libzstd-dev liblz4-dev libxxhash-dev libisal-dev
    libfmt-dev nlohmann-json3-dev
  )
fi

# Go builds the linearizability checker (tests/linearizability/checker, Porcupine from the Go
# module proxy). Debian's golang-go (1.19) suffices; a Go already installed is used instead.
if [ "$core" -eq 0 ] && ! command -v go >/dev/null 2>&1 && [ ! -x /usr/local/go/bin/go ]; then
  PACKAGES+=(golang-go)
fi

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -gt 0 ]; then
  echo "install-deps: installing ${missing[*]}"
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  if ! $SUDO apt-get install -y --no-install-recommends "${missing[@]}"; then
    $SUDO apt-get update
    $SUDO apt-get install -y --no-install-recommends "${missing[@]}"
  fi
fi

# Without it sluice_bench falls back to Debian's RocksDB (and says so in every run's header),
# and the adapter's tests of the release build fail naming it: a warning here, not a stop.
if [ "$core" -eq 0 ] && ! bash "$(dirname "$0")/fetch-rocksdb-release.sh"; then
  echo "install-deps: warning: no RocksDB release build (see above); sluice_bench will use" \
    "Debian's librocksdb" >&2
fi
