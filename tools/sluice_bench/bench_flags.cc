// sluice_bench/bench_flags.cc — flag definitions and validation (see bench_flags.h).

#include "sluice_bench/bench_flags.h"

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <array>
#include <cstddef>
#include <limits>
#include <map>
#include <ostream>
#include <set>
#include <utility>

#include "sluice/options.h"
#include "sluice_bench/benchmark_catalog.h"
#include "sluice_bench/key_format.h"

namespace sluice_bench {
namespace {

constexpr std::array<std::string_view, 3> kEngineNames = {"sluice", "rocksdb", "leveldb"};

constexpr std::string_view kDefaultBenchmarks[] = {
    "fillseq", "fillrandom",  "overwrite",        "readrandom",   "readmissing", "seekrandom",
    "readseq", "readreverse", "readwhilewriting", "deleterandom", "stats"};

CompressionKind FromSluice(sluice::CompressionType type) {
  switch (type) {
    case sluice::CompressionType::kNone: return CompressionKind::kNone;
    case sluice::CompressionType::kSnappy: return CompressionKind::kSnappy;
    case sluice::CompressionType::kZstd: return CompressionKind::kZstd;
    case sluice::CompressionType::kLz4: return CompressionKind::kLz4;
  }
  return CompressionKind::kNone;
}

// Accepts a known benchmark name (or an empty list item, which is dropped later).
CLI::Validator BenchmarkNameValidator() {
  return CLI::Validator(
      [](std::string& name) -> std::string {
        if (name.empty() || FindBenchmark(name) != nullptr) return "";
        return fmt::format("unknown benchmark '{}' (known: {})", name, BenchmarkNameList());
      },
      "BENCHMARK");
}

// Checks that need several flags at once; throws CLI::ValidationError naming the flag.
void CheckCombinations(BenchFlags* f, const std::string& compression,
                       const std::string& level0_compression) {
  std::vector<std::string> benchmarks;
  for (std::string& b : f->benchmarks) {
    if (!b.empty()) benchmarks.push_back(std::move(b));
  }
  f->benchmarks = std::move(benchmarks);
  if (f->benchmarks.empty()) {
    throw CLI::ValidationError("--benchmarks", "no benchmark given");
  }

  std::set<std::string> seen;
  for (const std::string& e : f->engines) {
    if (!seen.insert(e).second) {
      throw CLI::ValidationError("--engine", fmt::format("'{}' is listed twice", e));
    }
  }

  const int needed = MinKeySizeFor(f->key_format, static_cast<uint64_t>(f->num));
  if (f->key_size < needed) {
    throw CLI::ValidationError(
        "--key_size",
        f->key_format == KeyFormat::kBinary
            ? fmt::format("{} is too short for --key_format=binary: keys need {} bytes",
                          f->key_size, needed)
            : fmt::format("{} is too short for --num={}: keys need {} digits", f->key_size, f->num,
                          needed));
  }

  if (!ParseCompression(compression, &f->engine.compression)) {
    throw CLI::ValidationError("--compression_type",
                               fmt::format("unknown codec '{}'", compression));
  }
  if (!ParseCompression(level0_compression, &f->engine.level0_compression)) {
    throw CLI::ValidationError("--level0_compression_type",
                               fmt::format("unknown codec '{}'", level0_compression));
  }
  if (f->engine.level0_slowdown_writes_trigger < f->engine.level0_file_num_compaction_trigger ||
      f->engine.level0_stop_writes_trigger < f->engine.level0_slowdown_writes_trigger) {
    throw CLI::ValidationError(
        "--level0_slowdown_writes_trigger",
        fmt::format("the level-0 triggers must satisfy compaction ({}) <= slowdown ({}) <= "
                    "stop ({})",
                    f->engine.level0_file_num_compaction_trigger,
                    f->engine.level0_slowdown_writes_trigger,
                    f->engine.level0_stop_writes_trigger));
  }
}

}  // namespace

std::span<const std::string_view> KnownEngineNames() { return kEngineNames; }

BenchFlags DefaultBenchFlags() {
  const sluice::Options defaults;
  BenchFlags f;
  f.benchmarks.assign(std::begin(kDefaultBenchmarks), std::end(kDefaultBenchmarks));
  EngineOptions& e = f.engine;
  e.create_if_missing = true;
  e.write_buffer_size = defaults.write_buffer_size;
  e.max_write_buffer_number = defaults.max_write_buffer_number;
  e.block_size = defaults.block_size;
  e.block_restart_interval = defaults.block_restart_interval;
  e.cache_size = defaults.block_cache_size;
  e.bloom_bits = defaults.bloom_bits_per_key;
  e.compression = FromSluice(defaults.compression);
  e.max_background_jobs = defaults.max_background_jobs;
  // sluice's default (what Options::max_subcompactions 0 means), given to RocksDB too, whose
  // own default is 1.
  e.subcompactions = sluice::Options::DefaultMaxSubcompactions();
  e.max_open_files = defaults.max_open_files;
  e.mmap_read = defaults.allow_mmap_reads ? 1 : 0;
  e.num_levels = defaults.num_levels;
  e.level0_file_num_compaction_trigger = defaults.level0_file_num_compaction_trigger;
  e.level0_slowdown_writes_trigger = defaults.level0_slowdown_writes_trigger;
  e.level0_stop_writes_trigger = defaults.level0_stop_writes_trigger;
  e.soft_pending_compaction_bytes_limit = defaults.soft_pending_compaction_bytes_limit;
  e.hard_pending_compaction_bytes_limit = defaults.hard_pending_compaction_bytes_limit;
  e.delayed_write_rate = defaults.delayed_write_rate;
  e.target_file_size_base = defaults.target_file_size_base;
  e.max_bytes_for_level_base = defaults.max_bytes_for_level_base;
  e.max_bytes_for_level_multiplier = defaults.max_bytes_for_level_multiplier;
  e.memtable = defaults.memtable;
  e.membuffer_fraction = defaults.membuffer_fraction;
  e.membuffer_partition_bits = defaults.membuffer_partition_bits;
  e.flodb_drain_threads = defaults.flodb_drain_threads;
  e.flodb_use_membuffer = true;  // FloDBOptions' defaults (not Options fields)
  e.flodb_multi_insert = true;
  e.prefix_length = defaults.prefix_length;
  e.bucket_count = defaults.bucket_count;
  e.level0_idle_compaction_ms = defaults.level0_idle_compaction_ms;
  e.level0_scan_compaction = defaults.level0_scan_compaction;
  e.level0_backlog_flush_merge = defaults.level0_backlog_flush_merge;
  e.level0_compression = FromSluice(defaults.level0_compression);
  e.sync = false;
  e.disable_wal = false;
  return f;
}

ParseOutcome ParseBenchFlags(int argc, const char* const* argv, BenchFlags* flags,
                             std::ostream& out, std::ostream& err) {
  BenchFlags& f = *flags;
  EngineOptions& e = f.engine;
  std::string compression(CompressionName(e.compression));
  std::string level0_compression(CompressionName(e.level0_compression));
  std::string key_format(KeyFormatName(f.key_format));
  const std::vector<std::string> engine_names(KnownEngineNames().begin(), KnownEngineNames().end());

  CLI::App app{
      "sluice_bench: runs one db_bench-style workload, with the same options, on sluice, "
      "RocksDB and LevelDB.\nSizes accept a unit: --write_buffer_size=64MB (KB = 1024 bytes).",
      "sluice_bench"};
  app.option_defaults()->always_capture_default();
  app.get_formatter()->column_width(44);

  // --- workload ---
  app.add_option("--engine", f.engines,
                 "Engines to run, comma-separated; each uses the directory <db>/<engine>")
      ->delimiter(',')
      ->check(CLI::IsMember(engine_names));
  app.add_option("--benchmarks", f.benchmarks,
                 "Comma-separated benchmarks, run in order. Known: " + BenchmarkNameList())
      ->delimiter(',')
      ->check(BenchmarkNameValidator());
  app.add_option("--num", f.num, "Keys in the key space, and operations per thread of writes")
      ->check(CLI::Range(int64_t{1}, int64_t{1} << 48));
  app.add_option("--reads", f.reads, "Operations per thread of reads (-1: --num)")
      ->check(CLI::Range(int64_t{-1}, std::numeric_limits<int64_t>::max()));
  app.add_option("--threads", f.threads, "Concurrent threads per benchmark")
      ->check(CLI::Range(1, 1024));
  app.add_option("--key_size", f.key_size, "Bytes per key")->check(CLI::Range(1, 1024));
  app.add_option("--key_format", key_format,
                 "decimal: zero-padded digits (db_bench's); binary: BE64(k * floor(2^64 / num)) "
                 "padded with zero bytes (needs --key_size >= 8)")
      ->check(CLI::IsMember({"decimal", "binary"}));
  app.add_option("--value_size", f.value_size, "Bytes per value")->check(CLI::Range(0, 64 << 20));
  app.add_option(
         "--batch_size", f.batch_size,
         "Writes per WriteBatch (1: single Put/Delete); keys per MultiGet in multireadrandom")
      ->check(CLI::Range(1, 1 << 20));
  app.add_option("--multiread_stride", f.multiread_stride,
                 "multireadrandom: 0, every key of a batch random; N > 0, a batch is a random key "
                 "and the keys N, 2N, ... after it (db_bench's flag)")
      ->check(CLI::Range(int64_t{0}, int64_t{1} << 40));
  app.add_flag("--multiget_as_gets", f.multiget_as_gets,
               "multireadrandom through Gets in a loop for every engine: the baseline a MultiGet "
               "is measured against, with the same per-batch timing");
  app.add_option("--max_num_range_tombstones", f.max_num_range_tombstones,
                 "deleterange: how many range deletions it writes (db_bench's flag)")
      ->check(CLI::Range(int64_t{0}, int64_t{1} << 30));
  app.add_option("--range_tombstone_width", f.range_tombstone_width,
                 "deleterange: consecutive keys each range deletion covers (db_bench's flag)")
      ->check(CLI::Range(int64_t{1}, int64_t{1} << 40));
  app.add_option("--compression_ratio", f.compression_ratio,
                 "Fraction of its size a value compresses to")
      ->check(CLI::Range(0.0, 1.0));
  app.add_option("--duration", f.duration,
                 "Seconds to run each benchmark for instead of a count of operations (0: off)")
      ->check(CLI::Range(0, 365 * 24 * 3600));
  app.add_option("--stats_interval_seconds", f.stats_interval_seconds,
                 "Print (and keep in the JSON) the throughput of every interval of this many "
                 "seconds (0: none)")
      ->check(CLI::Range(0, 24 * 3600));
  app.add_option("--seed", f.seed, "Base seed of the random key sequences");
  app.add_option("--hot_op_fraction", f.hot_op_fraction,
                 "readupdate_skewed, readskewed: share of the operations on the hot keys")
      ->check(CLI::Range(0.0, 1.0));
  app.add_option("--hot_key_fraction", f.hot_key_fraction,
                 "readupdate_skewed, readskewed: the hot keys' share of the key space")
      ->check(CLI::Range(0.0, 1.0));
  app.add_option("--buffer_queries", f.buffer_queries,
                 "buffer_point, buffer_range: queries interleaved with the inserts")
      ->check(CLI::Range(1, 1 << 30));
  app.add_option("--buffer_query_start", f.buffer_query_start,
                 "buffer_point, buffer_range: share of the inserts done before the queries start")
      ->check(CLI::Range(0.0, 1.0));
  app.add_option("--range_selectivity", f.range_selectivity,
                 "buffer_range: share of the entries inserted so far that one scan visits")
      ->check(CLI::Range(0.0, 1.0));
  app.add_option("--mix_query_ratio", f.mix_query_ratio,
                 "buffer_mix_point, buffer_mix_*_scan: queries per insert")
      ->check(CLI::Range(0.0, 1000.0));
  app.add_option("--short_scan_length", f.short_scan_length,
                 "buffer_mix_short_scan: entries per scan")
      ->check(CLI::Range(1, 1 << 20));
  app.add_option("--long_scan_length", f.long_scan_length, "buffer_mix_long_scan: entries per scan")
      ->check(CLI::Range(1, 1 << 24));
  app.add_option("--scan_length", f.scan_length, "updatescan, scanwhilewriting: entries per scan")
      ->check(CLI::Range(1, 1 << 20));
  app.add_option("--readwritepercent", f.readwritepercent,
                 "readrandomwriterandom: percentage of Gets (the rest are Puts)")
      ->check(CLI::Range(0, 100));
  app.add_option("--rmw", f.rmw,
                 "rmw_*: native (the engine's own atomic read-modify-write; sluice's is "
                 "lock-free) or striped (a lock per key stripe around Get and Put, any engine)")
      ->check(CLI::IsMember({"native", "striped"}));
  app.add_option("--ycsb_operationcount", f.ycsb_operationcount,
                 "ycsb_a..f: YCSB operationcount, all threads together (0: --reads)")
      ->check(CLI::Range(int64_t{0}, std::numeric_limits<int64_t>::max()));
  app.add_option("--ycsb_fieldcount", f.ycsb_fieldcount, "ycsb_*: YCSB fieldcount per record")
      ->check(CLI::Range(1, 1 << 16));
  app.add_option("--ycsb_fieldlength", f.ycsb_fieldlength, "ycsb_*: YCSB fieldlength in bytes")
      ->check(CLI::Range(1, 1 << 20));
  app.add_option("--ycsb_maxscanlength", f.ycsb_maxscanlength,
                 "ycsb_e: YCSB maxscanlength (0: the workload's, 100 for E)")
      ->check(CLI::Range(0, 1 << 20));
  app.add_option("--ycsb_requestdistribution", f.ycsb_requestdistribution,
                 "ycsb_a..f: YCSB requestdistribution (default: the workload's)")
      ->check(CLI::IsMember({"uniform", "zipfian", "latest"}));
  app.add_flag("--ycsb_writeallfields", f.ycsb_writeallfields,
               "ycsb_*: YCSB writeallfields (updates write a whole record, no read)");
  app.add_flag("--ycsb_native_rmw", f.ycsb_native_rmw,
               "ycsb_a..f: updates through the engine's atomic ReadModifyWrite where it has "
               "one (default: Get then Put for every engine; ycsb_a_native_rmw and "
               "ycsb_f_native_rmw are those rows)");
  app.add_option("--repeats", f.repeats,
                 "Rounds of the whole run, the engines' order rotated each round; the summary "
                 "gives the median and min..max of every figure and ratio")
      ->check(CLI::Range(1, 1000));
  app.add_option("--db", f.db, "Parent directory of the databases")
      ->check(CLI::NonexistentPath | CLI::ExistingDirectory);
  app.add_flag("--use_existing_db", f.use_existing_db,
               "Open existing databases; benchmarks that need a fresh one are skipped");
  app.add_flag("--histogram", f.histogram, "Print per-operation latency histograms");
  app.add_option("--json", f.json_path, "Also write the results as JSON to this file");

  // --- writes ---
  app.add_flag("--sync", e.sync, "Sync every write to disk");
  app.add_flag("--disable_wal", e.disable_wal,
               "Skip the write-ahead log (LevelDB cannot: ignored there, and reported)");

  // --- engine options ---
  app.add_option("--write_buffer_size", e.write_buffer_size, "Bytes of a memtable")
      ->transform(CLI::AsSizeValue(false))
      ->check(CLI::Range(size_t{4096}, size_t{1} << 40));
  app.add_option("--initial_write_buffer_size", e.initial_write_buffer_size,
                 "sluice: bytes of a family's first memory component (each full one doubles the "
                 "next, up to --write_buffer_size); 0: sluice's default")
      ->transform(CLI::AsSizeValue(false));
  app.add_option("--max_write_buffer_number", e.max_write_buffer_number,
                 "Memtables (mutable + immutable) allowed at once")
      ->check(CLI::Range(1, 64));
  app.add_option("--memtable", e.memtable, "sluice's Options::memtable (other engines: skiplist)")
      ->check(CLI::Validator(
          [](std::string& s) -> std::string { return s.empty() ? "must not be empty" : ""; },
          "NAME"));
  app.add_option("--membuffer_fraction", e.membuffer_fraction,
                 "sluice (flodb): share of --write_buffer_size given to the Membuffer")
      ->check(CLI::Validator(
          [](std::string& s) -> std::string {
            double v = 0;
            if (CLI::detail::lexical_cast(s, v) && v > 0 && v <= 0.9) return "";
            return "must be in (0, 0.9]";
          },
          "(0, 0.9]"));
  app.add_option("--membuffer_partition_bits", e.membuffer_partition_bits,
                 "sluice (flodb): Membuffer partitions = 2^bits, by the keys' top bits")
      ->check(CLI::Range(0, 16));
  app.add_option("--flodb_drain_threads", e.flodb_drain_threads,
                 "sluice (flodb): threads draining the Membuffer into the Memtable")
      ->check(CLI::Range(1, 64));
  app.add_flag("--flodb_use_membuffer", e.flodb_use_membuffer,
               "sluice (flodb): 0 disables the Membuffer (every write goes to the Memtable)");
  app.add_flag("--flodb_multi_insert", e.flodb_multi_insert,
               "sluice (flodb): 0 drains with one insert per entry instead of multi-insert");
  app.add_option("--prefix_length", e.prefix_length,
                 "sluice (hash-skiplist, hash-linklist): leading key bytes that pick a bucket")
      ->check(CLI::Range(size_t{1}, size_t{1} << 16));
  app.add_option("--bucket_count", e.bucket_count,
                 "sluice (hash-skiplist, hash-linklist): buckets; 0 = one per KiB of "
                 "--write_buffer_size")
      ->check(CLI::Range(size_t{0}, size_t{1} << 30));
  app.add_option("--num_column_families", e.num_column_families,
                 "sluice: column families the keys are spread over (by a hash of the key; "
                 "scans unsupported above 1)")
      ->check(CLI::Range(1, 65536));
  app.add_option("--level0_idle_compaction_ms", e.level0_idle_compaction_ms,
                 "sluice: compact L0 into L1 once writes stopped this long (0: never)")
      ->check(CLI::Range(0, 86400000));
  app.add_option("--level0_scan_compaction", e.level0_scan_compaction,
                 "sluice: compact L0 into L1 once scans paid for its files (1, the default, or 0)");
  app.add_option("--level0_backlog_flush_merge", e.level0_backlog_flush_merge,
                 "sluice: memory components one flush merges into one L0 file while L0 is in a "
                 "deep backlog, twice its compaction trigger (1: never merge)")
      ->check(CLI::Range(1, 64));
  app.add_option("--block_size", e.block_size, "Uncompressed bytes per data block")
      ->transform(CLI::AsSizeValue(false))
      ->check(CLI::Range(size_t{256}, size_t{64} << 20));
  app.add_option("--block_restart_interval", e.block_restart_interval,
                 "Keys between restart points in a data block")
      ->check(CLI::Range(1, 1 << 16));
  app.add_option("--cache_size", e.cache_size, "Bytes of block cache (0: none)")
      ->transform(CLI::AsSizeValue(false))
      ->check(CLI::Range(size_t{0}, size_t{1} << 44));
  app.add_option("--bloom_bits", e.bloom_bits, "Bloom filter bits per key (0: no filter)")
      ->check(CLI::Range(0, 64));
  app.add_option("--compression_type", compression, "Block compression")
      ->transform(CLI::IsMember({"none", "snappy", "zstd", "lz4"}, CLI::ignore_case));
  app.add_option("--level0_compression_type", level0_compression,
                 "sluice: block compression of the L0 files flushes write")
      ->transform(CLI::IsMember({"none", "snappy", "zstd", "lz4"}, CLI::ignore_case));
  app.add_option("--max_background_jobs", e.max_background_jobs,
                 "Background threads for flush and compaction")
      ->check(CLI::Range(1, 256));
  app.add_option("--subcompactions", e.subcompactions,
                 "Key ranges one compaction is split into, merged in parallel (default: sluice's, "
                 "one per core up to 4, for sluice and RocksDB alike; 0: each engine's own, "
                 "RocksDB's 1)")
      ->check(CLI::Range(0, 256));
  app.add_option("--compaction_pri", e.compaction_pri,
                 "File a compaction into the next level takes: default (each engine's own: "
                 "min_overlapping_ratio for sluice and RocksDB), round_robin (or db_bench's "
                 "4), min_overlapping_ratio (or 3); LevelDB is always round-robin")
      ->transform(CLI::CheckedTransformer(
          std::map<std::string, CompactionPriKind>{
              {"default", CompactionPriKind::kDefault},
              {"round_robin", CompactionPriKind::kRoundRobin},
              {"4", CompactionPriKind::kRoundRobin},
              {"min_overlapping_ratio", CompactionPriKind::kMinOverlappingRatio},
              {"3", CompactionPriKind::kMinOverlappingRatio}},
          CLI::ignore_case));
  app.add_option("--rocksdb_library", e.rocksdb_library,
                 "The RocksDB shared library the rocksdb engine loads (its C API); default: the "
                 "release build scripts/install-deps.sh fetches, else Debian's")
      ->check(CLI::ExistingFile);
  app.add_option("--open_files", e.max_open_files, "SST files kept open")
      ->check(CLI::Range(1, 1 << 24));
  app.add_option(
         "--mmap_read", e.mmap_read,
         "Read SST files through memory mappings: 1, 0, or -1 for each engine's own default "
         "(default: sluice's, on, given to RocksDB too; LevelDB always maps them)")
      ->check(CLI::Range(-1, 1));
  app.add_option("--num_levels", e.num_levels, "Levels of the LSM tree")->check(CLI::Range(2, 64));
  app.add_option("--level0_file_num_compaction_trigger", e.level0_file_num_compaction_trigger,
                 "L0 files that start an L0 compaction")
      ->check(CLI::Range(1, 1 << 16));
  app.add_option("--level0_slowdown_writes_trigger", e.level0_slowdown_writes_trigger,
                 "L0 files at which writes are slowed")
      ->check(CLI::Range(1, 1 << 16));
  app.add_option("--level0_stop_writes_trigger", e.level0_stop_writes_trigger,
                 "L0 files at which writes stop")
      ->check(CLI::Range(1, 1 << 16));
  app.add_option("--soft_pending_compaction_bytes_limit", e.soft_pending_compaction_bytes_limit,
                 "Compaction debt at which writes are slowed (0: never)")
      ->transform(CLI::AsSizeValue(false));
  app.add_option("--hard_pending_compaction_bytes_limit", e.hard_pending_compaction_bytes_limit,
                 "Compaction debt at which writes stop (0: never)")
      ->transform(CLI::AsSizeValue(false));
  app.add_option("--delayed_write_rate", e.delayed_write_rate,
                 "Bytes/s a slowdown starts from (0: sluice measures the write rate, RocksDB "
                 "uses 16 MiB/s)")
      ->transform(CLI::AsSizeValue(false));
  app.add_option("--target_file_size_base", e.target_file_size_base,
                 "Target bytes of a compaction output file")
      ->transform(CLI::AsSizeValue(false))
      ->check(CLI::Range(uint64_t{4096}, uint64_t{1} << 44));
  app.add_option("--max_bytes_for_level_base", e.max_bytes_for_level_base, "Bytes of level 1")
      ->transform(CLI::AsSizeValue(false))
      ->check(CLI::Range(uint64_t{4096}, uint64_t{1} << 50));
  app.add_option("--max_bytes_for_level_multiplier", e.max_bytes_for_level_multiplier,
                 "Growth factor from one level to the next")
      ->check(CLI::Range(1.0, 1000.0));

  try {
    app.parse(argc, argv);
    ParseKeyFormat(key_format, &f.key_format);  // checked by IsMember
    CheckCombinations(&f, compression, level0_compression);
  } catch (const CLI::ParseError& error) {
    return ParseOutcome{false, app.exit(error, out, err)};
  }
  return ParseOutcome{true, 0};
}

}  // namespace sluice_bench
