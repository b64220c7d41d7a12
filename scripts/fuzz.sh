#!/usr/bin/env bash
# Builds the libFuzzer targets (the `fuzz` preset: clang, ASan + UBSan, build/fuzz) and runs each
# for FUZZ_SECONDS seconds, one after the other, starting from its seed corpus
# tests/fuzz/corpus/<target>/. Prints one summary line per target and `N passed, N failed`;
# exits non-zero if any target crashed (or hung, leaked, ran out of memory).
#
#   scripts/fuzz.sh [--short] [--merge] [--seeds] [target...]
#
#   FUZZ_SECONDS=300   seconds per target (--short: 15 unless FUZZ_SECONDS is set)
#   --short            the quick run `make fuzz-smoke` does
#   --merge            afterwards, merge the new interesting inputs into tests/fuzz/corpus
#                      (libFuzzer -merge=1: only inputs that add coverage)
#   --seeds            first regenerate tests/fuzz/corpus/<target>/seed-* with fuzz_seed_gen
#   target...          a subset of: wal_reader_fuzzer table_reader_fuzzer
#                      manifest_reader_fuzzer db_api_fuzzer
#
# New inputs go to a scratch corpus, build/fuzz/corpus/<target>/ (kept between runs, so a long run
# continues where the last one stopped; --short starts afresh from the seeds), never into the
# committed one unless --merge is given. Crashes go to build/fuzz/artifacts/<target>/ and the
# full libFuzzer output to build/fuzz/logs/<target>.log. Reproduce a crash with
#   build/fuzz/tests/fuzz/<target> build/fuzz/artifacts/<target>/crash-...
set -euo pipefail

cd "$(dirname "$0")/.."
ROOT=$(pwd)
BUILD=$ROOT/build/fuzz
ALL_TARGETS=(wal_reader_fuzzer table_reader_fuzzer manifest_reader_fuzzer db_api_fuzzer)

short=0 merge=0 seeds=0
targets=()
for arg in "$@"; do
  case "$arg" in
    --short) short=1 ;;
    --merge) merge=1 ;;
    --seeds) seeds=1 ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    -*) echo "fuzz.sh: unknown option $arg" >&2; exit 2 ;;
    *)
      if [[ " ${ALL_TARGETS[*]} " != *" $arg "* ]]; then
        echo "fuzz.sh: unknown target $arg (known: ${ALL_TARGETS[*]})" >&2
        exit 2
      fi
      targets+=("$arg") ;;
  esac
