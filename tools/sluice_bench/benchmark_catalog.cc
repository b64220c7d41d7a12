// sluice_bench/benchmark_catalog.cc — the table of known benchmarks (see benchmark_catalog.h).

#include "sluice_bench/benchmark_catalog.h"

#include <array>

namespace sluice_bench {
namespace {

constexpr std::array kBenchmarks = {
    BenchmarkSpec{"fillseq", BenchKind::kFillSeq, true, "write",
                  "write --num keys in ascending order into a new database"},
    BenchmarkSpec{"fillrandom", BenchKind::kFillRandom, true, "write",
                  "write --num uniformly random keys into a new database"},
    BenchmarkSpec{"overwrite", BenchKind::kOverwrite, false, "write",
                  "write --num uniformly random keys into the existing database"},
    BenchmarkSpec{"fillsync", BenchKind::kFillSync, true, "write",
                  "write --num/1000 random keys with sync=true into a new database"},
    BenchmarkSpec{"fill100K", BenchKind::kFill100K, true, "write",
                  "write --num/1000 random keys with 100000-byte values into a new database"},
    BenchmarkSpec{"readrandom", BenchKind::kReadRandom, false, "read",
                  "--reads point reads of uniformly random keys"},
    BenchmarkSpec{"multireadrandom", BenchKind::kMultiReadRandom, false, "read",
                  "--reads point reads of uniformly random keys, --batch_size keys per MultiGet "
                  "(LevelDB, which has none: Gets in a loop)"},
    BenchmarkSpec{"readmissing", BenchKind::kReadMissing, false, "read",
                  "--reads point reads of keys that do not exist"},
    BenchmarkSpec{"readseq", BenchKind::kReadSeq, false, "read",
                  "iterate forward from the first key over up to --reads entries"},
    BenchmarkSpec{"readreverse", BenchKind::kReadReverse, false, "read",
                  "iterate backward from the last key over up to --reads entries"},
    BenchmarkSpec{"seekrandom", BenchKind::kSeekRandom, false, "seek",
                  "--reads iterator seeks to uniformly random keys"},
    BenchmarkSpec{"deleterandom", BenchKind::kDeleteRandom, false, "delete",
                  "delete --num uniformly random keys"},
    BenchmarkSpec{"deleterange", BenchKind::kDeleteRange, false, "delete",
                  "--max_num_range_tombstones range deletions of --range_tombstone_width keys "
                  "each, at random keys (LevelDB has none: skipped)"},
    BenchmarkSpec{"readwhilewriting", BenchKind::kReadWhileWriting, false, "read",
                  "--threads readers doing readrandom while one extra thread overwrites"},
    BenchmarkSpec{"writeonly", BenchKind::kWriteOnly, true, "write",
                  "50% Puts, 50% Deletes of uniformly random keys into a new database"},
    BenchmarkSpec{"burst", BenchKind::kBurst, true, "write",
                  "random Puts for --duration seconds (10 if unset) into a new database"},
    BenchmarkSpec{"readupdate_skewed", BenchKind::kReadUpdateSkewed, false, "op",
                  "50% Gets, 50% Puts; --hot_op_fraction of them on --hot_key_fraction of the "
                  "keys (run it after a fill)"},
    BenchmarkSpec{"updatescan", BenchKind::kUpdateScan, false, "op",
                  "95% random Puts, 5% scans of --scan_length entries; counts keys accessed "
                  "(run it after a fill)"},
    BenchmarkSpec{"memcomponent", BenchKind::kMemComponent, false, "write",
                  "random writes straight into sluice's memory component, dropped when full "
                  "(sluice only)"},
    BenchmarkSpec{"persist", BenchKind::kPersist, false, "",
                  "--num entries written to SST files by sluice's flush code: the persist "
                  "ceiling (sluice only)"},
    BenchmarkSpec{"buffer_footprint", BenchKind::kBufferFootprint, false, "",
                  "--num distinct random keys into one memory component without a budget: its "
                  "bytes, and the entries that fit in --write_buffer_size (sluice only)"},
    BenchmarkSpec{"buffer_insert", BenchKind::kBufferInsert, false, "insert",
                  "--num distinct random keys into one memory component, each insert timed "
                  "(sluice only)"},
    BenchmarkSpec{"buffer_point", BenchKind::kBufferPointQuery, false, "query",
                  "--num inserts into one memory component with --buffer_queries point reads of "
                  "inserted keys spread over the inserts after --buffer_query_start of them; "
                  "the reads are timed (sluice only)"},
    BenchmarkSpec{"buffer_range", BenchKind::kBufferRangeQuery, false, "query",
                  "as buffer_point with range scans of --range_selectivity of the entries "
                  "inserted so far (sluice only)"},
    BenchmarkSpec{"buffer_mix_insert", BenchKind::kBufferMixInsert, true, "op",
                  "--num distinct keys in random order into a new database (the DBTest'24 "
                  "paper's insert-only class); reports flushes and compactions"},
    BenchmarkSpec{"buffer_mix_point", BenchKind::kBufferMixPoint, true, "op",
                  "as buffer_mix_insert with --mix_query_ratio point reads per insert, of keys "
                  "already inserted"},
    BenchmarkSpec{"buffer_mix_short_scan", BenchKind::kBufferMixShortScan, true, "op",
                  "as buffer_mix_point with scans of --short_scan_length entries"},
    BenchmarkSpec{"buffer_mix_long_scan", BenchKind::kBufferMixLongScan, true, "op",
                  "as buffer_mix_point with scans of --long_scan_length entries"},
    BenchmarkSpec{"rmw_putifabsent", BenchKind::kRmwPutIfAbsent, true, "rmw",
                  "atomic put-if-absent of uniformly random keys into a new database (--rmw: "
                  "the engine's own or lock-striped)"},
    BenchmarkSpec{"rmw_increment", BenchKind::kRmwIncrement, true, "rmw",
                  "atomic increments of 8-byte counters at uniformly random keys of --num, in a "
                  "new database (--rmw as rmw_putifabsent)"},
    BenchmarkSpec{"readrandomwriterandom", BenchKind::kReadRandomWriteRandom, false, "op",
                  "--readwritepercent% Gets, the rest Puts, of uniformly random keys"},
    BenchmarkSpec{"readskewed", BenchKind::kReadSkewed, false, "read",
                  "--reads Gets, --hot_op_fraction of them on --hot_key_fraction of the keys "
                  "(run it after a fill)"},
    BenchmarkSpec{"scanwhilewriting", BenchKind::kScanWhileWriting, false, "scan",
                  "--threads threads scanning --scan_length entries from random keys through "
                  "iterators (snapshots) while one extra thread overwrites; ops are keys read"},
    BenchmarkSpec{"ycsb_load", BenchKind::kYcsbLoad, true, "insert",
                  "YCSB's load phase: --num records (--ycsb_fieldcount x --ycsb_fieldlength "
                  "bytes) under hashed keys into a new database"},
    BenchmarkSpec{"ycsb_a", BenchKind::kYcsbA, false, "op",
                  "YCSB workload A: 50% reads, 50% updates, zipfian (after ycsb_load)"},
    BenchmarkSpec{"ycsb_b", BenchKind::kYcsbB, false, "op",
                  "YCSB workload B: 95% reads, 5% updates, zipfian"},
    BenchmarkSpec{"ycsb_c", BenchKind::kYcsbC, false, "op", "YCSB workload C: reads, zipfian"},
    BenchmarkSpec{"ycsb_d", BenchKind::kYcsbD, false, "op",
                  "YCSB workload D: 95% reads, 5% inserts, latest"},
    BenchmarkSpec{"ycsb_e", BenchKind::kYcsbE, false, "op",
                  "YCSB workload E: 95% scans of 1..100 records, 5% inserts, zipfian"},
    BenchmarkSpec{"ycsb_f", BenchKind::kYcsbF, false, "op",
                  "YCSB workload F: 50% reads, 50% read-modify-writes, zipfian"},
    BenchmarkSpec{"ycsb_a_native_rmw", BenchKind::kYcsbANativeRmw, false, "op",
                  "ycsb_a with each update through the engine's atomic read-modify-write "
                  "(sluice only; the others skip it)"},
    BenchmarkSpec{"ycsb_f_native_rmw", BenchKind::kYcsbFNativeRmw, false, "op",
                  "ycsb_f with each read-modify-write through the engine's atomic one "
                  "(sluice only; the others skip it)"},
    BenchmarkSpec{"compact", BenchKind::kCompact, false, "", "compact the whole key range"},
    BenchmarkSpec{"flush", BenchKind::kFlush, false, "", "flush the memory component"},
    BenchmarkSpec{"waitforcompaction", BenchKind::kWaitForCompaction, false, "",
                  "wait until the engine has no flush or compaction pending or running"},
    BenchmarkSpec{"stats", BenchKind::kStats, false, "", "print the engine's stats property"},
};

}  // namespace

std::span<const BenchmarkSpec> AllBenchmarks() { return kBenchmarks; }

const BenchmarkSpec* FindBenchmark(std::string_view name) {
  for (const BenchmarkSpec& spec : kBenchmarks) {
    if (spec.name == name) return &spec;
  }
  return nullptr;
}

std::string BenchmarkNameList() {
  std::string out;
  for (const BenchmarkSpec& spec : kBenchmarks) {
    if (!out.empty()) out += ", ";
    out += spec.name;
  }
  return out;
}

}  // namespace sluice_bench
