#!/usr/bin/env bash
# sw.sh BIN OUT: one ycsb_a under perf sched_switch (dwarf), then the top switch sites of client threads
b=$1; o=$2
db=$(mktemp -d /tmp/tail_db.XXXXXX) && cp -a /work/ycsbseed-flushed/sluice $db/ && sync
perf record -q -e sched:sched_switch --call-graph dwarf,8192 -o /tmp/tail/$o.perf -- /tmp/tail/$b --engine=sluice --use_existing_db --db=$db --num=20000000 --threads=2 --ycsb_operationcount=2000000 --ycsb_fieldcount=10 --ycsb_fieldlength=10 --benchmarks=${BENCHES:-ycsb_a} 2>&1 | grep -E "^ycsb|UPDATE\]|MODIFY" | cut -c1-120
rm -rf $db
perf script -i /tmp/tail/$o.perf --comm $b 2>/dev/null | awk -v b=$b '$1==b{inrec=1; n=0; key=""; next} inrec && NF==0 {inrec=0; print key; next} inrec { if (n<3 && ($2 ~ /sluice::|lll_lock|cond_wait|cond_signal|pread|lll_lock_wake|sched_yield/)) {n++; key = key " <- " $2} }' | sed 's/(anonymous namespace):://g; s/+0x[0-9a-f]*//g' | sort | uniq -c | sort -rn | head -${TOP:-16}
