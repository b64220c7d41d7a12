// sluice_bench/benchmark_catalog.h — the benchmarks sluice_bench knows, by their db_bench names.
//
// The single list used both to validate --benchmarks and to dispatch them.

#ifndef SLUICE_BENCH_BENCHMARK_CATALOG_H_
#define SLUICE_BENCH_BENCHMARK_CATALOG_H_

#include <span>
#include <string>
#include <string_view>

namespace sluice_bench {

enum class BenchKind {
  kFillSeq,
  kFillRandom,
  kOverwrite,
  kFillSync,
  kFill100K,
  kReadRandom,
  kMultiReadRandom,
  kReadMissing,
  kReadSeq,
  kReadReverse,
  kSeekRandom,
  kDeleteRandom,
  kReadWhileWriting,
  // FloDB's experiments (docs/bench.md, "FloDB experiments").
  kWriteOnly,
  kBurst,
  kReadUpdateSkewed,
  kUpdateScan,
  kMemComponent,
  // cLSM's experiments (docs/bench.md, "cLSM experiments").
  kRmwPutIfAbsent,
  kRmwIncrement,
  kReadRandomWriteRandom,
  kReadSkewed,
  kScanWhileWriting,
  kPersist,
  // "Anatomy of the LSM Memory Buffer" (docs/bench.md, "Memory-buffer experiments").
  kBufferFootprint,
  kBufferInsert,
  kBufferPointQuery,
  kBufferRangeQuery,
  kBufferMixInsert,
  kBufferMixPoint,
  kBufferMixShortScan,
  kBufferMixLongScan,
  // YCSB's core workloads (docs/bench.md, "YCSB"): the load phase, then workloads A..F.
  kYcsbLoad,
  kYcsbA,
  kYcsbB,
  kYcsbC,
  kYcsbD,
  kYcsbE,
  kYcsbF,
  // Workloads A and F with every update through the engine's atomic read-modify-write
  // (sluice's ReadModifyWrite) instead of Get then Put; engines without one skip them.
  kYcsbANativeRmw,
  kYcsbFNativeRmw,
  kCompact,
  kFlush,
  kWaitForCompaction,
  kStats,
  kDeleteRange,
};

// The buffer paper's workload classes through the database (buffer_mix_*).
inline bool IsBufferMix(BenchKind kind) {
  return kind == BenchKind::kBufferMixInsert || kind == BenchKind::kBufferMixPoint ||
         kind == BenchKind::kBufferMixShortScan || kind == BenchKind::kBufferMixLongScan;
}

inline bool IsYcsb(BenchKind kind) {
  return kind >= BenchKind::kYcsbLoad && kind <= BenchKind::kYcsbFNativeRmw;
}

inline bool IsYcsbNativeRmw(BenchKind kind) {
  return kind == BenchKind::kYcsbANativeRmw || kind == BenchKind::kYcsbFNativeRmw;
}

// The workload letter of ycsb_a .. ycsb_f ('A' .. 'F'); 0 for any other benchmark.
inline char YcsbLetter(BenchKind kind) {
  if (kind == BenchKind::kYcsbANativeRmw) return 'A';
  if (kind == BenchKind::kYcsbFNativeRmw) return 'F';
  if (kind < BenchKind::kYcsbA || kind > BenchKind::kYcsbF) return 0;
  return static_cast<char>('A' + (static_cast<int>(kind) - static_cast<int>(BenchKind::kYcsbA)));
}

struct BenchmarkSpec {
  std::string_view name;
  BenchKind kind;
  // Starts from an empty database (skipped with --use_existing_db), as in db_bench.
  bool fresh_db;
  // What one operation is, for "Microseconds per <op>:" ("" when there is no histogram).
  std::string_view op_label;
  std::string_view summary;
};

std::span<const BenchmarkSpec> AllBenchmarks();
// nullptr if unknown. Names are case-sensitive, as in db_bench.
const BenchmarkSpec* FindBenchmark(std::string_view name);
// "fillseq, fillrandom, ..." for error messages and --help.
std::string BenchmarkNameList();

}  // namespace sluice_bench

#endif  // SLUICE_BENCH_BENCHMARK_CATALOG_H_
