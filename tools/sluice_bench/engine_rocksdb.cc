// sluice_bench/engine_rocksdb.cc — the RocksDB adapter of sluice_bench.
//
// Maps every shared option onto rocksdb::Options / BlockBasedTableOptions one to one (RocksDB
// has a knob for each), using the default skiplist memtable and leveled compaction.

#include <fmt/format.h>
#include <rocksdb/cache.h>
#include <rocksdb/convenience.h>
#include <rocksdb/db.h>
#include <rocksdb/filter_policy.h>
#include <rocksdb/iterator.h>
#include <rocksdb/options.h>
#include <rocksdb/table.h>
#include <rocksdb/version.h>
#include <rocksdb/write_batch.h>

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "sluice_bench/engine_registry.h"
#include "sluice_bench/kv_engine.h"
#include "sluice_bench/sluice_only_options.h"

namespace sluice_bench {
namespace {

EngineStatus FromRocks(const rocksdb::Status& s) {
  if (s.ok()) return EngineStatus::OK();
  if (s.IsNotFound()) return EngineStatus::NotFound();
  if (s.IsNotSupported()) return EngineStatus::NotSupported(s.ToString());
  return EngineStatus::Error(s.ToString());
}

rocksdb::Slice ToSlice(std::string_view s) { return rocksdb::Slice(s.data(), s.size()); }
std::string_view ToView(const rocksdb::Slice& s) { return std::string_view(s.data(), s.size()); }

rocksdb::CompressionType ToRocks(CompressionKind kind) {
  switch (kind) {
    case CompressionKind::kNone: return rocksdb::kNoCompression;
    case CompressionKind::kSnappy: return rocksdb::kSnappyCompression;
    case CompressionKind::kZstd: return rocksdb::kZSTD;
    case CompressionKind::kLz4: return rocksdb::kLZ4Compression;
  }
  return rocksdb::kNoCompression;
}

// The column family of a key (--num_column_families); nullptr: the default family.
rocksdb::ColumnFamilyHandle* FamilyFor(const std::vector<rocksdb::ColumnFamilyHandle*>& handles,
                                       std::string_view key) {
  if (handles.size() <= 1) return nullptr;
  return handles[FamilyIndexFor(key, handles.size())];
}

class RocksBatch : public KVWriteBatch {
 public:
  explicit RocksBatch(const std::vector<rocksdb::ColumnFamilyHandle*>* handles)
      : handles_(handles) {}
  void Put(std::string_view key, std::string_view value) override {
    if (auto* h = FamilyFor(*handles_, key)) {
      batch_.Put(h, ToSlice(key), ToSlice(value));
    } else {
      batch_.Put(ToSlice(key), ToSlice(value));
    }
  }
  void Delete(std::string_view key) override {
    if (auto* h = FamilyFor(*handles_, key)) {
      batch_.Delete(h, ToSlice(key));
    } else {
      batch_.Delete(ToSlice(key));
    }
  }
  void Clear() override { batch_.Clear(); }
  rocksdb::WriteBatch* rep() { return &batch_; }

 private:
  const std::vector<rocksdb::ColumnFamilyHandle*>* const handles_;
  rocksdb::WriteBatch batch_;
};

class RocksIterator : public KVIterator {
 public:
  explicit RocksIterator(rocksdb::Iterator* it) : it_(it) {}
  bool Valid() const override { return it_->Valid(); }
  void SeekToFirst() override { it_->SeekToFirst(); }
  void SeekToLast() override { it_->SeekToLast(); }
  void Seek(std::string_view target) override { it_->Seek(ToSlice(target)); }
  void Next() override { it_->Next(); }
  void Prev() override { it_->Prev(); }
  std::string_view key() const override { return ToView(it_->key()); }
  std::string_view value() const override { return ToView(it_->value()); }
  EngineStatus status() const override { return FromRocks(it_->status()); }

 private:
  std::unique_ptr<rocksdb::Iterator> it_;
};

class RocksDBEngine final : public KVEngine {
 public:
  ~RocksDBEngine() override { Close(); }

  std::string_view name() const override { return "rocksdb"; }
  std::string version() const override {
    return fmt::format("RocksDB {}.{}.{}", ROCKSDB_MAJOR, ROCKSDB_MINOR, ROCKSDB_PATCH);
  }
  std::string_view stats_property() const override { return "rocksdb.stats"; }

