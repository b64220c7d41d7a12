#!/usr/bin/env bash
# ab_row.sh ROUNDS BENCHES: bench-old against bench-row (the prototype, SLUICE_PROTO_ROW_CACHE=1)
# on copies of one seed, /work/seed-old, alternating; raw output in /tmp/btail/abrow.
ORDER=${ORDER:-old row} SEED=/work/seed-old ENV_row=SLUICE_PROTO_ROW_CACHE=1 OUT=/tmp/btail/abrow \
  exec "$(dirname "$0")/../2026-11-29-cache-line-bloom/ab.sh" "$@"
