// sluice_bench/engine_rocksdb.cc — the RocksDB adapter of sluice_bench, over RocksDB's C API.
//
// The library is loaded at run time (rocksdb_c_api.h): the release build fetched from Maven
// Central by default, any other with --rocksdb_library. Every shared option maps onto the RocksDB
// option of the same meaning, using the default skiplist memtable and leveled compaction:
// sluice's level-0 codec becomes compression_per_level's first entry; compaction_pri and
// delayed_write_rate, which Debian's 7.8.3 C API lacks setters for, go through
// rocksdb_get_options_from_string, which every version has. The database is always opened with
// its column families named (the default one alone unless --num_column_families > 1), so every
// call goes through a family handle.

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <istream>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "sluice_bench/engine_registry.h"
#include "sluice_bench/kv_engine.h"
#include "sluice_bench/rocksdb_c_api.h"
#include "sluice_bench/sluice_only_options.h"

namespace sluice_bench {
namespace {

// RocksDB's CompressionType values (rocksdb/c.h's rocksdb_*_compression).
int ToRocks(CompressionKind kind) {
  switch (kind) {
    case CompressionKind::kNone: return rocksdb_no_compression;
    case CompressionKind::kSnappy: return rocksdb_snappy_compression;
    case CompressionKind::kZstd: return rocksdb_zstd_compression;
    case CompressionKind::kLz4: return rocksdb_lz4_compression;
  }
  return rocksdb_no_compression;
}

// Takes an error the C API allocated: OK if there is none; frees it.
EngineStatus TakeError(const RocksDBLibrary& lib, char* err) {
  if (err == nullptr) return EngineStatus::OK();
  std::string message(err);
  lib.free(err);
  if (message.rfind("NotFound", 0) == 0) return EngineStatus::NotFound();
  if (message.rfind("Not implemented", 0) == 0) return EngineStatus::NotSupported(message);
  return EngineStatus::Error(message);
}

class RocksBatch : public KVWriteBatch {
 public:
  RocksBatch(const RocksDBLibrary* lib, const std::vector<rocksdb_column_family_handle_t*>* h)
      : lib_(lib), handles_(h), batch_(lib->writebatch_create()) {}
  ~RocksBatch() override { lib_->writebatch_destroy(batch_); }
  void Put(std::string_view key, std::string_view value) override {
    lib_->writebatch_put_cf(batch_, Family(key), key.data(), key.size(), value.data(),
                            value.size());
  }
  void Delete(std::string_view key) override {
    lib_->writebatch_delete_cf(batch_, Family(key), key.data(), key.size());
  }
  void Clear() override { lib_->writebatch_clear(batch_); }
  rocksdb_writebatch_t* rep() { return batch_; }

 private:
  rocksdb_column_family_handle_t* Family(std::string_view key) const {
    return (*handles_)[FamilyIndexFor(key, handles_->size())];
  }
  const RocksDBLibrary* const lib_;
  const std::vector<rocksdb_column_family_handle_t*>* const handles_;
  rocksdb_writebatch_t* const batch_;
};

class RocksIterator : public KVIterator {
 public:
  RocksIterator(const RocksDBLibrary* lib, rocksdb_iterator_t* it) : lib_(lib), it_(it) {}
  ~RocksIterator() override { lib_->iter_destroy(it_); }
  bool Valid() const override { return lib_->iter_valid(it_) != 0; }
  void SeekToFirst() override { lib_->iter_seek_to_first(it_); }
  void SeekToLast() override { lib_->iter_seek_to_last(it_); }
  void Seek(std::string_view target) override {
    lib_->iter_seek(it_, target.data(), target.size());
  }
  void Next() override { lib_->iter_next(it_); }
  void Prev() override { lib_->iter_prev(it_); }
  std::string_view key() const override {
    size_t n = 0;
    const char* p = lib_->iter_key(it_, &n);
    return std::string_view(p, n);
  }
  std::string_view value() const override {
    size_t n = 0;
    const char* p = lib_->iter_value(it_, &n);
    return std::string_view(p, n);
  }
  EngineStatus status() const override {
    char* err = nullptr;
    lib_->iter_get_error(it_, &err);
    return TakeError(*lib_, err);
  }

