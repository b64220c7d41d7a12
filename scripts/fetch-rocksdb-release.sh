#!/usr/bin/env bash
# Fetches a release build of RocksDB for sluice_bench's rocksdb engine, which loads RocksDB's C
# API at run time (tools/sluice_bench/rocksdb_c_api.h). Maven Central's org.rocksdb:rocksdbjni
# jars hold librocksdbjni-linux64.so, a release build of RocksDB (snappy, lz4 and zstd inside)
# that exports the whole C API; this script takes it out of the jar with the ordinary Maven
# client and unzip.
#
#   scripts/fetch-rocksdb-release.sh            the newest version Maven Central serves whose jar
#                                               holds the linux64 library
#   ROCKSDB_VERSION=10.10.1.1 scripts/fetch-rocksdb-release.sh   that version instead
#
# Result, under .deps/rocksdb/ of the repository (SLUICE_DEPS_DIR overrides .deps):
#   librocksdb-<version>.so  the library;  librocksdb-release.so  a link to it (sluice_bench's
#   default --rocksdb_library);  VERSION  the Maven version taken.
# Idempotent: a library taken less than a day ago is kept without asking Maven (as Maven itself
# checks for new releases once a day); otherwise only the metadata is fetched unless a newer
# version has come out. Exits non-zero, saying why, if no library could be had.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
DEPS="${SLUICE_DEPS_DIR:-$ROOT/.deps}/rocksdb"
REPO_LOCAL="${MAVEN_REPO_LOCAL:-$HOME/.m2/repository}"
ARTIFACT_DIR="$REPO_LOCAL/org/rocksdb/rocksdbjni"
LIBRARY_IN_JAR="librocksdbjni-linux64.so"
WANTED="${ROCKSDB_VERSION:-newest}"

mvn_get() {  # mvn_get GROUP:ARTIFACT:VERSION[:PACKAGING:CLASSIFIER]
  mvn -q -B -Dmaven.repo.local="$REPO_LOCAL" dependency:get -Dtransitive=false \
    -Dartifact="$1" >/dev/null 2>&1
}

# Every version Maven Central lists, newest last (the metadata's order).
list_versions() {
  # A metaversion makes Maven download the artifact's metadata; the plain jar it then fetches
  # is the newest release's, which the loop below would fetch first anyway.
  mvn_get "org.rocksdb:rocksdbjni:RELEASE" || true
  local metadata
  metadata="$(ls "$ARTIFACT_DIR"/maven-metadata-*.xml 2>/dev/null | head -n 1)"
  if [ -z "$metadata" ]; then
    echo "fetch-rocksdb-release: no Maven metadata for org.rocksdb:rocksdbjni in $ARTIFACT_DIR" >&2
    return 1
  fi
  grep -o '<version>[^<]*</version>' "$metadata" | sed 's/<[^>]*>//g' | grep -E '^[0-9.]+$'
}

# Extracts the linux64 library of one version into $DEPS; false if no jar of it holds one.
take_version() {
  local v="$1" jar
  for jar in "rocksdbjni-$v-linux64.jar:$v:jar:linux64" "rocksdbjni-$v.jar:$v"; do
    local file="${jar%%:*}" coordinates="org.rocksdb:rocksdbjni:${jar#*:}"
    if [ ! -f "$ARTIFACT_DIR/$v/$file" ]; then mvn_get "$coordinates" || continue; fi
    [ -f "$ARTIFACT_DIR/$v/$file" ] || continue
    if unzip -l "$ARTIFACT_DIR/$v/$file" "$LIBRARY_IN_JAR" >/dev/null 2>&1; then
      mkdir -p "$DEPS"
      local tmp
      tmp="$(mktemp -d "$DEPS/.extract.XXXXXX")"
      unzip -q -o "$ARTIFACT_DIR/$v/$file" "$LIBRARY_IN_JAR" -d "$tmp"
      mv "$tmp/$LIBRARY_IN_JAR" "$DEPS/librocksdb-$v.so"
      rmdir "$tmp"
      ln -sfn "librocksdb-$v.so" "$DEPS/librocksdb-release.so"
      echo "$v" >"$DEPS/VERSION"
      echo "fetch-rocksdb-release: RocksDB $v (release build, from $file) in $DEPS"
      return 0
    fi
  done
  return 1
}

if ! command -v mvn >/dev/null 2>&1 || ! command -v unzip >/dev/null 2>&1; then
  echo "fetch-rocksdb-release: needs mvn and unzip (scripts/install-deps.sh installs them)" >&2
  exit 1
fi

if [ "$WANTED" != "newest" ]; then
  if [ -f "$DEPS/librocksdb-$WANTED.so" ]; then
    ln -sfn "librocksdb-$WANTED.so" "$DEPS/librocksdb-release.so"
    echo "$WANTED" >"$DEPS/VERSION"
    exit 0
  fi
  take_version "$WANTED" && exit 0
  echo "fetch-rocksdb-release: org.rocksdb:rocksdbjni:$WANTED has no $LIBRARY_IN_JAR on Maven Central" >&2
  exit 1
fi

if [ -e "$DEPS/librocksdb-release.so" ] && [ -n "$(find "$DEPS/VERSION" -mmin -1440 2>/dev/null)" ]; then
  exit 0
fi
versions="$(list_versions || true)"
if [ -z "$versions" ]; then
  if [ -e "$DEPS/librocksdb-release.so" ]; then
    echo "fetch-rocksdb-release: Maven Central unreachable; keeping RocksDB $(cat "$DEPS/VERSION")" >&2
    exit 0
  fi
  echo "fetch-rocksdb-release: could not list org.rocksdb:rocksdbjni's versions" >&2
  exit 1
fi
# Newest first; a version already extracted ends the search.
for v in $(echo "$versions" | sort -V -r); do
  if [ -f "$DEPS/librocksdb-$v.so" ]; then
    ln -sfn "librocksdb-$v.so" "$DEPS/librocksdb-release.so"
    echo "$v" >"$DEPS/VERSION"  # also marks the check's time
    exit 0
  fi
  take_version "$v" && exit 0
done
echo "fetch-rocksdb-release: no version of org.rocksdb:rocksdbjni holds $LIBRARY_IN_JAR" >&2
exit 1
