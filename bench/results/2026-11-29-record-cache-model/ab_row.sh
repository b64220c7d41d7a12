#!/usr/bin/env bash
# ab_row.sh ROUNDS BENCHES: bench-old vs bench-row (SLUICE_PROTO_ROW_CACHE=1) on copies of /work/seed-old, alternating
set -u
cd /work/main
rounds=$1; benches=${2:-ycsb_a,ycsb_b,ycsb_c}; out=/tmp/btail/abrow
mkdir -p $out
for r in $(seq 1 "$rounds"); do
  for v in ${ORDER:-old row}; do
    db=$(mktemp -d /tmp/btail_db.XXXXXX)
    cp -a /work/seed-old/sluice "$db/"; sync
    if [ $v = row ]; then export SLUICE_PROTO_ROW_CACHE=1; else unset SLUICE_PROTO_ROW_CACHE; fi
    /tmp/btail/bench-$v --engine=sluice --use_existing_db --db="$db" --num=20000000 --threads=2 \
      --ycsb_operationcount=2000000 --ycsb_fieldcount=10 --ycsb_fieldlength=10 \
      --benchmarks=$benches > $out/$v-$r.txt 2>&1
    unset SLUICE_PROTO_ROW_CACHE
    awk -v v=$v -v r=$r '/^ycsb_/{printf "%s %s %s %s\n", v, r, $1, $5} /^  \[READ\]/{print "   read P99", $11}' $out/$v-$r.txt
    rm -rf "$db"
  done
done