  EngineStatus Configure(const EngineOptions& o) override {
    const rocksdb::CompressionType codec = ToRocks(o.compression);
    bool codec_built_in = false;
    for (rocksdb::CompressionType t : rocksdb::GetSupportedCompressions()) {
      codec_built_in = codec_built_in || t == codec;
    }
    if (!codec_built_in && codec != rocksdb::kNoCompression) {
      return EngineStatus::NotSupported(
          fmt::format("--compression_type={}: this RocksDB library was built without it",
                      CompressionName(o.compression)));
    }
    requested_ = o;
    options_ = rocksdb::Options();
    options_.create_if_missing = o.create_if_missing;
    options_.write_buffer_size = o.write_buffer_size;
    options_.max_write_buffer_number = o.max_write_buffer_number;
    options_.max_background_jobs = o.max_background_jobs;
    if (o.subcompactions > 0) options_.max_subcompactions = static_cast<uint32_t>(o.subcompactions);
    if (o.compaction_pri == CompactionPriKind::kMinOverlappingRatio) {
      options_.compaction_pri = rocksdb::kMinOverlappingRatio;
    } else if (o.compaction_pri == CompactionPriKind::kRoundRobin) {
      options_.compaction_pri = rocksdb::kRoundRobin;
    }
    options_.max_open_files = o.max_open_files;
    if (o.mmap_read >= 0) options_.allow_mmap_reads = o.mmap_read == 1;
    options_.num_levels = o.num_levels;
    options_.level0_file_num_compaction_trigger = o.level0_file_num_compaction_trigger;
    options_.level0_slowdown_writes_trigger = o.level0_slowdown_writes_trigger;
    options_.level0_stop_writes_trigger = o.level0_stop_writes_trigger;
    options_.soft_pending_compaction_bytes_limit = o.soft_pending_compaction_bytes_limit;
    options_.hard_pending_compaction_bytes_limit = o.hard_pending_compaction_bytes_limit;
    options_.delayed_write_rate = o.delayed_write_rate;
    options_.target_file_size_base = o.target_file_size_base;
    options_.max_bytes_for_level_base = o.max_bytes_for_level_base;
    options_.max_bytes_for_level_multiplier = o.max_bytes_for_level_multiplier;
    options_.compression = codec;

    table_options_ = rocksdb::BlockBasedTableOptions();
    table_options_.block_size = o.block_size;
    table_options_.block_restart_interval = o.block_restart_interval;
    if (o.cache_size > 0) {
      table_options_.block_cache = rocksdb::NewLRUCache(o.cache_size);
    } else {
      table_options_.no_block_cache = true;
    }
    if (o.bloom_bits > 0) {
      table_options_.filter_policy.reset(rocksdb::NewBloomFilterPolicy(o.bloom_bits));
    }
    options_.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table_options_));
    return EngineStatus::OK();
  }

  std::vector<OptionRow> DescribeOptions() const override {
    const rocksdb::Options& o = options_;
    const rocksdb::BlockBasedTableOptions& t = table_options_;
    std::vector<OptionRow> rows = {
        {"create_if_missing", o.create_if_missing ? "true" : "false", ""},
        {"write_buffer_size", fmt::format("{}", o.write_buffer_size), ""},
        {"max_write_buffer_number", fmt::format("{}", o.max_write_buffer_number),
         o.max_write_buffer_number < 2 ? "RocksDB raises values below 2 to 2 when opening" : ""},
        {"memtable", "skiplist",
         requested_.memtable == "skiplist"
             ? ""
             : fmt::format("--memtable={} applies to sluice only; RocksDB uses its skiplist",
                           requested_.memtable)},
        {"block_size", fmt::format("{}", t.block_size), ""},
        {"block_restart_interval", fmt::format("{}", t.block_restart_interval), ""},
        {"cache_size", t.no_block_cache ? "0" : fmt::format("{}", t.block_cache->GetCapacity()),
         ""},
        {"bloom_bits", fmt::format("{}", requested_.bloom_bits), ""},
        {"compression", std::string(CompressionName(requested_.compression)), ""},
        {"max_background_jobs", fmt::format("{}", o.max_background_jobs), ""},
        {"subcompactions", fmt::format("{}", o.max_subcompactions),
         requested_.subcompactions == 0 ? "RocksDB's default" : ""},
        {"compaction_pri",
         o.compaction_pri == rocksdb::kMinOverlappingRatio ? "min_overlapping_ratio"
         : o.compaction_pri == rocksdb::kRoundRobin
             ? "round_robin"
             : fmt::format("{}", static_cast<int>(o.compaction_pri)),
         requested_.compaction_pri == CompactionPriKind::kDefault ? "RocksDB's default" : ""},
        {"open_files", fmt::format("{}", o.max_open_files), ""},
        {"mmap_read", o.allow_mmap_reads ? "true" : "false",
         requested_.mmap_read < 0 ? "RocksDB's default" : ""},
        {"num_levels", fmt::format("{}", o.num_levels), ""},
        {"level0_file_num_compaction_trigger",
         fmt::format("{}", o.level0_file_num_compaction_trigger), ""},
        {"level0_slowdown_writes_trigger", fmt::format("{}", o.level0_slowdown_writes_trigger), ""},
        {"level0_stop_writes_trigger", fmt::format("{}", o.level0_stop_writes_trigger), ""},
        {"soft_pending_compaction_bytes_limit",
         fmt::format("{}", o.soft_pending_compaction_bytes_limit), ""},
        {"hard_pending_compaction_bytes_limit",
         fmt::format("{}", o.hard_pending_compaction_bytes_limit), ""},
        {"delayed_write_rate", fmt::format("{}", o.delayed_write_rate),
         o.delayed_write_rate == 0 ? "0: RocksDB starts a slowdown at 16 MiB/s" : ""},
        {"target_file_size_base", fmt::format("{}", o.target_file_size_base), ""},
        {"max_bytes_for_level_base", fmt::format("{}", o.max_bytes_for_level_base), ""},
        {"max_bytes_for_level_multiplier", fmt::format("{}", o.max_bytes_for_level_multiplier), ""},
        {"num_column_families", fmt::format("{}", requested_.num_column_families),
         requested_.num_column_families > 1 ? "keys spread by hash; scans unsupported" : ""},
        {"sync", requested_.sync ? "true" : "false", ""},
        {"disable_wal", requested_.disable_wal ? "true" : "false", ""},
    };
    const std::vector<OptionRow> flodb = SluiceOnlyOptionRows(requested_, "RocksDB");
    rows.insert(rows.begin() + 4, flodb.begin(), flodb.end());  // after memtable
    return rows;
  }

