#!/usr/bin/env bash
# bench/server_experiments.sh — sluice-server against redis-server (Debian's package, with
# appendonly yes) under redis-benchmark (`-t $TESTS -P $PIPELINE`, by default
# `-t set,get,incr,mset -P 16`), the same clients and requests for every server, RUNS rounds with
# the servers taking turns so that the machine's noise falls on all. Writes each run's CSV and a
# summary of medians (requests per second) to bench/results/<date>-server-vs-redis/ (other
# ENGINES: <date>-server-<engines>/; SYNC=always adds -sync).
#
#   bench/server_experiments.sh            # N=200000 requests per test, RUNS=5, CLIENTS=50
#   N=1000000 RUNS=5 bench/server_experiments.sh
#   ENGINES="sluice twemproxy" bench/server_experiments.sh   # also three sluice-servers behind
#                                           # twemproxy (nutcracker), as in docs/scale-out.md
#
# ENGINES (default "sluice redis") lists the servers: sluice, redis, twemproxy; OUT overrides the
# results directory (which must not hold results already). SYNC=always syncs every write before
# its reply on both sides (sluice-server --sync always, Redis appendfsync always):
#   SYNC=always TESTS=set,incr PIPELINE=1 N=100000 bench/server_experiments.sh
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
ENGINES=${ENGINES:-sluice redis}
SYNC=${SYNC:-no}
case "$SYNC" in
  no) sluice_sync=no; redis_fsync=everysec ;;
  always) sluice_sync=always; redis_fsync=always ;;
  *) echo "SYNC must be no or always" >&2; exit 2 ;;
esac
for engine in $ENGINES; do
  case "$engine" in
    sluice | redis | twemproxy) ;;
    *) echo "unknown engine '$engine' in ENGINES (sluice, redis, twemproxy)" >&2; exit 2 ;;
  esac
done
SERVER=${SLUICE_SERVER:-build/release/tools/sluice-server}
for tool in redis-server redis-benchmark redis-cli; do
  command -v "$tool" >/dev/null || { echo "$tool missing: apt-get install redis-server redis-tools" >&2; exit 1; }
done
NUTCRACKER=$(command -v nutcracker || echo /usr/sbin/nutcracker)
case " $ENGINES " in
  *" twemproxy "*) [ -x "$NUTCRACKER" ] || { echo "nutcracker missing: apt-get install nutcracker" >&2; exit 1; } ;;
esac
[ -x "$SERVER" ] || { echo "$SERVER missing: cmake --preset release && cmake --build build/release --target sluice_server" >&2; exit 1; }

if [ "$ENGINES" = "sluice redis" ]; then name=server-vs-redis; else name="server-${ENGINES// /-}"; fi
if [ "$SYNC" = always ]; then name="$name-sync"; fi
out=${OUT:-"bench/results/$(date -u +%Y-%m-%d)-$name"}
if [ -n "$(ls -A "$out" 2>/dev/null)" ]; then
  echo "$out already holds results; move it or set OUT=<another directory>" >&2
  exit 1
fi
mkdir -p "$out"
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$work"' EXIT

wait_ready() {
  for _ in $(seq 1 200); do
    redis-cli -p "$1" ping >/dev/null 2>&1 && return 0
    sleep 0.05
  done
  echo "server on port $1 did not come up" >&2
  exit 1
}

