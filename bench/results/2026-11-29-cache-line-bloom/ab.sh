#!/usr/bin/env bash
# ab.sh ROUNDS BENCHES: alternates /tmp/btail/bench-$v for each variant v of ORDER ("old new"),
# sluice alone, each round from a synced copy of SEED (default /work/seed-$v: each binary on
# the seed it loaded). ENV_$v (e.g. ENV_row=SLUICE_PROTO_ROW_CACHE=1) is set for variant v
# only; raw output in OUT (default /tmp/btail/ab) as $v-$round.txt.
set -u
cd /work/main
rounds=$1; benches=${2:-ycsb_a,ycsb_b,ycsb_c}; out=${OUT:-/tmp/btail/ab}
mkdir -p "$out"
for r in $(seq 1 "$rounds"); do
  for v in ${ORDER:-old new}; do
    db=$(mktemp -d /tmp/btail_db.XXXXXX)
    cp -a "${SEED:-/work/seed-$v}/sluice" "$db/"; sync
    env_var=ENV_$v
    env ${!env_var:-} /tmp/btail/bench-$v --engine=sluice --use_existing_db --db="$db" \
      --num=20000000 --threads=2 --ycsb_operationcount=2000000 --ycsb_fieldcount=10 \
      --ycsb_fieldlength=10 --benchmarks=$benches > "$out/$v-$r.txt" 2>&1
    awk -v v=$v -v r=$r '/^ycsb_/{printf "%s %s %s %s\n", v, r, $1, $5}' "$out/$v-$r.txt"
    rm -rf "$db"
  done
done
