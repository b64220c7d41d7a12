#!/usr/bin/env bash
# The cost of many column families: keys spread over FAMILIES families against one family, for
# sluice's FloDB and skiplist memory components and for RocksDB (in the same runs as FloDB), with
# the default buffer per family and with the same total memory (the default buffer divided
# among the families). Alternating repetitions; results under
# bench/results/<DATE>-column-families/<config>-rep<i>/.
#
#   bench/column_family_experiments.sh          # FAMILIES=100 NUM=1000000 REPEATS=3
#
# Environment: FAMILIES, NUM, REPEATS, THREADS (1), DATE (today), SLUICE_BENCH (see run.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
families=${FAMILIES:-100}
num=${NUM:-1000000}
repeats=${REPEATS:-3}
threads=${THREADS:-1}
date=${DATE:-$(date +%F)}
buffer=$((64 * 1024 * 1024))
for rep in $(seq 1 "$repeats"); do
  for cfg in "flodb-1:--engine=sluice,rocksdb --memtable=flodb --num_column_families=1" \
             "flodb-$families:--engine=sluice,rocksdb --memtable=flodb --num_column_families=$families" \
             "flodb-$families-same-memory:--engine=sluice,rocksdb --memtable=flodb --num_column_families=$families --write_buffer_size=$((buffer / families))" \
             "skiplist-1:--engine=sluice --memtable=skiplist --num_column_families=1" \
             "skiplist-$families:--engine=sluice --memtable=skiplist --num_column_families=$families"; do
    name=${cfg%%:*}
    read -r -a flags <<< "${cfg#*:}"
    bench/run.sh "$date-column-families/$name-rep$rep" 1 -- \
      --benchmarks=fillrandom,readrandom,multireadrandom --num="$num" --threads="$threads" \
      "${flags[@]}" > /dev/null
  done
done
# Per configuration, benchmark and engine (sluice's lines come first in each run's output).
for cfg in flodb-1 "flodb-$families" "flodb-$families-same-memory" skiplist-1 "skiplist-$families"; do
  for bench in fillrandom readrandom multireadrandom; do
    for engine in 1 2; do
      values=$(for rep in $(seq 1 "$repeats"); do
        grep "^$bench " "bench/results/$date-column-families/$cfg-rep$rep/run-1.txt" |
          sed -n "${engine}p" | awk '{print $5}'
      done | sort -n | tr '\n' ' ')
      [ -n "${values// /}" ] || continue
      echo "$cfg $bench engine#$engine ops/s (sorted): $values"
    done
  done
done | tee "bench/results/$date-column-families/summary.txt"
