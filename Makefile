# sluice — top-level commands. Every target installs what is missing first
# (scripts/install-deps.sh), so each works on a fresh machine.
#
#   make bench      Release build, then the headline benchmark (sluice vs RocksDB vs LevelDB)
#   make test       every test (GoogleTest suites through ctest)
#   make test-asan  every test under AddressSanitizer + UBSan
#   make test-tsan  every test under ThreadSanitizer
#   make bench-flodb  the FloDB paper's experiments (bench/flodb_experiments.sh, ~31 min)
#   make bench-clsm   the cLSM paper's experiments (bench/clsm_experiments.sh, ~14 min)
#   make bench-buffer the memory-buffer paper's experiments 1-6 (bench/buffer_experiments.sh)
#   make install PREFIX=/some/dir   headers, library, tools, CMake package, sluice.pc

PREFIX ?= /usr/local
JOBS ?= $(shell nproc)
# The headline benchmark's size; raise it on a bigger machine: make bench BENCH_NUM=5000000
BENCH_NUM ?= 1000000
BENCH_FLAGS ?= --engine=sluice,rocksdb,leveldb --benchmarks=fillseq,fillrandom,overwrite,readrandom,readseq --num=$(BENCH_NUM) --db=/tmp/sluice_bench

.PHONY: all deps build bench bench-flodb bench-clsm bench-buffer test test-asan test-tsan install format clean

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

bench-buffer: build
	bench/buffer_experiments.sh

test: deps
	cmake --preset dev >/dev/null
	cmake --build build/dev -j $(JOBS)
	ctest --preset dev -j $(JOBS)

test-asan: deps
	cmake --preset asan >/dev/null
	cmake --build build/asan -j $(JOBS)
	ASAN_OPTIONS=detect_leaks=1 ctest --preset asan -j $(JOBS)

test-tsan: deps
	cmake --preset tsan >/dev/null
	cmake --build build/tsan -j $(JOBS)
	TSAN_OPTIONS=halt_on_error=1 ctest --preset tsan -j $(JOBS)

install: deps
	cmake --preset release -DCMAKE_INSTALL_PREFIX=$(PREFIX) >/dev/null
	cmake --build build/release -j $(JOBS)
	cmake --install build/release

format:
	find include src tools tests -name '*.h' -o -name '*.cc' | xargs clang-format -i

clean:
	rm -rf build
