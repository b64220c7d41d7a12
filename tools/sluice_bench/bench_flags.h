// sluice_bench/bench_flags.h — sluice_bench's command line: db_bench flag names, parsed by CLI11.
//
// Engine option defaults are sluice::Options' defaults, so every engine runs with the
// configuration sluice ships with unless a flag says otherwise.

#ifndef SLUICE_BENCH_BENCH_FLAGS_H_
#define SLUICE_BENCH_BENCH_FLAGS_H_

#include <cstdint>
#include <iosfwd>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "sluice_bench/key_format.h"
#include "sluice_bench/kv_engine.h"

namespace sluice_bench {

struct BenchFlags {
  std::vector<std::string> engines{"sluice"};
  std::vector<std::string> benchmarks;
  int64_t num = 1000000;
  // Reads per thread for the read benchmarks; -1 means --num.
  int64_t reads = -1;
  int threads = 1;
  int key_size = 16;
  KeyFormat key_format = KeyFormat::kDecimal;
  int value_size = 100;
  // Writes per WriteBatch (1: plain Put/Delete).
  int batch_size = 1;
  bool multiget_as_gets = false;
  // deleterange: how many range deletions, each over this many consecutive keys (db_bench's
  // names).
  int64_t max_num_range_tombstones = 0;
  int64_t range_tombstone_width = 100;
  int64_t multiread_stride = 0;
  double compression_ratio = 0.5;
  std::string db = "/tmp/sluice_bench";
  bool use_existing_db = false;
  bool histogram = false;
  // Seconds per benchmark; 0 means run --num (or --reads) operations.
  int duration = 0;
  // If > 0, the throughput of every interval of this many seconds is printed while a benchmark
  // runs and kept in its result (db_bench's flag of the same name).
  int stats_interval_seconds = 0;
  uint64_t seed = 0;
  // readupdate_skewed: the share of operations on the hot keys, and the hot keys' share of the
  // key space.
  double hot_op_fraction = 0.98;
  double hot_key_fraction = 0.02;
  // updatescan, scanwhilewriting: entries per scan.
  int scan_length = 100;
  // buffer_point, buffer_range: the queries, interleaved evenly with the inserts after the
  // first buffer_query_start of them; buffer_range scans range_selectivity of the entries
  // inserted so far.
  int buffer_queries = 200;
  double buffer_query_start = 0.75;
  double range_selectivity = 0.02;
  // buffer_mix_*: queries per insert (0.01: one query after every 100 inserts), and the
  // entries of a short and of a long scan.
  double mix_query_ratio = 0.01;
  int short_scan_length = 16;
  int long_scan_length = 1024;
  // readrandomwriterandom: share of Gets, in percent.
  int readwritepercent = 90;
  // rmw_*: the engine's own atomic read-modify-write ("native") or LockStripedRmw ("striped").
  std::string rmw = "native";
  // ycsb_*: YCSB's core workload properties (--num is recordcount). operationcount is for all
  // threads together (0: --reads); maxscanlength and requestdistribution override the
  // workload's when set; ycsb_native_rmw: ycsb_a..f's updates through the engine's atomic
  // ReadModifyWrite where it has one (false, the default: Get then Put for every engine, as
  // YCSB's RocksDB binding does; ycsb_a_native_rmw and ycsb_f_native_rmw report that path as
  // rows of their own).
  int64_t ycsb_operationcount = 0;
  int ycsb_fieldcount = 10;
  int ycsb_fieldlength = 100;
  int ycsb_maxscanlength = 0;
  std::string ycsb_requestdistribution;
  bool ycsb_writeallfields = false;
  bool ycsb_native_rmw = false;
  // Rounds of the whole run (every engine, every benchmark); round r runs the engines rotated
  // by r, and the summary gives medians and min..max (round_summary.h).
  int repeats = 1;
  // Where to write the JSON results; empty for none.
  std::string json_path;
  EngineOptions engine;

  // --reads with -1 resolved.
  uint64_t EffectiveReads() const {
    return reads < 0 ? static_cast<uint64_t>(num) : static_cast<uint64_t>(reads);
  }
};

// The values of --engine.
std::span<const std::string_view> KnownEngineNames();

// The flags before parsing: db_bench's workload defaults and sluice::Options' engine defaults.
BenchFlags DefaultBenchFlags();

struct ParseOutcome {
  // False: stop with exit_code (after --help, or a bad flag already reported on `err`).
  bool proceed = false;
  int exit_code = 0;
};

// Parses argv into *flags (which should start as DefaultBenchFlags()). Help goes to `out`,
// errors (naming the flag) to `err`.
ParseOutcome ParseBenchFlags(int argc, const char* const* argv, BenchFlags* flags,
                             std::ostream& out, std::ostream& err);

}  // namespace sluice_bench

#endif  // SLUICE_BENCH_BENCH_FLAGS_H_
