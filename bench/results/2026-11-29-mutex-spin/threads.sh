#!/usr/bin/env bash
# threads.sh PID OUT: every second, per-thread voluntary/involuntary switch counts of PID
pid=$1; out=$2
while kill -0 "$pid" 2>/dev/null; do
  t=$(date +%s.%N)
  for d in /proc/$pid/task/*; do
    [ -r "$d/status" ] || continue
    c=$(cat "$d/comm" 2>/dev/null)
    awk -v t="$t" -v tid="${d##*/}" -v c="$c" '/^voluntary_ctxt/{v=$2} /^nonvoluntary_ctxt/{n=$2} END{printf "%s %s %s %s %s\n", t, tid, c, v, n}' "$d/status" 2>/dev/null
  done
  sleep 1
done > "$out"