 private:
  const RocksDBLibrary* const lib_;
  rocksdb_iterator_t* const it_;
};

// Bytes of the table files a RocksDB LOG records as created (its EVENT_LOG_v1 lines with
// "event": "table_file_creation", one per file a flush or compaction wrote, with "file_size").
// The LOG starts anew when a database opens, so this covers the time since then.
uint64_t TableBytesCreated(std::istream& log) {
  uint64_t total = 0;
  std::string line;
  const std::string size_field = "\"file_size\": ";
  while (std::getline(log, line)) {
    if (line.find("\"event\": \"table_file_creation\"") == std::string::npos) continue;
    const size_t at = line.find(size_field);
    if (at != std::string::npos)
      total += std::strtoull(line.c_str() + at + size_field.size(), nullptr, 10);
  }
  return total;
}

class RocksDBEngine final : public KVEngine {
 public:
  ~RocksDBEngine() override {
    Close();
    ReleaseOptions();
  }

  std::string_view name() const override { return "rocksdb"; }
  std::string version() const override {
    return lib_ == nullptr ? "RocksDB (not loaded)" : lib_->Describe();
  }
  std::string_view stats_property() const override { return "rocksdb.stats"; }
  std::string build_note() const override { return library_note_; }

  EngineStatus Configure(const EngineOptions& o) override {
    std::string path = o.rocksdb_library;
    library_note_.clear();
    if (path.empty()) {
      const RocksDBLibraryChoice choice = DefaultRocksDBLibrary();
      path = choice.path;
      library_note_ = choice.note;
    }
    EngineStatus s = LoadRocksDBLibrary(path, &lib_);
    if (!s.ok()) return s;
    if (lib_->assertions) {
      library_note_ += fmt::format(
          "{}{} is built with assertions: it is not what a user would "
          "deploy, and runs slower than a release build",
          library_note_.empty() ? "" : "; ", lib_->path);
    }
    requested_ = o;
    ReleaseOptions();
    const RocksDBLibrary& lib = *lib_;

    // What the C API of 7.8.3 has no setter for, through the options string.
    std::string text;
    if (o.compaction_pri == CompactionPriKind::kMinOverlappingRatio) {
      text += "compaction_pri=kMinOverlappingRatio;";
    } else if (o.compaction_pri == CompactionPriKind::kRoundRobin) {
      text += "compaction_pri=kRoundRobin;";
    }
    if (o.delayed_write_rate > 0)
      text += fmt::format("delayed_write_rate={};", o.delayed_write_rate);
    rocksdb_options_t* base = lib.options_create();
    options_ = lib.options_create();
    char* err = nullptr;
    lib.get_options_from_string(base, text.c_str(), options_, &err);
    lib.options_destroy(base);
    s = TakeError(lib, err);
    if (!s.ok()) return EngineStatus::Error(fmt::format("options \"{}\": {}", text, s.message()));

    lib.options_set_create_if_missing(options_, o.create_if_missing ? 1 : 0);
    lib.options_set_create_missing_column_families(options_, 1);
    lib.options_set_write_buffer_size(options_, o.write_buffer_size);
    lib.options_set_max_write_buffer_number(options_, o.max_write_buffer_number);
    lib.options_set_max_background_jobs(options_, o.max_background_jobs);
    if (o.subcompactions > 0) {
      lib.options_set_max_subcompactions(options_, static_cast<uint32_t>(o.subcompactions));
    }
    lib.options_set_max_open_files(options_, o.max_open_files);
    if (o.mmap_read >= 0) lib.options_set_allow_mmap_reads(options_, o.mmap_read == 1 ? 1 : 0);
    lib.options_set_num_levels(options_, o.num_levels);
    lib.options_set_level0_file_num_compaction_trigger(options_,
                                                       o.level0_file_num_compaction_trigger);
    lib.options_set_level0_slowdown_writes_trigger(options_, o.level0_slowdown_writes_trigger);
    lib.options_set_level0_stop_writes_trigger(options_, o.level0_stop_writes_trigger);
    lib.options_set_soft_pending_compaction_bytes_limit(options_,
                                                        o.soft_pending_compaction_bytes_limit);
    lib.options_set_hard_pending_compaction_bytes_limit(options_,
                                                        o.hard_pending_compaction_bytes_limit);
    lib.options_set_target_file_size_base(options_, o.target_file_size_base);
    lib.options_set_max_bytes_for_level_base(options_, o.max_bytes_for_level_base);
    lib.options_set_max_bytes_for_level_multiplier(options_, o.max_bytes_for_level_multiplier);
    lib.options_set_compression(options_, ToRocks(o.compression));
    // Level 0 as sluice's flushes write it, every other level with --compression_type.
    per_level_.assign(static_cast<size_t>(std::max(o.num_levels, 1)), ToRocks(o.compression));
    per_level_[0] = ToRocks(o.level0_compression);
    lib.options_set_compression_per_level(options_, per_level_.data(), per_level_.size());

    table_ = lib.block_based_options_create();
    lib.block_based_options_set_block_size(table_, o.block_size);
    lib.block_based_options_set_block_restart_interval(table_, o.block_restart_interval);
    if (o.cache_size > 0) {
      cache_ = lib.cache_create_lru(o.cache_size);
      lib.block_based_options_set_block_cache(table_, cache_);
    } else {
      lib.block_based_options_set_no_block_cache(table_, 1);
    }
    if (o.bloom_bits > 0) {
      // The table options take ownership of the policy.
      lib.block_based_options_set_filter_policy(table_,
                                                lib.filterpolicy_create_bloom_full(o.bloom_bits));
    }
    lib.options_set_block_based_table_factory(options_, table_);

    read_options_ = lib.readoptions_create();
    for (size_t i = 0; i < 4; i++) {
      write_options_[i] = lib.writeoptions_create();
      lib.writeoptions_set_sync(write_options_[i], (i & 1) != 0 ? 1 : 0);
      lib.writeoptions_disable_WAL(write_options_[i], (i & 2) != 0 ? 1 : 0);
    }
    return EngineStatus::OK();
  }

