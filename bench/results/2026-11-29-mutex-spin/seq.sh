#!/usr/bin/env bash
# seq.sh TAG ROUNDS [ENGINES] [BENCHES]: YCSB from a synced copy of the flushed seed, with per-thread switch sampling
set -u
cd /work/main
tag=$1; rounds=${2:-1}; engines=${3:-sluice}; benches=${4:-ycsb_a,ycsb_b,ycsb_c,ycsb_f,ycsb_d}
bench=${BENCH:-build/release/tools/sluice_bench}; out=/tmp/tail; seed=${SEED:-/work/ycsbseed-flushed}
for r in $(seq 1 "$rounds"); do
    db=$(mktemp -d /tmp/tail_db.XXXXXX)
    for e in ${COPY:-${engines//,/ }}; do cp -a "$seed/$e" "$db/"; done; sync
    "$bench" --engine=$engines --use_existing_db --db="$db" --num=20000000 --threads=2 \
      --ycsb_operationcount=2000000 --ycsb_fieldcount=10 --ycsb_fieldlength=10 $EXTRA \
      --benchmarks=$benches 2>&1 | while IFS= read -r l; do echo "$(date +%s.%N) $l"; done > "$out/$tag-$r.txt" &
    sleep 0.3; pid=$(pgrep -n -f use_existing_db)
    /tmp/tail/threads.sh "$pid" "$out/$tag-$r.threads" &
    wait
    awk -v c="$tag" -v r="$r" '/engine:/{e=$4} /^[0-9.]+ ycsb_/{w=$2; printf "%s %s %s %s ops/s %s\n", c, r, e, w, $6} /^[0-9.]+   \[/ {printf "%s %s %s %s %s P99 %s\n", c, r, e, w, $2, $11}' "$out/$tag-$r.txt"
    rm -rf "$db"
done
