#!/bin/bash
# fillrandom, 2 threads x 250K keys, 8-byte keys, 256-byte values, 128 MB: sluice and RocksDB
# in one invocation, WAL on and off, 3 rounds. usage: run.sh BIN
here=$(dirname "$0")
for r in 1 2 3; do for wal in 0 1; do
  rm -rf /tmp/sbf
  "$1" --engine=sluice,rocksdb --benchmarks=fillrandom --key_format=binary --key_size=8 \
    --value_size=256 --write_buffer_size=128MB --num=250000 --threads=2 --disable_wal=$((1-wal)) \
    --db=/tmp/sbf > "$here/fillrandom-wal$wal-$r.txt" 2>&1
done; done