  EngineStatus Open(const std::string& path) override {
    rocksdb::DB* db = nullptr;
    handles_.clear();
    rocksdb::Status s;
    if (requested_.num_column_families <= 1) {
      s = rocksdb::DB::Open(options_, path, &db);
    } else {
      std::vector<rocksdb::ColumnFamilyDescriptor> families;
      families.emplace_back(rocksdb::kDefaultColumnFamilyName, options_);
      for (int i = 1; i < requested_.num_column_families; i++) {
        families.emplace_back(fmt::format("cf{}", i), options_);
      }
      rocksdb::DBOptions db_options(options_);
      db_options.create_missing_column_families = true;
      s = rocksdb::DB::Open(db_options, path, families, &handles_, &db);
    }
    db_.reset(db);
    return FromRocks(s);
  }

  EngineStatus Close() override {
    if (db_ == nullptr) return EngineStatus::OK();
    for (rocksdb::ColumnFamilyHandle* h : handles_) db_->DestroyColumnFamilyHandle(h);
    handles_.clear();
    rocksdb::Status s = db_->Close();
    db_.reset();
    return FromRocks(s);
  }

  EngineStatus Destroy(const std::string& path) override {
    return FromRocks(rocksdb::DestroyDB(path, options_));
  }

  EngineStatus Put(std::string_view key, std::string_view value, const WriteMode& mode) override {
    return FromRocks(db_->Put(ToWriteOptions(mode), Family(key), ToSlice(key), ToSlice(value)));
  }

  EngineStatus Delete(std::string_view key, const WriteMode& mode) override {
    return FromRocks(db_->Delete(ToWriteOptions(mode), Family(key), ToSlice(key)));
  }

  EngineStatus DeleteRange(std::string_view begin, std::string_view end,
                           const WriteMode& mode) override {
    if (handles_.size() > 1) {
      return EngineStatus::NotSupported("deleterange with --num_column_families > 1");
    }
    return FromRocks(db_->DeleteRange(ToWriteOptions(mode), db_->DefaultColumnFamily(),
                                      ToSlice(begin), ToSlice(end)));
  }

  std::unique_ptr<KVWriteBatch> NewWriteBatch() override {
    return std::make_unique<RocksBatch>(&handles_);
  }

  EngineStatus Write(KVWriteBatch* batch, const WriteMode& mode) override {
    return FromRocks(db_->Write(ToWriteOptions(mode), static_cast<RocksBatch*>(batch)->rep()));
  }

  EngineStatus Get(std::string_view key, std::string* value) override {
    return FromRocks(db_->Get(read_options_, Family(key), ToSlice(key), value));
  }