  std::vector<OptionRow> DescribeOptions() const override {
    const EngineOptions& o = requested_;
    std::vector<OptionRow> rows = {
        {"library", lib_->path, library_note_},
        {"create_if_missing", o.create_if_missing ? "true" : "false", ""},
        {"write_buffer_size", fmt::format("{}", o.write_buffer_size), ""},
        {"max_write_buffer_number", fmt::format("{}", o.max_write_buffer_number),
         o.max_write_buffer_number < 2 ? "RocksDB raises values below 2 to 2 when opening" : ""},
        {"memtable", "skiplist",
         o.memtable == "skiplist"
             ? ""
             : fmt::format("--memtable={} applies to sluice only; RocksDB uses its skiplist",
                           o.memtable)},
        {"block_size", fmt::format("{}", o.block_size), ""},
        {"block_restart_interval", fmt::format("{}", o.block_restart_interval), ""},
        {"cache_size", fmt::format("{}", o.cache_size), ""},
        {"bloom_bits", fmt::format("{}", o.bloom_bits), ""},
        {"compression", std::string(CompressionName(o.compression)), ""},
        {"level0_compression", std::string(CompressionName(o.level0_compression)),
         o.level0_compression == o.compression
             ? ""
             : "compression_per_level's level 0; sluice compresses a flush with "
               "--compression_type while level 0 is backlogged, RocksDB never"},
        {"max_background_jobs", fmt::format("{}", o.max_background_jobs), ""},
        {"subcompactions", o.subcompactions > 0 ? fmt::format("{}", o.subcompactions) : "1",
         o.subcompactions > 0 ? "" : "RocksDB's default"},
        {"compaction_pri",
         o.compaction_pri == CompactionPriKind::kRoundRobin ? "round_robin"
                                                            : "min_overlapping_ratio",
         o.compaction_pri == CompactionPriKind::kDefault ? "RocksDB's default" : ""},
        {"open_files", fmt::format("{}", o.max_open_files), ""},
        {"mmap_read", o.mmap_read == 1 ? "true" : "false",
         o.mmap_read < 0 ? "RocksDB's default" : ""},
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
        {"num_column_families", fmt::format("{}", o.num_column_families),
         o.num_column_families > 1 ? "keys spread by hash; scans unsupported" : ""},
        {"sync", o.sync ? "true" : "false", ""},
        {"disable_wal", o.disable_wal ? "true" : "false", ""},
    };
    const std::vector<OptionRow> flodb = SluiceOnlyOptionRows(requested_, "RocksDB");
    rows.insert(rows.begin() + 5, flodb.begin(), flodb.end());  // after memtable
    return rows;
  }

