// sluice_bench/engine_leveldb.cc — the LevelDB adapter of sluice_bench.
//
// LevelDB exposes fewer knobs than sluice and RocksDB: its level count, level-0 triggers, level
// sizes and single background thread are compile-time constants, it has no switch to skip its
// log, and it knows only snappy. The adapter sets what LevelDB has, reports the fixed values in
// DescribeOptions, and refuses codecs LevelDB cannot use.

#include <fmt/format.h>
#include <leveldb/cache.h>
#include <leveldb/db.h>
#include <leveldb/filter_policy.h>
#include <leveldb/iterator.h>
#include <leveldb/options.h>
#include <leveldb/write_batch.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <sstream>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "sluice_bench/engine_registry.h"
#include "sluice_bench/kv_engine.h"
#include "sluice_bench/sluice_only_options.h"

namespace sluice_bench {
namespace {

// LevelDB 1.23's built-in constants (base/internal_key.h, db/version_set.cc).
constexpr int kLevelDBNumLevels = 7;
constexpr int kLevelDBL0CompactionTrigger = 4;
constexpr int kLevelDBL0SlowdownTrigger = 8;
constexpr int kLevelDBL0StopTrigger = 12;
constexpr uint64_t kLevelDBLevel1Bytes = 10 * 1048576;
constexpr int kLevelDBLevelMultiplier = 10;
// Without a block cache of its own, LevelDB makes an 8 MiB one.
constexpr size_t kLevelDBInternalCache = 8 << 20;

EngineStatus FromLevel(const leveldb::Status& s) {
  if (s.ok()) return EngineStatus::OK();
  if (s.IsNotFound()) return EngineStatus::NotFound();
  if (s.IsNotSupportedError()) return EngineStatus::NotSupported(s.ToString());
  return EngineStatus::Error(s.ToString());
}

leveldb::Slice ToSlice(std::string_view s) { return leveldb::Slice(s.data(), s.size()); }
std::string_view ToView(const leveldb::Slice& s) { return std::string_view(s.data(), s.size()); }

// LevelDB clamps some options when it opens (SanitizeOptions); say so when it will.
template <typename T>
std::string ClampNote(T requested, T low, T high) {
  if (requested < low) return fmt::format("LevelDB raises it to its minimum {}", low);
  if (requested > high) return fmt::format("LevelDB lowers it to its maximum {}", high);
  return "";
}

class LevelBatch : public KVWriteBatch {
 public:
  void Put(std::string_view key, std::string_view value) override {
    batch_.Put(ToSlice(key), ToSlice(value));
  }
  void Delete(std::string_view key) override { batch_.Delete(ToSlice(key)); }
  void Clear() override { batch_.Clear(); }
  leveldb::WriteBatch* rep() { return &batch_; }

 private:
  leveldb::WriteBatch batch_;
};

class LevelIterator : public KVIterator {
 public:
  explicit LevelIterator(leveldb::Iterator* it) : it_(it) {}
  bool Valid() const override { return it_->Valid(); }
  void SeekToFirst() override { it_->SeekToFirst(); }
  void SeekToLast() override { it_->SeekToLast(); }
  void Seek(std::string_view target) override { it_->Seek(ToSlice(target)); }
  void Next() override { it_->Next(); }
  void Prev() override { it_->Prev(); }
  std::string_view key() const override { return ToView(it_->key()); }
  std::string_view value() const override { return ToView(it_->value()); }
  EngineStatus status() const override { return FromLevel(it_->status()); }

 private:
  std::unique_ptr<leveldb::Iterator> it_;
};

class LevelDBEngine final : public KVEngine {
 public:
  ~LevelDBEngine() override { Close(); }

  std::string_view name() const override { return "leveldb"; }
  std::string version() const override {
    return fmt::format("LevelDB {}.{}, {}", leveldb::kMajorVersion, leveldb::kMinorVersion,
                       SLUICE_BENCH_LEVELDB_ASSERTIONS ? "assertions enabled" : "release build");
  }
  std::string build_note() const override {
    if (!SLUICE_BENCH_LEVELDB_ASSERTIONS) return "";
    return fmt::format(
        "{} is built with assertions (Debian packages it so; no release build of "
        "LevelDB is packaged)",
        SLUICE_BENCH_LEVELDB_LIBRARY);
  }
  std::string_view stats_property() const override { return "leveldb.stats"; }