done
[ ${#targets[@]} -eq 0 ] && targets=("${ALL_TARGETS[@]}")
if [ -z "${FUZZ_SECONDS:-}" ]; then
  if [ $short -eq 1 ]; then FUZZ_SECONDS=15; else FUZZ_SECONDS=300; fi
fi
JOBS=${JOBS:-2}

echo "fuzz: building the fuzz preset (build/fuzz)"
cmake --preset fuzz >/dev/null
mkdir -p "$BUILD/logs"
if ! cmake --build "$BUILD" -j "$JOBS" >"$BUILD/logs/build.log" 2>&1; then
  tail -40 "$BUILD/logs/build.log" >&2
  echo "fuzz: the build failed (build/fuzz/logs/build.log)" >&2
  exit 1
fi
for t in "${targets[@]}"; do
  if [ ! -x "$BUILD/tests/fuzz/$t" ]; then
    echo "fuzz: $BUILD/tests/fuzz/$t was not built" >&2
    exit 1
  fi
done

if [ $seeds -eq 1 ]; then
  echo "fuzz: regenerating the seed corpora"
  for t in "${ALL_TARGETS[@]}"; do rm -f "$ROOT/tests/fuzz/corpus/$t"/seed-*; done
  "$BUILD/tests/fuzz/fuzz_seed_gen" "$ROOT/tests/fuzz/corpus" >/dev/null
fi

# The targets that need real files use a scratch directory on tmpfs when there is one; it is
# this run's own, removed at the end.
if [ -w /dev/shm ]; then
  FUZZ_TMP=$(mktemp -d /dev/shm/sluice-fuzz-run.XXXXXX)
else
  mkdir -p "$BUILD/tmp"
  FUZZ_TMP=$(mktemp -d "$BUILD/tmp/run.XXXXXX")
fi
trap 'rm -rf "$FUZZ_TMP"' EXIT
export SLUICE_FUZZ_TMPDIR=$FUZZ_TMP

summary=()
passed=0 failed=0
for t in "${targets[@]}"; do
  seed_corpus=$ROOT/tests/fuzz/corpus/$t
  scratch=$BUILD/corpus/$t
  if [ $short -eq 1 ]; then
    # The short run starts from the committed seeds only, so that it takes the same time however
    # large the scratch corpus of earlier long runs has grown (libFuzzer runs a whole corpus
    # before its clock starts).
    scratch=$BUILD/corpus-short/$t
    rm -rf "$scratch"
  fi
  artifacts=$BUILD/artifacts/$t
  log=$BUILD/logs/$t.log
  mkdir -p "$seed_corpus" "$scratch" "$artifacts" "$(dirname "$log")"
  args=(-max_total_time="$FUZZ_SECONDS" -timeout=60 -rss_limit_mb=4096 -print_final_stats=1
        -artifact_prefix="$artifacts/")
  [ -f "$ROOT/tests/fuzz/$t.dict" ] && args+=(-dict="$ROOT/tests/fuzz/$t.dict")
  before=$(find "$artifacts" -type f | wc -l)
  echo "fuzz: $t for ${FUZZ_SECONDS}s (log: ${log#"$ROOT"/})"
  start=$(date +%s)
  set +e
  # The wall-clock guard only matters if libFuzzer itself stops responding.
  timeout --signal=KILL $((FUZZ_SECONDS + 300)) \
    "$BUILD/tests/fuzz/$t" "${args[@]}" "$scratch" "$seed_corpus" >"$log" 2>&1
  rc=$?
  set -e
  end=$(date +%s)
  after=$(find "$artifacts" -type f | wc -l)
  crashes=$((after - before))
  if [ $rc -ne 0 ] && [ $crashes -eq 0 ]; then crashes=1; fi  # died without an artifact

  # Executions and seconds: libFuzzer's final stats, else its "Done N runs in S second(s)".
  execs=$(sed -n 's/^stat::number_of_executed_units: *\([0-9]*\).*/\1/p' "$log" | tail -1)
  secs=$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' "$log" | tail -1)
  [ -z "$execs" ] && execs=$(sed -n 's/^Done \([0-9]*\) runs.*/\1/p' "$log" | tail -1)
  [ -z "$execs" ] && execs=0
  [ -z "$secs" ] && secs=$((end - start))
  [ "$secs" -eq 0 ] && secs=1
  rate=$((execs / secs))
  cov=$(grep -oE 'cov: [0-9]+ ft: [0-9]+' "$log" | tail -1 || true)
  cov=${cov:-cov: ? ft: ?}
  line=$(printf '%-24s %10s execs %6ss %7s exec/s  %-22s %s crashes' "$t" "$execs" "$secs" \
    "$rate" "$cov" "$crashes")
  summary+=("$line")
  if [ $crashes -eq 0 ]; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "fuzz: $t FAILED (exit $rc); artifacts in ${artifacts#"$ROOT"/}:" >&2
    grep -E 'FUZZ CHECK FAILED|ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error|SUMMARY' \
      "$log" | head -5 >&2 || true
  fi

  if [ $merge -eq 1 ]; then
    echo "fuzz: merging new inputs of $t into tests/fuzz/corpus/$t"
    "$BUILD/tests/fuzz/$t" -merge=1 -timeout=60 -rss_limit_mb=4096 "$seed_corpus" "$scratch" \
      >"$BUILD/logs/$t.merge.log" 2>&1 || echo "fuzz: merge of $t failed (see logs)" >&2
  fi
done

echo
for line in "${summary[@]}"; do echo "$line"; done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
