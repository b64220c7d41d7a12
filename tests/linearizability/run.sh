#!/usr/bin/env bash
# Records histories with the recorder and checks them with the Go checker (Porcupine).
#
#   run.sh RECORDER WORKDIR COMPONENT|broken [nowal]
#
# COMPONENT: a memory component; every history must be linearizable. nowal: every write skips
# the WAL (WriteOptions::disable_wal), which takes its sequence number without the log's lock.
# broken: flodb with read-modify-write conflict detection off; the checker must find a
#         violation (retried with new seeds a few times, since a race may not show in one run).
# serializable: skiplist with Options::linearizable_snapshots = false, increments, gets, scans
#         and snapshot reads only; the checker must find a violation (so the scans' check can
#         fail), retried the same way.
# Environment: LIN_HISTORIES (default 2000), LIN_THREADS (4), LIN_OPS (25 per thread).
set -euo pipefail
recorder=$1 work=$2 mode=$3 wal=${4:-wal}
extra=()
name=$mode
if [ "$wal" = nowal ]; then
  extra=(--disable_wal)
  name=$mode-nowal
fi
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$work"

go=$(command -v go || true)
[ -z "$go" ] && [ -x /usr/local/go/bin/go ] && go=/usr/local/go/bin/go
if [ -z "$go" ]; then
  echo "run.sh: Go not found (scripts/install-deps.sh installs golang-go)" >&2
  exit 1
fi
checker="$work/checker-$name"
(cd "$here/checker" && "$go" build -o "$checker" .)

histories=${LIN_HISTORIES:-2000}
threads=${LIN_THREADS:-4}
ops=${LIN_OPS:-25}
db="$work/db-$name-$$"
rm -rf "$db"

if [ "$mode" != broken ] && [ "$mode" != serializable ]; then
  "$recorder" --memtable="$mode" --dir="$db" --histories="$histories" --threads="$threads" \
    --ops="$ops" --seed=$$ "${extra[@]}" >"$work/$name.history"
  "$checker" <"$work/$name.history"
  rm -f "$work/$name.history"
  exit 0
fi

if [ "$mode" = broken ]; then
  flags=(--memtable=flodb --broken)
else
  flags=(--memtable=skiplist --serializable --kinds=1,3,8,9)
fi
for attempt in 1 2 3 4 5; do
  "$recorder" "${flags[@]}" --dir="$db" --histories=200 --threads="$threads" --ops="$ops" \
    --seed=$((attempt * 7919 + $$)) >"$work/$mode.history"
  if "$checker" -expect-violations <"$work/$mode.history"; then
    rm -f "$work/$mode.history"
    exit 0
  fi
  echo "run.sh: no violation found in the $mode mode (attempt $attempt); retrying"
done
echo "run.sh: the checker never caught the $mode mode" >&2
exit 1
