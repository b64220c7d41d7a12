#!/usr/bin/env bash
# bench/server_experiments.sh — sluice-server against redis-server (Debian's package, with
# appendonly yes) under redis-benchmark: `-t set,get,incr,mset -P 16`, the same clients and
# requests for both, RUNS rounds with the two servers alternating so that the machine's noise
# falls on both. Writes each run's CSV and a summary of medians (requests per second) to
# bench/results/<date>-server-vs-redis/.
#
#   bench/server_experiments.sh            # N=200000 requests per test, RUNS=5, CLIENTS=50
#   N=1000000 RUNS=5 bench/server_experiments.sh
#
# Durability is matched as closely as the two allow: Redis appends every write to its AOF and
# fsyncs once a second (appendfsync everysec, its default); sluice-server writes every write to
# its WAL before replying and leaves syncing to the OS (--sync no, its default).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

N=${N:-200000}
RUNS=${RUNS:-5}
CLIENTS=${CLIENTS:-50}
PIPELINE=${PIPELINE:-16}
TESTS=${TESTS:-set,get,incr,mset}
SERVER=${SLUICE_SERVER:-build/release/tools/sluice-server}
for tool in redis-server redis-benchmark redis-cli; do
  command -v "$tool" >/dev/null || { echo "$tool missing: apt-get install redis-server redis-tools" >&2; exit 1; }
done
[ -x "$SERVER" ] || { echo "$SERVER missing: cmake --preset release && cmake --build build/release --target sluice_server" >&2; exit 1; }

out="bench/results/$(date -u +%Y-%m-%d)-server-vs-redis"
mkdir -p "$out"
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT

wait_ready() {
  for _ in $(seq 1 200); do
    redis-cli -p "$1" ping >/dev/null 2>&1 && return 0
    sleep 0.05
  done
  echo "server on port $1 did not come up" >&2
  exit 1
}

run_one() {  # engine run
  local engine=$1 run=$2 port=7390 dir="$work/$1-$2" pid
  mkdir -p "$dir"
  if [ "$engine" = redis ]; then
    redis-server --port "$port" --bind 127.0.0.1 --dir "$dir" --appendonly yes \
      --appendfsync everysec --save "" --daemonize no >"$dir/server.log" 2>&1 &
  else
    "$SERVER" --port "$port" --dir "$dir/db" >"$dir/server.log" 2>&1 &
  fi
  pid=$!
  wait_ready "$port"
  redis-benchmark -p "$port" -t "$TESTS" -P "$PIPELINE" -c "$CLIENTS" -n "$N" -r 1000000 \
    --csv >"$out/run-$run-$engine.csv"
  redis-cli -p "$port" shutdown >/dev/null 2>&1 || true
  wait "$pid" || true
  rm -rf "$dir"
}

echo "redis-benchmark -t $TESTS -P $PIPELINE -c $CLIENTS -n $N -r 1000000, $RUNS runs" | tee "$out/command.txt"
redis-server --version >>"$out/command.txt"
for run in $(seq 1 "$RUNS"); do
  # Alternate which server goes first.
  if [ $((run % 2)) -eq 1 ]; then order="sluice redis"; else order="redis sluice"; fi
  for engine in $order; do
    echo "run $run: $engine"
    run_one "$engine" "$run"
  done
done

python3 - "$out" <<'PY'
import csv, glob, os, statistics, sys
out = sys.argv[1]
rps = {}  # (engine, test) -> [requests per second]
for path in sorted(glob.glob(os.path.join(out, "run-*-*.csv"))):
    engine = path.rsplit("-", 1)[1][:-4]
    with open(path) as f:
        for row in csv.DictReader(f):
            rps.setdefault((engine, row["test"]), []).append(float(row["rps"]))
tests = sorted({t for _, t in rps}, key=lambda t: ["SET", "GET", "INCR"].index(t) if t in ["SET", "GET", "INCR"] else 9)
lines = ["| test | sluice-server (req/s, median) | redis-server appendonly (req/s, median) | sluice / redis | runs |",
         "|---|---|---|---|---|"]
for t in tests:
    s, r = rps.get(("sluice", t), []), rps.get(("redis", t), [])
    if not s or not r:
        continue
    ms, mr = statistics.median(s), statistics.median(r)
    lines.append(f"| {t} | {ms:,.0f} | {mr:,.0f} | {ms / mr:.2f} | {len(s)} |")
summary = "\n".join(lines) + "\n"
open(os.path.join(out, "summary.md"), "w").write(summary)
print(summary)
PY
