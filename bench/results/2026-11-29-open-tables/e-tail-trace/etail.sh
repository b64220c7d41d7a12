#!/usr/bin/env bash
# etail.sh: a 20M three-engine YCSB load, then 2 rounds of the scale protocol from copies of
# it (bench/run.sh), with /proc/vmstat's reclaim and compaction counters sampled every second.
set -u
cd /work/main
seed=/tmp/rc/seed3; rm -rf $seed
( while true; do echo "$(date +%T.%N) $(grep -E '^(allocstall_movable|allocstall_normal|pgscan_direct|compact_stall|compact_fail|compact_success|thp_fault_alloc|thp_fault_fallback|pgmajfault) ' /proc/vmstat | tr '\n' ' ')"; sleep 1; done ) > /tmp/rc/etail-vmstat.txt &
sampler=$!
build/release/tools/sluice_bench --engine=sluice,rocksdb,leveldb --db=$seed --num=20000000 --threads=2 \
  --ycsb_fieldcount=10 --ycsb_fieldlength=10 --benchmarks=ycsb_load,flush,waitforcompaction > /tmp/rc/etail-load.txt 2>&1
echo "$(date +%T.%N) LOAD DONE" >> /tmp/rc/etail-marks.txt
SEED_DB=$seed bench/run.sh tmp/etail 2 -- --engine=sluice,rocksdb,leveldb --use_existing_db --num=20000000 \
  --threads=2 --ycsb_operationcount=2000000 --ycsb_fieldcount=10 --ycsb_fieldlength=10 \
  --benchmarks=ycsb_a,ycsb_b,ycsb_c,ycsb_f,ycsb_d,waitforcompaction,ycsb_e 2>&1 | while IFS= read -r l; do echo "$(date +%T.%N) $l"; done > /tmp/rc/etail-run.txt
kill $sampler
rm -rf $seed
