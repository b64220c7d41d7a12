#!/bin/bash
# The four points, sluice (this commit and 4bffcea) interleaved with the FloDB
# prototype (built by hand in /tmp/flodb-proto, see ../../2026-11-26-prefetch-hugepages/),
# 3 rounds each. usage: run.sh NEW_BIN OLD_BIN
here=$(dirname "$0")
for point in "262144 2" "262144 1" "16777216 2" "16777216 1"; do
  set -- $point "$1" "$2"
  bash "$here/../../2026-11-26-prefetch-hugepages/prototype/interleave.sh" "$1" 3 "$2" "$3" "$4" > "$here/writeonly-$1-t$2.txt" 2>&1
  shift 2
done