  EngineStatus Open(const std::string& path) override {
    const RocksDBLibrary& lib = *lib_;
    const int families = std::max(requested_.num_column_families, 1);
    std::vector<std::string> names{"default"};
    for (int i = 1; i < families; i++) names.push_back(fmt::format("cf{}", i));
    std::vector<const char*> name_ptrs;
    std::vector<const rocksdb_options_t*> family_options;
    for (const std::string& n : names) {
      name_ptrs.push_back(n.c_str());
      family_options.push_back(options_);
    }
    handles_.assign(names.size(), nullptr);
    db_path_ = path;
    char* err = nullptr;
    db_ = lib.open_column_families(options_, path.c_str(), families, name_ptrs.data(),
                                   family_options.data(), handles_.data(), &err);
    EngineStatus s = TakeError(lib, err);
    if (!s.ok()) {
      db_ = nullptr;
      handles_.clear();
    }
    return s;
  }

  EngineStatus Close() override {
    if (db_ == nullptr) return EngineStatus::OK();
    for (rocksdb_column_family_handle_t* h : handles_) lib_->column_family_handle_destroy(h);
    handles_.clear();
    lib_->close(db_);
    db_ = nullptr;
    return EngineStatus::OK();
  }

  EngineStatus Destroy(const std::string& path) override {
    char* err = nullptr;
    lib_->destroy_db(options_, path.c_str(), &err);
    return TakeError(*lib_, err);
  }

  EngineStatus Put(std::string_view key, std::string_view value, const WriteMode& mode) override {
    char* err = nullptr;
    lib_->put_cf(db_, WriteOptionsFor(mode), Family(key), key.data(), key.size(), value.data(),
                 value.size(), &err);
    return TakeError(*lib_, err);
  }

  EngineStatus Delete(std::string_view key, const WriteMode& mode) override {
    char* err = nullptr;
    lib_->delete_cf(db_, WriteOptionsFor(mode), Family(key), key.data(), key.size(), &err);
    return TakeError(*lib_, err);
  }

  EngineStatus DeleteRange(std::string_view begin, std::string_view end,
                           const WriteMode& mode) override {
    if (handles_.size() > 1) {
      return EngineStatus::NotSupported("deleterange with --num_column_families > 1");
    }
    char* err = nullptr;
    lib_->delete_range_cf(db_, WriteOptionsFor(mode), handles_[0], begin.data(), begin.size(),
                          end.data(), end.size(), &err);
    return TakeError(*lib_, err);
  }

  std::unique_ptr<KVWriteBatch> NewWriteBatch() override {
    return std::make_unique<RocksBatch>(lib_.get(), &handles_);
  }

  EngineStatus Write(KVWriteBatch* batch, const WriteMode& mode) override {
    char* err = nullptr;
    lib_->write(db_, WriteOptionsFor(mode), static_cast<RocksBatch*>(batch)->rep(), &err);
    return TakeError(*lib_, err);
  }

  EngineStatus Get(std::string_view key, std::string* value) override {
    char* err = nullptr;
    rocksdb_pinnableslice_t* found =
        lib_->get_pinned_cf(db_, read_options_, Family(key), key.data(), key.size(), &err);
    if (err != nullptr) return TakeError(*lib_, err);
    if (found == nullptr) return EngineStatus::NotFound();
    size_t n = 0;
    const char* p = lib_->pinnableslice_value(found, &n);
    value->assign(p, n);
    lib_->pinnableslice_destroy(found);
    return EngineStatus::OK();
  }

