#!/usr/bin/env bash
# ab.sh ROUNDS BENCHES: alternate bench-old on /work/seed-old and bench-new on /work/seed-new (sluice alone)
set -u
cd /work/main
rounds=$1; benches=${2:-ycsb_a,ycsb_b,ycsb_c}; out=/tmp/btail/ab
mkdir -p $out
for r in $(seq 1 "$rounds"); do
  for v in ${ORDER:-old new}; do
    db=$(mktemp -d /tmp/btail_db.XXXXXX)
    cp -a /work/seed-$v/sluice "$db/"; sync
    /tmp/btail/bench-$v --engine=sluice --use_existing_db --db="$db" --num=20000000 --threads=2 \
      --ycsb_operationcount=2000000 --ycsb_fieldcount=10 --ycsb_fieldlength=10 \
      --benchmarks=$benches > $out/$v-$r.txt 2>&1
    awk -v v=$v -v r=$r '/^ycsb_/{printf "%s %s %s %s\n", v, r, $1, $5}' $out/$v-$r.txt
    rm -rf "$db"
  done
done