  void MultiGet(const std::vector<std::string_view>& keys, std::vector<std::string>* values,
                std::vector<EngineStatus>* statuses) override {
    std::vector<rocksdb::Slice> slices;
    std::vector<rocksdb::ColumnFamilyHandle*> families;
    slices.reserve(keys.size());
    families.reserve(keys.size());
    for (std::string_view k : keys) {
      slices.push_back(ToSlice(k));
      families.push_back(Family(k));
    }
    // The batched MultiGet (db_bench's --multiread_batched), RocksDB's faster one: it sorts the
    // keys and reads the blocks of a file together.
    std::vector<rocksdb::PinnableSlice> pinned(keys.size());
    std::vector<rocksdb::Status> results(keys.size());
    db_->MultiGet(read_options_, keys.size(), families.data(), slices.data(), pinned.data(),
                  results.data(), /*sorted_input=*/false);
    values->resize(keys.size());
    statuses->clear();
    for (size_t i = 0; i < keys.size(); i++) {
      (*values)[i].assign(pinned[i].data(), pinned[i].size());
      statuses->push_back(FromRocks(results[i]));
    }
  }

  std::unique_ptr<KVIterator> NewIterator() override {
    if (handles_.size() > 1) return std::make_unique<UnsupportedIterator>();
    return std::make_unique<RocksIterator>(db_->NewIterator(read_options_));
  }

  // Every family (the default one alone unless --num_column_families > 1).
  std::vector<rocksdb::ColumnFamilyHandle*> Families() {
    return handles_.empty() ? std::vector<rocksdb::ColumnFamilyHandle*>{db_->DefaultColumnFamily()}
                            : handles_;
  }

  EngineStatus Flush() override {
    return FromRocks(db_->Flush(rocksdb::FlushOptions(), Families()));
  }

  EngineStatus CompactAll() override {
    for (rocksdb::ColumnFamilyHandle* h : Families()) {
      rocksdb::Status s = db_->CompactRange(rocksdb::CompactRangeOptions(), h, nullptr, nullptr);
      if (!s.ok()) return FromRocks(s);
    }
    return EngineStatus::OK();
  }

  EngineStatus WaitForCompaction(std::string* how) override {
    // RocksDB 7.8 has no DB::WaitForCompact (added in 8.x): its counters are polled instead.
    const std::vector<std::string> names = {
        "rocksdb.mem-table-flush-pending", "rocksdb.num-running-flushes",
        "rocksdb.compaction-pending", "rocksdb.num-running-compactions"};
    return WaitUntilCountersZero(names, how,
                                 [this](const std::string& name) -> std::optional<uint64_t> {
                                   uint64_t sum = 0;  // over the families
                                   for (rocksdb::ColumnFamilyHandle* h : Families()) {
                                     uint64_t v = 0;
                                     if (!db_->GetIntProperty(h, name, &v)) return std::nullopt;
                                     sum += v;
                                   }
                                   return sum;
                                 });
  }

  // The compaction statistics' Sum row, whose L0 part is the flushes.
  std::optional<uint64_t> BackgroundBytesWritten() override {
    std::map<std::string, std::string> stats;
    if (!db_->GetMapProperty(rocksdb::DB::Properties::kCFStats, &stats)) return std::nullopt;
    const auto it = stats.find("compaction.Sum.WriteGB");
    if (it == stats.end()) return std::nullopt;
    return static_cast<uint64_t>(std::stod(it->second) * 1073741824.0);
  }

  EngineStatus GetStats(std::string* stats) override {
    if (!db_->GetProperty("rocksdb.stats", stats)) {
      return EngineStatus::Error("rocksdb.stats is not available");
    }
    return EngineStatus::OK();
  }

 private:
  static rocksdb::WriteOptions ToWriteOptions(const WriteMode& mode) {
    rocksdb::WriteOptions w;
    w.sync = mode.sync;
    w.disableWAL = mode.disable_wal;
    return w;
  }

  EngineOptions requested_;
  const rocksdb::ReadOptions read_options_;
  rocksdb::Options options_;
  rocksdb::BlockBasedTableOptions table_options_;
  // The key's family (the default one unless --num_column_families > 1).
  rocksdb::ColumnFamilyHandle* Family(std::string_view key) {
    rocksdb::ColumnFamilyHandle* h = FamilyFor(handles_, key);
    return h != nullptr ? h : db_->DefaultColumnFamily();
  }

  std::unique_ptr<rocksdb::DB> db_;
  std::vector<rocksdb::ColumnFamilyHandle*> handles_;  // empty: the default family only
};

}  // namespace

std::unique_ptr<KVEngine> NewRocksDBEngine() { return std::make_unique<RocksDBEngine>(); }

}  // namespace sluice_bench