  void MultiGet(const std::vector<std::string_view>& keys, std::vector<std::string>* values,
                std::vector<EngineStatus>* statuses) override {
    const size_t n = keys.size();
    std::vector<const char*> key_ptrs(n);
    std::vector<size_t> key_sizes(n);
    for (size_t i = 0; i < n; i++) {
      key_ptrs[i] = keys[i].data();
      key_sizes[i] = keys[i].size();
    }
    std::vector<char*> errs(n, nullptr);
    values->resize(n);
    statuses->assign(n, EngineStatus::OK());
    if (handles_.size() == 1) {
      // The batched MultiGet (db_bench's --multiread_batched), RocksDB's faster one: it sorts
      // the keys and reads the blocks of a file together.
      std::vector<rocksdb_pinnableslice_t*> found(n, nullptr);
      lib_->batched_multi_get_cf(db_, read_options_, handles_[0], n, key_ptrs.data(),
                                 key_sizes.data(), found.data(), errs.data(),
                                 /*sorted_input=*/false);
      for (size_t i = 0; i < n; i++) {
        size_t len = 0;
        const char* p = found[i] != nullptr ? lib_->pinnableslice_value(found[i], &len) : nullptr;
        (*statuses)[i] = TakeLookup(errs[i], p, len, &(*values)[i]);
        if (found[i] != nullptr) lib_->pinnableslice_destroy(found[i]);
      }
      return;
    }
    // Keys over several families: the C API's batched call takes one family, so the plain
    // MultiGet, which copies each value into memory the caller frees.
    std::vector<const rocksdb_column_family_handle_t*> families(n);
    for (size_t i = 0; i < n; i++) families[i] = Family(keys[i]);
    std::vector<char*> found(n, nullptr);
    std::vector<size_t> sizes(n, 0);
    lib_->multi_get_cf(db_, read_options_, families.data(), n, key_ptrs.data(), key_sizes.data(),
                       found.data(), sizes.data(), errs.data());
    for (size_t i = 0; i < n; i++) {
      (*statuses)[i] = TakeLookup(errs[i], found[i], sizes[i], &(*values)[i]);
      if (found[i] != nullptr) lib_->free(found[i]);
    }
  }

  std::unique_ptr<KVIterator> NewIterator() override {
    if (handles_.size() > 1) return std::make_unique<UnsupportedIterator>();
    return std::make_unique<RocksIterator>(
        lib_.get(), lib_->create_iterator_cf(db_, read_options_, handles_[0]));
  }

  EngineStatus Flush() override {
    rocksdb_flushoptions_t* options = lib_->flushoptions_create();
    lib_->flushoptions_set_wait(options, 1);
    EngineStatus s;
    for (rocksdb_column_family_handle_t* h : handles_) {
      char* err = nullptr;
      lib_->flush_cf(db_, options, h, &err);
      s = TakeError(*lib_, err);
      if (!s.ok()) break;
    }
    lib_->flushoptions_destroy(options);
    return s;
  }

  EngineStatus CompactAll() override {
    for (rocksdb_column_family_handle_t* h : handles_) {
      lib_->compact_range_cf(db_, h, nullptr, 0, nullptr, 0);
    }
    return EngineStatus::OK();
  }

  EngineStatus WaitForCompaction(std::string* how) override {
    // The same counters on every version (7.8.3 has no rocksdb_wait_for_compact).
    const std::vector<std::string> names = {
        "rocksdb.mem-table-flush-pending", "rocksdb.num-running-flushes",
        "rocksdb.compaction-pending", "rocksdb.num-running-compactions"};
    return WaitUntilCountersZero(names, how,
                                 [this](const std::string& name) -> std::optional<uint64_t> {
                                   uint64_t sum = 0;  // over the families
                                   for (rocksdb_column_family_handle_t* h : handles_) {
                                     uint64_t v = 0;
                                     if (lib_->property_int_cf(db_, h, name.c_str(), &v) != 0) {
                                       return std::nullopt;
                                     }
                                     sum += v;
                                   }
                                   return sum;
                                 });
  }