  EngineStatus Configure(const EngineOptions& o) override {
    if (o.compression != CompressionKind::kNone && o.compression != CompressionKind::kSnappy) {
      return EngineStatus::NotSupported(
          fmt::format("--compression_type={}: LevelDB supports only none and snappy",
                      CompressionName(o.compression)));
    }
    requested_ = o;
    options_ = leveldb::Options();
    options_.create_if_missing = o.create_if_missing;
    options_.write_buffer_size = o.write_buffer_size;
    options_.max_open_files = o.max_open_files;
    options_.block_size = o.block_size;
    options_.block_restart_interval = o.block_restart_interval;
    options_.max_file_size = o.target_file_size_base;
    options_.compression = o.compression == CompressionKind::kSnappy ? leveldb::kSnappyCompression
                                                                     : leveldb::kNoCompression;
    cache_.reset(o.cache_size > 0 ? leveldb::NewLRUCache(o.cache_size) : nullptr);
    options_.block_cache = cache_.get();
    filter_.reset(o.bloom_bits > 0 ? leveldb::NewBloomFilterPolicy(o.bloom_bits) : nullptr);
    options_.filter_policy = filter_.get();
    return EngineStatus::OK();
  }

  std::vector<OptionRow> DescribeOptions() const override {
    const leveldb::Options& o = options_;
    const EngineOptions& r = requested_;
    // A knob LevelDB hard-codes: its value, and why, when it differs from the request.
    auto fixed = [](std::string name, auto value, auto requested, std::string why) {
      return OptionRow{std::move(name), fmt::format("{} (fixed)", value),
                       value == requested ? std::string() : std::move(why)};
    };
    constexpr std::string_view kConstant = "a compile-time constant in LevelDB";
    std::vector<OptionRow> rows;
    rows.push_back({"create_if_missing", o.create_if_missing ? "true" : "false", ""});
    rows.push_back({"write_buffer_size", fmt::format("{}", o.write_buffer_size),
                    ClampNote<size_t>(o.write_buffer_size, 64 << 10, size_t{1} << 30)});
    rows.push_back(fixed("max_write_buffer_number", 2, r.max_write_buffer_number,
                         "LevelDB has one mutable and at most one immutable memtable"));
    rows.push_back({"memtable", "skiplist",
                    r.memtable == "skiplist"
                        ? ""
                        : fmt::format("--memtable={} applies to sluice only", r.memtable)});
    for (OptionRow& row : SluiceOnlyOptionRows(r, "LevelDB")) rows.push_back(std::move(row));
    rows.push_back({"num_column_families", "1",
                    r.num_column_families > 1 ? "LevelDB has no column families: ignored" : ""});
    rows.push_back({"block_size", fmt::format("{}", o.block_size),
                    ClampNote<size_t>(o.block_size, 1 << 10, 4 << 20)});
    rows.push_back({"block_restart_interval", fmt::format("{}", o.block_restart_interval), ""});
    if (cache_ != nullptr) {
      rows.push_back({"cache_size", fmt::format("{}", r.cache_size), ""});
    } else {
      rows.push_back({"cache_size", fmt::format("{}", kLevelDBInternalCache),
                      "LevelDB cannot run without a block cache: 0 gives its internal 8 MiB one"});
    }
    rows.push_back({"bloom_bits", fmt::format("{}", r.bloom_bits),
                    r.bloom_bits > 0 ? "LevelDB builds one filter per 2 KiB of data blocks, "
                                       "not one per file"
                                     : ""});
    rows.push_back({"compression", std::string(CompressionName(r.compression)), ""});
    rows.push_back(fixed("max_background_jobs", 1, r.max_background_jobs,
                         "LevelDB flushes and compacts on one background thread"));
    rows.push_back(fixed("subcompactions", 1, r.subcompactions == 0 ? 1 : r.subcompactions,
                         "LevelDB merges each compaction on its one background thread"));
    rows.push_back({"open_files", fmt::format("{}", o.max_open_files),
                    ClampNote(o.max_open_files, 74, 50000)});
    rows.push_back({"mmap_read", "true (fixed)",
                    r.mmap_read == 0 ? "LevelDB's Env maps up to 1000 table files (64-bit)" : ""});
    rows.push_back(fixed("num_levels", kLevelDBNumLevels, r.num_levels, std::string(kConstant)));
    rows.push_back(fixed("level0_file_num_compaction_trigger", kLevelDBL0CompactionTrigger,
                         r.level0_file_num_compaction_trigger, std::string(kConstant)));
    rows.push_back(fixed("level0_slowdown_writes_trigger", kLevelDBL0SlowdownTrigger,
                         r.level0_slowdown_writes_trigger, std::string(kConstant)));
    rows.push_back(fixed("level0_stop_writes_trigger", kLevelDBL0StopTrigger,
                         r.level0_stop_writes_trigger, std::string(kConstant)));
    for (const char* name : {"soft_pending_compaction_bytes_limit",
                             "hard_pending_compaction_bytes_limit", "delayed_write_rate"}) {
      rows.push_back({name, "n/a", ""});  // LevelDB slows writes by its L0 file count only
    }
    const std::string file_clamp = ClampNote<size_t>(o.max_file_size, 1 << 20, size_t{1} << 30);
    rows.push_back({"target_file_size_base", fmt::format("{}", o.max_file_size),
                    "set as max_file_size" + (file_clamp.empty() ? "" : "; " + file_clamp)});
    rows.push_back(fixed("max_bytes_for_level_base", kLevelDBLevel1Bytes,
                         r.max_bytes_for_level_base,
                         "LevelDB's level 1 holds 10 MiB (a compile-time constant)"));
    rows.push_back(fixed("max_bytes_for_level_multiplier",
                         static_cast<double>(kLevelDBLevelMultiplier),
                         r.max_bytes_for_level_multiplier, std::string(kConstant)));
    rows.push_back({"sync", r.sync ? "true" : "false", ""});
    rows.push_back({"disable_wal", "false",
                    r.disable_wal ? "LevelDB cannot skip its log: --disable_wal is ignored, every "
                                    "write still goes to the log"
                                  : ""});
    return rows;
  }

