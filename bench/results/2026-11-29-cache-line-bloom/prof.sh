#!/usr/bin/env bash
# prof.sh TAG: perf record (cycles, dwarf) of sluice's ycsb_a,ycsb_b from a synced copy of SEED
set -u
cd /work/main
tag=$1; seed=${SEED:-/work/ycsbseed-settled}; out=/tmp/btail
db=$(mktemp -d /tmp/btail_db.XXXXXX)
cp -a "$seed/sluice" "$db/"; sync
perf record -q -F 499 --call-graph dwarf,16384 -k CLOCK_REALTIME -o "$out/$tag.perf" -- \
${BENCH:-build/release/tools/sluice_bench} --engine=sluice --use_existing_db --db="$db" --num=20000000 --threads=2 \
  --ycsb_operationcount=2000000 --ycsb_fieldcount=10 --ycsb_fieldlength=10 \
  --benchmarks=${BENCHES:-ycsb_a,ycsb_b} 2>&1 | while IFS= read -r l; do echo "$(date +%s.%N) $l"; done > "$out/$tag.txt"
grep -E "ycsb_|UPDATE|READ" "$out/$tag.txt" | cut -c1-160
rm -rf "$db"
