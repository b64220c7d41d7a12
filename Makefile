# sluice — top-level commands. Every target installs what is missing first
# (scripts/install-deps.sh), so each works on a fresh machine.
#
#   make bench      Release build, then the headline benchmark: sluice vs RocksDB's newest
#                   release build vs LevelDB, 3 rounds with the engines' order rotated, medians
#                   (about 6 minutes on 2 cores)
#   make test       every test: the lock-contract check (make thread-safety), the Python
#                   package's tests (pip install into build/python-venv, pytest), then every
#                   ctest test (GoogleTest suites, linearizability checks, the short crash test,
#                   the CLI's and the server's tests). CI (.ci/run) runs exactly this. Long runs
#                   have their own targets: sanitizer suites, crash test, fuzzing, benchmarks.
#   make thread-safety  the library built with clang -Wthread-safety -Werror (compile only, -O0):
#                   checks the GUARDED_BY/REQUIRES lock contracts (src/util/mutex.h)
#   make python-test  the Python package alone (scripts/python-test.sh)
#   make test-asan  every test under AddressSanitizer + UBSan
#   make test-tsan  every test under ThreadSanitizer
#   make crash-test the long crash test: sluice_stress killed >= 200 times (tests/crash, ~6 min)
#   make fuzz       every libFuzzer target for FUZZ_SECONDS each (default 300; scripts/fuzz.sh)
#   make fuzz-smoke the short fuzzing run (15 s per target, after building the fuzz preset)
#   make bench-flodb  the FloDB paper's experiments (bench/flodb_experiments.sh, ~31 min)
#   make bench-clsm   the cLSM paper's experiments (bench/clsm_experiments.sh, ~14 min)
#   make bench-reads  point reads, sequential reads, seeks, scans under writes, MultiGet and
#                     reads with range tombstones
#                     against RocksDB and LevelDB (bench/read_experiments.sh, ~19 min)
#   make bench-buffer the memory-buffer paper's experiments 1-6 (bench/buffer_experiments.sh)
#   make bench-scale  YCSB A-F at 20M and 50M records, a 10-minute sustained fill and the space
#                     a 20M-key fill leaves (bench/scale_experiments.sh; hours: see
#                     docs/benchmarks.md, "At scale")
#   make bench-server sluice-server against redis-server under redis-benchmark (~4 minutes)
#   make bench-instances  what open databases and families cost, and one memory budget shared
#                   by ten filling databases, against RocksDB (bench/instance_experiments.sh)
#   make install PREFIX=/some/dir   headers, library, tools, CMake package, sluice.pc

PREFIX ?= /usr/local
JOBS ?= $(shell nproc)
# The headline benchmark's size; raise it on a bigger machine: make bench BENCH_NUM=5000000
BENCH_NUM ?= 1000000
# Kill cycles per crash test (54 tests: 3 kinds x 7 memory components x 2 sync
# modes, 6 with column families, 6 with sequential writes).
CRASH_CYCLES ?= 6
# Seconds per fuzz target for make fuzz.
FUZZ_SECONDS ?= 300
# Rounds of the headline benchmark (medians and min..max of each figure and ratio).
BENCH_REPEATS ?= 3
BENCH_FLAGS ?= --engine=sluice,rocksdb,leveldb --benchmarks=fillseq,fillrandom,overwrite,readrandom,readseq --num=$(BENCH_NUM) --repeats=$(BENCH_REPEATS) --db=/tmp/sluice_bench

.PHONY: all deps build bench bench-flodb bench-clsm bench-reads bench-buffer bench-scale bench-server bench-instances test thread-safety python-test test-asan test-tsan crash-test fuzz fuzz-smoke install format clean

all: build

deps:
	@bash scripts/install-deps.sh

build: deps
	cmake --preset release >/dev/null
	cmake --build build/release -j $(JOBS)

bench: build
	./build/release/tools/sluice_bench $(BENCH_FLAGS)

bench-flodb: build
	bench/flodb_experiments.sh

bench-clsm: build
	bench/clsm_experiments.sh

bench-reads: build
	bench/read_experiments.sh

bench-buffer: build
	bench/buffer_experiments.sh

bench-scale: build
	bench/scale_experiments.sh

bench-server: build
	N=1000000 RUNS=5 bench/server_experiments.sh

bench-instances: build
	bench/instance_experiments.sh

# The lock-contract check and the Python tests come first, so ctest's summary is printed last.
test: deps thread-safety python-test
	cmake --preset dev >/dev/null
	cmake --build build/dev -j $(JOBS)
	ctest --preset dev -j $(JOBS)

# Clang's thread-safety analysis of the library; fails on a broken lock contract.
thread-safety: deps
	cmake --preset thread-safety >/dev/null
	cmake --build build/thread-safety -j $(JOBS) --target sluice

python-test: deps
	scripts/python-test.sh

test-asan: deps
	cmake --preset asan >/dev/null
	cmake --build build/asan -j $(JOBS)
	ASAN_OPTIONS=detect_leaks=1 ctest --preset asan -j $(JOBS)

test-tsan: deps
	cmake --preset tsan >/dev/null
	cmake --build build/tsan -j $(JOBS)
	TSAN_OPTIONS=halt_on_error=1 ctest --preset tsan -j $(JOBS)

crash-test: deps
	cmake --preset dev >/dev/null
	cmake --build build/dev -j $(JOBS) --target sluice_stress
	SLUICE_STRESS=build/dev/tools/sluice_stress CRASH_CYCLES=$(CRASH_CYCLES) \
	  CRASH_SUMMARY=build/crash-summary.json python3 -m pytest -q -p no:cacheprovider tests/crash/crash_test.py

fuzz: deps
	FUZZ_SECONDS=$(FUZZ_SECONDS) JOBS=$(JOBS) scripts/fuzz.sh

fuzz-smoke: deps
	JOBS=$(JOBS) scripts/fuzz.sh --short

install: deps
	cmake --preset release -DCMAKE_INSTALL_PREFIX=$(PREFIX) >/dev/null
	cmake --build build/release -j $(JOBS)
	cmake --install build/release

format:
	find include src tools tests -name '*.h' -o -name '*.cc' | xargs clang-format -i

clean:
	rm -rf build
