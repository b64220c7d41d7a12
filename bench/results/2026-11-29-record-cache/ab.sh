#!/usr/bin/env bash
# ab.sh ROUNDS BENCHES FRACTIONS: for each round, runs BIN (a copy of sluice_bench) once per
# --record_cache_fraction in FRACTIONS ("0 0.25" ...), sluice alone, each from a synced copy of
# SEED (a settled 20M-record YCSB load); the same --cache_size for all. Raw output in OUT as
# f<fraction>-<round>.txt; prints one line per workload: fraction, round, workload, ops/s.
set -u
rounds=$1; benches=${2:-ycsb_b,ycsb_c}; fractions=${3:-0 0.25}
bin=${BIN:-/tmp/rc/bench}; seed=${SEED:-/work/seed-old/sluice}; out=${OUT:-/tmp/rc/ab}
mkdir -p "$out"
for r in $(seq 1 "$rounds"); do
  for f in $fractions; do
    db=$(mktemp -d /tmp/rc_db.XXXXXX)
    cp -a "$seed" "$db/"; sync
    "$bin" --engine=sluice --use_existing_db --db="$db" --num=${NUM:-20000000} --threads=2 \
      --ycsb_operationcount=${OPS:-2000000} --ycsb_fieldcount=10 --ycsb_fieldlength=10 \
      --record_cache_fraction="$f" --benchmarks="$benches,stats" ${EXTRA:-} \
      > "$out/f$f-$r.txt" 2>&1
    awk -v f=$f -v r=$r '/^ycsb_|^readrandom/{printf "%s %s %s %s\n", f, r, $1, $5}' "$out/f$f-$r.txt"
    rm -rf "$db"
  done
done