run_one() {  # engine run
  local engine=$1 run=$2 port=7390 dir="$work/$1-$2" pids=() p
  mkdir -p "$dir"
  case "$engine" in
    redis)
      redis-server --port "$port" --bind 127.0.0.1 --dir "$dir" --appendonly yes \
        --appendfsync "$redis_fsync" --save "" --daemonize no >"$dir/server.log" 2>&1 &
      pids+=($!) ;;
    sluice)
      "$SERVER" --port "$port" --dir "$dir/db" --sync "$sluice_sync" >"$dir/server.log" 2>&1 &
      pids+=($!) ;;
    twemproxy)  # three backends, one worker thread each, behind nutcracker on $port
      printf 'sluice:\n  listen: 127.0.0.1:%s\n  hash: fnv1a_64\n  distribution: ketama\n  auto_eject_hosts: false\n  redis: true\n  timeout: 30000\n  servers:\n' \
        "$port" >"$dir/nutcracker.yml"
      for p in 7391 7392 7393; do
        "$SERVER" --port "$p" --threads 1 --dir "$dir/db$p" --sync "$sluice_sync" \
          >"$dir/server$p.log" 2>&1 &
        pids+=($!)
        wait_ready "$p"
        echo "   - 127.0.0.1:$p:1 s$((p - 7390))" >>"$dir/nutcracker.yml"
      done
      "$NUTCRACKER" -c "$dir/nutcracker.yml" -s 7394 -a 127.0.0.1 -o "$dir/nutcracker.log" &
      pids+=($!) ;;
  esac
  wait_ready "$port"
  redis-benchmark -p "$port" -t "$TESTS" -P "$PIPELINE" -c "$CLIENTS" -n "$N" -r 1000000 \
    --csv >"$out/run-$run-$engine.csv"
  if [ "$engine" = twemproxy ]; then
    kill "${pids[-1]}"
    for p in 7391 7392 7393; do redis-cli -p "$p" shutdown >/dev/null 2>&1 || true; done
  else
    redis-cli -p "$port" shutdown >/dev/null 2>&1 || true
  fi
  for p in "${pids[@]}"; do wait "$p" || true; done
  rm -rf "$dir"
}

echo "redis-benchmark -t $TESTS -P $PIPELINE -c $CLIENTS -n $N -r 1000000, $RUNS runs" | tee "$out/command.txt"
echo "ENGINES=$ENGINES SYNC=$SYNC SLUICE_SERVER=$SERVER" >>"$out/command.txt"
redis-server --version >>"$out/command.txt"
case " $ENGINES " in *" twemproxy "*) "$NUTCRACKER" --version 2>&1 | head -1 >>"$out/command.txt" ;; esac
read -r -a engines <<<"$ENGINES"
for run in $(seq 1 "$RUNS"); do
  # Rotate which server goes first.
  order=()
  for i in "${!engines[@]}"; do order+=("${engines[$(((i + run - 1) % ${#engines[@]}))]}"); done
  for engine in "${order[@]}"; do
    echo "run $run: $engine"
    run_one "$engine" "$run"
  done
done

python3 - "$out" "$redis_fsync" $ENGINES <<'PY'
import csv, glob, os, statistics, sys
out, redis_fsync, engines = sys.argv[1], sys.argv[2], sys.argv[3:]
names = {"sluice": "sluice-server", "redis": f"redis-server appendfsync {redis_fsync}",
         "twemproxy": "3 sluice-servers behind twemproxy"}
rps = {}  # (engine, test) -> [requests per second]
for path in sorted(glob.glob(os.path.join(out, "run-*-*.csv"))):
    engine = path.rsplit("-", 1)[1][:-4]
    with open(path) as f:
        for row in csv.DictReader(f):
            rps.setdefault((engine, row["test"]), []).append(float(row["rps"]))
order = ["SET", "GET", "INCR"]
tests = sorted({t for _, t in rps}, key=lambda t: order.index(t) if t in order else 9)
base = engines[0]
head = " | ".join(f"{names.get(e, e)} (req/s, median)" for e in engines)
ratios = "".join(f" {base} / {e} |" for e in engines[1:])
lines = [f"| test | {head} |{ratios} runs |", "|---" * (2 + 2 * len(engines) - 1) + "|"]
for t in tests:
    med = {e: statistics.median(rps[(e, t)]) for e in engines if rps.get((e, t))}
    if len(med) != len(engines):
        continue
    cells = " | ".join(f"{med[e]:,.0f}" for e in engines)
    rcells = "".join(f" {med[base] / med[e]:.2f} |" for e in engines[1:])
    lines.append(f"| {t} | {cells} |{rcells} {len(rps[(base, t)])} |")
summary = "\n".join(lines) + "\n"
open(os.path.join(out, "summary.md"), "w").write(summary)
print(summary)
PY
