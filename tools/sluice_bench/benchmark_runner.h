// sluice_bench/benchmark_runner.h — runs the --benchmarks list against one engine.
//
// Engine-neutral: it drives a KVEngine, so every engine executes literally the same loops with
// the same key sequences. As in db_bench, each of the --threads threads performs the whole
// operation count of a benchmark on its own key sequence (seeded from --seed, the benchmark's
// position in the list and the thread id), and benchmarks that need an empty database destroy
// and reopen it first.

#ifndef SLUICE_BENCH_BENCHMARK_RUNNER_H_
#define SLUICE_BENCH_BENCHMARK_RUNNER_H_

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "sluice_bench/bench_flags.h"
#include "sluice_bench/bench_result.h"
#include "sluice_bench/benchmark_catalog.h"
#include "sluice_bench/kv_engine.h"

namespace sluice_bench {

class BenchmarkRunner {
 public:
  // The engine must be configured and closed; db_path is its directory. Reports go to `out`.
  BenchmarkRunner(const BenchFlags& flags, KVEngine* engine, std::string db_path, std::FILE* out);

  // Opens the database (destroying an old one unless --use_existing_db), runs each benchmark
  // in order, printing its report, and closes it. On an engine error, stops and returns false
  // with *error set; *results holds the benchmarks that completed.
  bool Run(std::vector<BenchResult>* results, std::string* error);

 private:
  // What one benchmark does per thread.
  struct Workload {
    BenchKind kind;
    uint64_t ops;
    size_t value_size;
    WriteMode write_mode;
    bool random_keys;
  };
  struct ThreadContext;

  Workload MakeWorkload(const BenchmarkSpec& spec) const;
  // Runs a benchmark in threads (or inline for compact/flush/stats).
  bool RunBenchmark(const BenchmarkSpec& spec, uint64_t index, BenchResult* result,
                    std::string* error);
  bool RunInline(const BenchmarkSpec& spec, BenchResult* result, std::string* error);
  bool RunThreads(const BenchmarkSpec& spec, uint64_t index, BenchResult* result,
                  std::string* error);

  void DoWrites(ThreadContext* t, const Workload& w, bool deletes);
  void DoPointReads(ThreadContext* t, const Workload& w, bool missing);
  void DoSeeks(ThreadContext* t, const Workload& w);
  void DoScan(ThreadContext* t, const Workload& w, bool reverse);
  // The extra writer of readwhilewriting: random overwrites until *stop.
  void DoBackgroundWrites(ThreadContext* t, const Workload& w, const std::atomic<bool>* stop);

  EngineStatus Reopen(bool destroy);

  const BenchFlags& flags_;
  KVEngine* engine_;
  std::string db_path_;
  std::FILE* out_;
  // The open database holds nothing written since it was created.
  bool fresh_ = false;
};

}  // namespace sluice_bench

#endif  // SLUICE_BENCH_BENCHMARK_RUNNER_H_