  // From the LOG (see TableBytesCreated), which RocksDB writes through a buffer it flushes
  // every few seconds: complete once the database is closed, when the runner asks.
  std::optional<uint64_t> BackgroundBytesWritten() override {
    if (db_path_.empty()) return std::nullopt;
    std::ifstream log(db_path_ + "/LOG");
    if (!log) return std::nullopt;
    return TableBytesCreated(log);
  }

  // rocksdb.stats, then the block cache's capacity and usage (which rocksdb.stats prints only
  // once its periodic cache statistics have run).
  EngineStatus GetStats(std::string* stats) override {
    rocksdb_column_family_handle_t* h = handles_.empty() ? nullptr : handles_[0];
    *stats = Property(h, "rocksdb.stats");
    if (stats->empty()) return EngineStatus::Error("rocksdb.stats is not available");
    for (const char* name : {"rocksdb.block-cache-capacity", "rocksdb.block-cache-usage"}) {
      uint64_t v = 0;
      if (lib_->property_int_cf(db_, h, name, &v) == 0) *stats += fmt::format("{}: {}\n", name, v);
    }
    return EngineStatus::OK();
  }

 private:
  // One key's answer of a MultiGet: its error (taken), NotFound (value null), or the value.
  EngineStatus TakeLookup(char* err, const char* value, size_t size, std::string* out) const {
    if (err != nullptr) return TakeError(*lib_, err);
    if (value == nullptr) return EngineStatus::NotFound();
    out->assign(value, size);
    return EngineStatus::OK();
  }

  std::string Property(rocksdb_column_family_handle_t* h, const char* name) {
    if (db_ == nullptr || h == nullptr) return "";
    char* v = lib_->property_value_cf(db_, h, name);
    if (v == nullptr) return "";
    std::string text(v);
    lib_->free(v);
    return text;
  }

  const rocksdb_writeoptions_t* WriteOptionsFor(const WriteMode& mode) const {
    return write_options_[(mode.sync ? 1 : 0) + (mode.disable_wal ? 2 : 0)];
  }

  rocksdb_column_family_handle_t* Family(std::string_view key) const {
    return handles_[FamilyIndexFor(key, handles_.size())];
  }

  // Frees what Configure made (the options hold their own references to the table factory,
  // cache and filter, so these are released whether or not a database is open).
  void ReleaseOptions() {
    if (lib_ == nullptr) return;
    if (read_options_ != nullptr) lib_->readoptions_destroy(read_options_);
    read_options_ = nullptr;
    for (rocksdb_writeoptions_t*& w : write_options_) {
      if (w != nullptr) lib_->writeoptions_destroy(w);
      w = nullptr;
    }
    if (options_ != nullptr) lib_->options_destroy(options_);
    if (table_ != nullptr) lib_->block_based_options_destroy(table_);
    if (cache_ != nullptr) lib_->cache_destroy(cache_);
    options_ = nullptr;
    table_ = nullptr;
    cache_ = nullptr;
  }

  std::shared_ptr<const RocksDBLibrary> lib_;
  std::string library_note_;
  EngineOptions requested_;
  rocksdb_options_t* options_ = nullptr;
  rocksdb_block_based_table_options_t* table_ = nullptr;
  rocksdb_cache_t* cache_ = nullptr;
  std::vector<int> per_level_;
  // Made by Configure, read-only after it (data calls on many threads share them). The write
  // options are indexed by WriteMode: sync + 2 * disable_wal.
  rocksdb_readoptions_t* read_options_ = nullptr;
  rocksdb_writeoptions_t* write_options_[4] = {nullptr, nullptr, nullptr, nullptr};
  rocksdb_t* db_ = nullptr;
  // The directory of the database last opened.
  std::string db_path_;
  // One per family; [0] is the default family.
  std::vector<rocksdb_column_family_handle_t*> handles_;
};

}  // namespace

std::unique_ptr<KVEngine> NewRocksDBEngine() { return std::make_unique<RocksDBEngine>(); }

}  // namespace sluice_bench