  EngineStatus Open(const std::string& path) override {
    leveldb::DB* db = nullptr;
    leveldb::Status s = leveldb::DB::Open(options_, path, &db);
    db_.reset(db);
    return FromLevel(s);
  }

  EngineStatus Close() override {
    if (db_ != nullptr) bytes_at_close_ = BackgroundBytesWritten();
    db_.reset();
    return EngineStatus::OK();
  }

  EngineStatus Destroy(const std::string& path) override {
    return FromLevel(leveldb::DestroyDB(path, options_));
  }

  EngineStatus Put(std::string_view key, std::string_view value, const WriteMode& mode) override {
    return FromLevel(db_->Put(ToWriteOptions(mode), ToSlice(key), ToSlice(value)));
  }

  EngineStatus Delete(std::string_view key, const WriteMode& mode) override {
    return FromLevel(db_->Delete(ToWriteOptions(mode), ToSlice(key)));
  }

  std::unique_ptr<KVWriteBatch> NewWriteBatch() override { return std::make_unique<LevelBatch>(); }

  EngineStatus Write(KVWriteBatch* batch, const WriteMode& mode) override {
    return FromLevel(db_->Write(ToWriteOptions(mode), static_cast<LevelBatch*>(batch)->rep()));
  }

  EngineStatus Get(std::string_view key, std::string* value) override {
    return FromLevel(db_->Get(read_options_, ToSlice(key), value));
  }

  std::unique_ptr<KVIterator> NewIterator() override {
    return std::make_unique<LevelIterator>(db_->NewIterator(read_options_));
  }

  EngineStatus Flush() override {
    return EngineStatus::NotSupported("LevelDB has no call to flush only the memtable");
  }

