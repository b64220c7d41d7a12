// sluice_bench/bench_result.h — the outcome of one benchmark and its db_bench-format report.
//
// Rates follow RocksDB's db_bench: ops/sec and MB/s divide by the wall-clock time from the
// first thread's start to the last thread's finish; micros/op divides the sum of the threads'
// own running times by the operations, i.e. it is the average latency one thread saw.

#ifndef SLUICE_BENCH_BENCH_RESULT_H_
#define SLUICE_BENCH_BENCH_RESULT_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sluice_bench/histogram.h"
#include "sluice_bench/metrics.h"
#include "sluice_bench/thread_stats.h"

namespace sluice_bench {

struct BenchResult {
  std::string name;
  // "write", "read", ... ("" when the benchmark has no per-operation latency).
  std::string op_label;
  // Not run (e.g. a fresh-database benchmark with --use_existing_db); see skip_reason.
  bool skipped = false;
  std::string skip_reason;

  int threads = 0;
  uint64_t ops = 0;
  uint64_t bytes = 0;
  double elapsed_seconds = 0;
  double thread_seconds = 0;
  // Point lookups and how many found their key (readrandom, readmissing, seekrandom, ...).
  bool has_lookups = false;
  uint64_t lookups = 0;
  uint64_t found = 0;
  // Extra text after the rates, e.g. "(632000 of 1000000 found)".
  std::string message;
  // --stats_interval_seconds: the throughput of each full interval since the start.
  struct Interval {
    double end_seconds;  // since the benchmark started
    double ops_per_sec;
    // Since the database was opened, at the interval's end: keys and values written, and
    // bytes flushes and compactions wrote (when the engine reports them).
    uint64_t user_bytes = 0;
    std::optional<uint64_t> background_bytes;
  };
  std::vector<Interval> intervals;
  // Lines printed after the report line (ycsb_*: latencies per operation type).
  std::string details;
  // Named numbers besides the rates (e.g. "membuffer_pct"), in the JSON only.
  Metrics metrics;
  bool has_latency = false;
  LatencyHistogram latency;

  double OpsPerSec() const;
  double MicrosPerOp() const;
  // 0 when no bytes were counted.
  double MBPerSec() const;
};

// Combines the threads of one benchmark.
BenchResult MergeThreadStats(std::string_view name, std::string_view op_label,
                             const std::vector<const ThreadStats*>& threads);

// "fillrandom   :       2.341 micros/op 427123 ops/sec 2.341 seconds 1000000 operations;
// 47.3 MB/s (extra)" — RocksDB's db_bench line, without the newline.
std::string FormatReportLine(const BenchResult& result);

// "Microseconds per <op>:\n" and the histogram, or "" without latencies.
std::string FormatLatencyReport(const BenchResult& result);

}  // namespace sluice_bench

#endif  // SLUICE_BENCH_BENCH_RESULT_H_