  // LevelDB cannot be asked whether compaction is pending: inferred from "leveldb.stats". It
  // compacts while L0 holds kL0_CompactionTrigger (4) files or a level L >= 1 holds more than
  // 10^L MB (its fixed targets), so settled means neither holds and the stats (which change
  // whenever a flush or compaction finishes) stayed the same for 2 s.
  EngineStatus WaitForCompaction(std::string* how) override {
    *how =
        "inferred: leveldb.stats unchanged for 2 s, L0 below 4 files and each level below "
        "LevelDB's size target";
    using Clock = std::chrono::steady_clock;
    const auto deadline = Clock::now() + std::chrono::hours(1);
    std::string last;
    auto quiet_since = Clock::now();
    for (;;) {
      std::string stats;
      if (!db_->GetProperty("leveldb.stats", &stats)) {
        return EngineStatus::Error("leveldb.stats is not available");
      }
      const auto now = Clock::now();
      if (stats != last) {
        last = stats;
        quiet_since = now;
      } else if (now - quiet_since >= std::chrono::seconds(2) && LevelsWithinTargets(stats)) {
        return EngineStatus::OK();
      }
      if (now > deadline) return EngineStatus::Error("compaction still pending after an hour");
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
  }

  // The Write(MB) column of "leveldb.stats" summed over the levels (L0's is the flushes);
  // whole megabytes per level.
  std::optional<uint64_t> BackgroundBytesWritten() override {
    if (db_ == nullptr) return bytes_at_close_;
    std::string stats;
    if (!db_->GetProperty("leveldb.stats", &stats)) return std::nullopt;
    double mb = 0;
    for (const LevelRow& row : LevelRows(stats)) mb += row.write_mb;
    return static_cast<uint64_t>(mb * 1048576.0);
  }

  EngineStatus CompactAll() override {
    db_->CompactRange(nullptr, nullptr);
    return EngineStatus::OK();
  }

  EngineStatus GetStats(std::string* stats) override {
    if (!db_->GetProperty("leveldb.stats", stats)) {
      return EngineStatus::Error("leveldb.stats is not available");
    }
    return EngineStatus::OK();
  }

 private:
  // A per-level row of "leveldb.stats": "level files size(MB) time(sec) read(MB) write(MB)".
  struct LevelRow {
    int level = 0;
    int files = 0;
    double size_mb = 0;
    double write_mb = 0;
  };
  static std::vector<LevelRow> LevelRows(const std::string& stats) {
    std::vector<LevelRow> rows;
    std::istringstream lines(stats);
    std::string line;
    while (std::getline(lines, line)) {
      LevelRow r;
      double seconds = 0, read_mb = 0;
      if (std::sscanf(line.c_str(), "%d %d %lf %lf %lf %lf", &r.level, &r.files, &r.size_mb,
                      &seconds, &read_mb, &r.write_mb) == 6) {
        rows.push_back(r);
      }
    }
    return rows;
  }

  // Whether every level is below the sizes at which LevelDB starts a compaction.
  static bool LevelsWithinTargets(const std::string& stats) {
    for (const LevelRow& r : LevelRows(stats)) {
      if (r.level == 0 && r.files >= 4) return false;
      if (r.level >= 1 && r.size_mb >= 10.0 * std::pow(10.0, r.level - 1)) return false;
    }
    return true;
  }

  // LevelDB has no disable_wal: only sync is passed on (see DescribeOptions).
  static leveldb::WriteOptions ToWriteOptions(const WriteMode& mode) {
    leveldb::WriteOptions w;
    w.sync = mode.sync;
    return w;
  }

  EngineOptions requested_;
  const leveldb::ReadOptions read_options_;
  leveldb::Options options_;
  // Owned here because leveldb::Options holds raw pointers; outlive db_ (declared first).
  std::unique_ptr<leveldb::Cache> cache_;
  std::unique_ptr<const leveldb::FilterPolicy> filter_;
  std::unique_ptr<leveldb::DB> db_;
  // BackgroundBytesWritten as Close found it.
  std::optional<uint64_t> bytes_at_close_;
};

}  // namespace

std::unique_ptr<KVEngine> NewLevelDBEngine() { return std::make_unique<LevelDBEngine>(); }

}  // namespace sluice_bench
