// sluice_bench/engine_sluice.cc — the sluice adapter of sluice_bench.
//
// Every shared option is a sluice::Options field of the same meaning, so the mapping is one to
// one; --memtable and the FloDB flags are passed through as the Options of the same names,
// except --flodb_use_membuffer and --flodb_multi_insert, benchmark-only switches of FloDB's own
// options (FloDBOptions): with --memtable=flodb, the database and the internals' drivers get
// their components from a FloDB factory built with them (NewComponentFactory below; the
// database through DBImpl::OpenWithComponentFactory).
// Besides the database calls, it reports FloDB's counters ("sluice.flodb-stats") with each
// result, scans with DB::Scan, and provides the benchmarks of sluice's internals (memcomponent,
// persist; sluice_memcomponent_driver.h, sluice_persist_job.h).

#include <fmt/format.h>

#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "db/db_impl.h"
#include "memory/flodb/flodb_factory.h"
#include "memory/memory_component.h"
#include "memory/memory_component_factory.h"
#include "sluice/db.h"
#include "sluice/iterator.h"
#include "sluice/options.h"
#include "sluice/write_batch.h"
#include "sluice_bench/engine_registry.h"
#include "sluice_bench/flodb_counters.h"
#include "sluice_bench/kv_engine.h"
#include "sluice_bench/sluice_buffer_probe.h"
#include "sluice_bench/sluice_db_counters.h"
#include "sluice_bench/sluice_memcomponent_driver.h"
#include "sluice_bench/sluice_persist_job.h"

#ifndef SLUICE_BENCH_SLUICE_VERSION
#error "the build defines SLUICE_BENCH_SLUICE_VERSION (the project version)"
#endif

namespace sluice_bench {
namespace {

EngineStatus FromSluice(const sluice::Status& s) {
  if (s.ok()) return EngineStatus::OK();
  if (s.IsNotFound()) return EngineStatus::NotFound();
  if (s.IsNotSupported()) return EngineStatus::NotSupported(s.ToString());
  return EngineStatus::Error(s.ToString());
}

sluice::Slice ToSlice(std::string_view s) { return sluice::Slice(s.data(), s.size()); }

sluice::CompressionType ToSluice(CompressionKind kind) {
  switch (kind) {
    case CompressionKind::kNone: return sluice::CompressionType::kNone;
    case CompressionKind::kSnappy: return sluice::CompressionType::kSnappy;
    case CompressionKind::kZstd: return sluice::CompressionType::kZstd;
    case CompressionKind::kLz4: return sluice::CompressionType::kLz4;
  }
  return sluice::CompressionType::kNone;
}

// The family of a key when they are spread over several (--num_column_families); nullptr (the
// default family) when there is one.
sluice::ColumnFamilyHandle* FamilyFor(const std::vector<sluice::ColumnFamilyHandle*>& handles,
                                      std::string_view key) {
  if (handles.size() <= 1) return nullptr;
  return handles[FamilyIndexFor(key, handles.size())];
}

class SluiceBatch : public KVWriteBatch {
 public:
  explicit SluiceBatch(const std::vector<sluice::ColumnFamilyHandle*>* handles)
      : handles_(handles) {}
  void Put(std::string_view key, std::string_view value) override {
    batch_.Put(FamilyFor(*handles_, key), ToSlice(key), ToSlice(value));
  }
  void Delete(std::string_view key) override {
    batch_.Delete(FamilyFor(*handles_, key), ToSlice(key));
  }
  void Clear() override { batch_.Clear(); }
  sluice::WriteBatch* rep() { return &batch_; }

 private:
  const std::vector<sluice::ColumnFamilyHandle*>* const handles_;
  sluice::WriteBatch batch_;
};

class SluiceIterator : public KVIterator {
 public:
  explicit SluiceIterator(std::unique_ptr<sluice::Iterator> it) : it_(std::move(it)) {}
  bool Valid() const override { return it_->Valid(); }
  void SeekToFirst() override { it_->SeekToFirst(); }
  void SeekToLast() override { it_->SeekToLast(); }
  void Seek(std::string_view target) override { it_->Seek(ToSlice(target)); }
  void Next() override { it_->Next(); }
  void Prev() override { it_->Prev(); }
  std::string_view key() const override { return it_->key().ToStringView(); }
  std::string_view value() const override { return it_->value().ToStringView(); }
  EngineStatus status() const override { return FromSluice(it_->status()); }

 private:
  std::unique_ptr<sluice::Iterator> it_;
};

class SluiceEngine final : public KVEngine {
 public:
  ~SluiceEngine() override { Close(); }

  std::string_view name() const override { return "sluice"; }
  std::string version() const override {
    // The library is built with the flags of this binary (the same CMake build).
#ifdef NDEBUG
    return fmt::format("sluice {}, release build", SLUICE_BENCH_SLUICE_VERSION);
#else
    return fmt::format("sluice {}, assertions enabled", SLUICE_BENCH_SLUICE_VERSION);
#endif
  }
#ifndef NDEBUG
  std::string build_note() const override {
    return "this sluice_bench and its sluice library are built with assertions (not the "
           "release preset): its figures are no measure of sluice";
  }
#endif
  std::string_view stats_property() const override { return "sluice.stats"; }

  EngineStatus Configure(const EngineOptions& o) override {
    requested_ = o;
    options_ = sluice::Options();
    options_.create_if_missing = o.create_if_missing;
    options_.write_buffer_size = o.write_buffer_size;
    options_.initial_write_buffer_size = o.initial_write_buffer_size;
    options_.memtable = o.memtable;
    options_.membuffer_fraction = o.membuffer_fraction;
    options_.membuffer_partition_bits = o.membuffer_partition_bits;
    options_.flodb_drain_threads = o.flodb_drain_threads;
    options_.prefix_length = o.prefix_length;
    options_.bucket_count = o.bucket_count;
    options_.max_write_buffer_number = o.max_write_buffer_number;
    options_.block_size = o.block_size;
    options_.block_restart_interval = o.block_restart_interval;
    options_.block_cache_size = o.cache_size;
    options_.bloom_bits_per_key = o.bloom_bits;
    options_.compression = ToSluice(o.compression);
    options_.level0_compression = ToSluice(o.level0_compression);
    options_.max_open_files = o.max_open_files;
    if (o.mmap_read >= 0) options_.allow_mmap_reads = o.mmap_read == 1;
    options_.max_background_jobs = o.max_background_jobs;
    options_.max_subcompactions = o.subcompactions;
    if (o.compaction_pri == CompactionPriKind::kMinOverlappingRatio) {
      options_.compaction_pri = sluice::CompactionPri::kMinOverlappingRatio;
    } else if (o.compaction_pri == CompactionPriKind::kRoundRobin) {
      options_.compaction_pri = sluice::CompactionPri::kRoundRobin;
    }
    options_.num_levels = o.num_levels;
    options_.level0_file_num_compaction_trigger = o.level0_file_num_compaction_trigger;
    options_.level0_slowdown_writes_trigger = o.level0_slowdown_writes_trigger;
    options_.level0_stop_writes_trigger = o.level0_stop_writes_trigger;
    options_.level0_idle_compaction_ms = o.level0_idle_compaction_ms;
    options_.level0_scan_compaction = o.level0_scan_compaction;
    options_.level0_backlog_flush_merge = o.level0_backlog_flush_merge;
    options_.soft_pending_compaction_bytes_limit = o.soft_pending_compaction_bytes_limit;
    options_.hard_pending_compaction_bytes_limit = o.hard_pending_compaction_bytes_limit;
    options_.delayed_write_rate = o.delayed_write_rate;
    options_.target_file_size_base = o.target_file_size_base;
    options_.max_bytes_for_level_base = o.max_bytes_for_level_base;
    options_.max_bytes_for_level_multiplier = o.max_bytes_for_level_multiplier;
    return EngineStatus::OK();
  }

  std::vector<OptionRow> DescribeOptions() const override {
    const sluice::Options& o = options_;
    return {
        {"create_if_missing", o.create_if_missing ? "true" : "false", ""},
        {"write_buffer_size", fmt::format("{}", o.write_buffer_size), ""},
        {"initial_write_buffer_size", fmt::format("{}", o.initial_write_buffer_size),
         o.initial_write_buffer_size == 0 ? "write_buffer_size/64, >= 256 KiB" : ""},
        {"max_write_buffer_number", fmt::format("{}", o.max_write_buffer_number), ""},
        {"memtable", o.memtable, ""},
        {"membuffer_fraction", fmt::format("{}", o.membuffer_fraction), ""},
        {"membuffer_partition_bits", fmt::format("{}", o.membuffer_partition_bits), ""},
        {"flodb_drain_threads", fmt::format("{}", o.flodb_drain_threads), ""},
        {"flodb_use_membuffer", requested_.flodb_use_membuffer ? "true" : "false", ""},
        {"flodb_multi_insert", requested_.flodb_multi_insert ? "true" : "false", ""},
        {"prefix_length", fmt::format("{}", o.prefix_length), ""},
        {"bucket_count", fmt::format("{}", sluice::BucketCountFor(o)), ""},
        {"block_size", fmt::format("{}", o.block_size), ""},
        {"block_restart_interval", fmt::format("{}", o.block_restart_interval), ""},
        {"cache_size", fmt::format("{}", o.block_cache_size), ""},
        {"bloom_bits", fmt::format("{}", o.bloom_bits_per_key), ""},
        {"compression", std::string(CompressionName(requested_.compression)), ""},
        {"level0_compression", std::string(CompressionName(requested_.level0_compression)), ""},
        {"max_background_jobs", fmt::format("{}", o.max_background_jobs), ""},
        {"subcompactions", fmt::format("{}", o.max_subcompactions),
         o.max_subcompactions == 0 ? "0: one per core, at most 4" : ""},
        {"compaction_pri",
         o.compaction_pri == sluice::CompactionPri::kMinOverlappingRatio ? "min_overlapping_ratio"
                                                                         : "round_robin",
         ""},
        {"open_files", fmt::format("{}", o.max_open_files), ""},
        {"mmap_read", o.allow_mmap_reads ? "true" : "false", ""},
        {"num_levels", fmt::format("{}", o.num_levels), ""},
        {"level0_file_num_compaction_trigger",
         fmt::format("{}", o.level0_file_num_compaction_trigger), ""},
        {"level0_slowdown_writes_trigger", fmt::format("{}", o.level0_slowdown_writes_trigger), ""},
        {"level0_stop_writes_trigger", fmt::format("{}", o.level0_stop_writes_trigger), ""},
        {"level0_idle_compaction_ms", fmt::format("{}", o.level0_idle_compaction_ms), ""},
        {"level0_scan_compaction", o.level0_scan_compaction ? "true" : "false", ""},
        {"level0_backlog_flush_merge", fmt::format("{}", o.level0_backlog_flush_merge), ""},
        {"soft_pending_compaction_bytes_limit",
         fmt::format("{}", o.soft_pending_compaction_bytes_limit), ""},
        {"hard_pending_compaction_bytes_limit",
         fmt::format("{}", o.hard_pending_compaction_bytes_limit), ""},
        {"delayed_write_rate", fmt::format("{}", o.delayed_write_rate),
         o.delayed_write_rate == 0 ? "0: a slowdown starts from the measured write rate" : ""},
        {"target_file_size_base", fmt::format("{}", o.target_file_size_base), ""},
        {"max_bytes_for_level_base", fmt::format("{}", o.max_bytes_for_level_base), ""},
        {"max_bytes_for_level_multiplier", fmt::format("{}", o.max_bytes_for_level_multiplier), ""},
        {"num_column_families", fmt::format("{}", requested_.num_column_families),
         requested_.num_column_families > 1 ? "keys spread by hash; scans unsupported" : ""},
        {"sync", requested_.sync ? "true" : "false", ""},
        {"disable_wal", requested_.disable_wal ? "true" : "false", ""},
    };
  }

  EngineStatus Open(const std::string& path) override {
    std::unique_ptr<sluice::MemoryComponentFactory> factory;
    sluice::Status s = NewComponentFactory(&factory);
    if (!s.ok()) return FromSluice(s);
    handles_.clear();
    if (requested_.num_column_families <= 1) {
      return FromSluice(
          sluice::DBImpl::OpenWithComponentFactory(options_, path, std::move(factory), &db_));
    }
    std::vector<sluice::ColumnFamilyDescriptor> families;
    families.emplace_back(sluice::kDefaultColumnFamilyName, options_);
    for (int i = 1; i < requested_.num_column_families; i++) {
      families.emplace_back(fmt::format("cf{}", i), options_);
    }
    sluice::DBOptions db_options = options_;
    db_options.create_missing_column_families = true;
    return FromSluice(sluice::DBImpl::OpenFamilies(db_options, path, families, std::move(factory),
                                                   &handles_, &db_));
  }

  // The key's family (the default one unless --num_column_families > 1).
  sluice::ColumnFamilyHandle* Family(std::string_view key) {
    sluice::ColumnFamilyHandle* h = FamilyFor(handles_, key);
    return h != nullptr ? h : db_->DefaultColumnFamily();
  }

  EngineStatus Close() override {
    if (db_ == nullptr) return EngineStatus::OK();
    bytes_at_close_ = BackgroundBytesWritten();
    sluice::Status s = db_->Close();
    db_.reset();
    handles_.clear();
    return FromSluice(s);
  }

  EngineStatus Destroy(const std::string& path) override {
    return FromSluice(sluice::DestroyDB(path, options_));
  }

  EngineStatus Put(std::string_view key, std::string_view value, const WriteMode& mode) override {
    return FromSluice(db_->Put(ToWriteOptions(mode), Family(key), ToSlice(key), ToSlice(value)));
  }

  EngineStatus Delete(std::string_view key, const WriteMode& mode) override {
    return FromSluice(db_->Delete(ToWriteOptions(mode), Family(key), ToSlice(key)));
  }

  EngineStatus DeleteRange(std::string_view begin, std::string_view end,
                           const WriteMode& mode) override {
    if (handles_.size() > 1) {
      return EngineStatus::NotSupported("deleterange with --num_column_families > 1");
    }
    return FromSluice(db_->DeleteRange(ToWriteOptions(mode), ToSlice(begin), ToSlice(end)));
  }

  EngineStatus NativeRmwSupport() const override { return EngineStatus::OK(); }

  EngineStatus PutIfAbsent(std::string_view key, std::string_view value, const WriteMode& mode,
                           bool* inserted) override {
    return FromSluice(db_->PutIfAbsent(ToWriteOptions(mode), Family(key), ToSlice(key),
                                       ToSlice(value), inserted));
  }

  EngineStatus Increment(std::string_view key, int64_t delta, const WriteMode& mode,
                         int64_t* result) override {
    return FromSluice(
        db_->Increment(ToWriteOptions(mode), Family(key), ToSlice(key), delta, result));
  }

  std::unique_ptr<KVWriteBatch> NewWriteBatch() override {
    return std::make_unique<SluiceBatch>(&handles_);
  }

  EngineStatus Write(KVWriteBatch* batch, const WriteMode& mode) override {
    return FromSluice(db_->Write(ToWriteOptions(mode), static_cast<SluiceBatch*>(batch)->rep()));
  }

  EngineStatus Get(std::string_view key, std::string* value) override {
    return FromSluice(db_->Get(read_options_, Family(key), ToSlice(key), value));
  }

  void MultiGet(const std::vector<std::string_view>& keys, std::vector<std::string>* values,
                std::vector<EngineStatus>* statuses) override {
    std::vector<sluice::Slice> slices;
    std::vector<sluice::ColumnFamilyHandle*> families;
    slices.reserve(keys.size());
    families.reserve(keys.size());
    for (std::string_view k : keys) {
      slices.push_back(ToSlice(k));
      families.push_back(Family(k));
    }
    statuses->clear();
    for (sluice::Status& s : db_->MultiGet(read_options_, families, slices, values)) {
      statuses->push_back(FromSluice(s));
    }
  }

  std::unique_ptr<KVIterator> NewIterator() override {
    // With keys spread over families there is no one ordered view: the iterator reports
    // NotSupported (the benchmark names it) rather than scanning one family.
    if (handles_.size() > 1) return std::make_unique<UnsupportedIterator>();
    return std::make_unique<SluiceIterator>(db_->NewIterator(read_options_));
  }

  EngineStatus Scan(std::string_view start, size_t limit,
                    std::vector<std::pair<std::string, std::string>>* result) override {
    result->clear();
    if (handles_.size() > 1) {
      return EngineStatus::NotSupported("scans with --num_column_families > 1");
    }
    return FromSluice(db_->Scan(read_options_, ToSlice(start), sluice::Slice(), limit, result));
  }

  // Every family (the default one alone unless --num_column_families > 1).
  std::vector<sluice::ColumnFamilyHandle*> Families() {
    return handles_.empty() ? std::vector<sluice::ColumnFamilyHandle*>{db_->DefaultColumnFamily()}
                            : handles_;
  }

  EngineStatus Flush() override {
    for (sluice::ColumnFamilyHandle* h : Families()) {
      sluice::Status s = db_->Flush(h);
      if (!s.ok()) return FromSluice(s);
    }
    return EngineStatus::OK();
  }

  EngineStatus CompactAll() override {
    for (sluice::ColumnFamilyHandle* h : Families()) {
      sluice::Status s = db_->CompactRange(h, nullptr, nullptr);
      if (!s.ok()) return FromSluice(s);
    }
    return EngineStatus::OK();
  }

  EngineStatus WaitForCompaction(std::string* how) override {
    const std::vector<std::string> names = {
        "sluice.mem-table-flush-pending", "sluice.num-running-flushes", "sluice.compaction-pending",
        "sluice.num-running-compactions",
        // The idle L0 compaction runs a second after the last write: without this, a seed
        // would keep the L0 files that the first workload then pays to compact.
        "sluice.idle-compaction-pending"};
    return WaitUntilCountersZero(names, how,
                                 [this](const std::string& name) -> std::optional<uint64_t> {
                                   // Summed over the families (the running counts are the
                                   // database's: the same in each, and zero together).
                                   uint64_t sum = 0;
                                   for (sluice::ColumnFamilyHandle* h : Families()) {
                                     std::string v;
                                     if (!db_->GetProperty(h, name, &v)) return std::nullopt;
                                     sum += std::stoull(v);
                                   }
                                   return sum;
                                 });
  }

  std::optional<uint64_t> BackgroundBytesWritten() override {
    if (db_ == nullptr) return bytes_at_close_;
    std::string counters;
    if (!db_->GetProperty("sluice.io-counters", &counters)) return std::nullopt;
    uint64_t total = 0;
    std::istringstream in(counters);
    std::string field;
    while (in >> field) {
      const size_t eq = field.find('=');
      if (eq == std::string::npos) continue;
      const std::string name = field.substr(0, eq);
      if (name == "flush_bytes" || name == "compaction_bytes_written") {
        total += std::stoull(field.substr(eq + 1));
      }
    }
    return total;
  }

  EngineStatus ReadModifyWrite(std::string_view key, const ModifyFunction& modify,
                               const WriteMode& mode) override {
    return FromSluice(
        db_->ReadModifyWrite(ToWriteOptions(mode), Family(key), ToSlice(key), modify, nullptr));
  }

  EngineStatus GetStats(std::string* stats) override {
    if (!db_->GetProperty("sluice.stats", stats)) {
      return EngineStatus::Error("sluice.stats is not available");
    }
    std::string flodb;
    if (db_->GetProperty("sluice.flodb-stats", &flodb))
      *stats += "** FloDB memory component **\n" + flodb;
    return EngineStatus::OK();
  }

  Metrics ReadCounters() override {
    Metrics counters;
    if (db_ == nullptr) return counters;
    std::string text;
    if (db_->GetProperty("sluice.flodb-stats", &text)) counters = ParseFloDBStatsText(text);
    if (db_->GetProperty("sluice.io-counters", &text)) {
      const Metrics io = ParseIoCountersText(text);
      counters.insert(counters.end(), io.begin(), io.end());
    }
    if (db_->GetProperty("sluice.memtable-choices", &text)) {
      const Metrics choices = ParseMemtableChoicesText(text);
      counters.insert(counters.end(), choices.begin(), choices.end());
    }
    return counters;
  }

  std::string DescribeCounters(const Metrics& before, const Metrics& after,
                               Metrics* metrics) override {
    std::string note = DescribeFloDBCounters(before, after, metrics);
    const std::string db = DescribeSluiceDBCounters(before, after, metrics);
    if (!note.empty() && !db.empty()) note += " ";
    return note + db;
  }

  EngineStatus NewMemoryComponentDriver(std::unique_ptr<KVMemoryComponentDriver>* driver) override {
    std::unique_ptr<sluice::MemoryComponentFactory> factory;
    sluice::Status fs = NewComponentFactory(&factory);
    if (!fs.ok()) return EngineStatus::Error(fs.ToString());
    std::unique_ptr<SluiceMemoryComponentDriver> d;
    EngineStatus s = SluiceMemoryComponentDriver::Create(options_, std::move(factory), &d);
    if (s.ok()) *driver = std::move(d);
    return s;
  }

  EngineStatus NewBufferProbe(std::unique_ptr<KVBufferProbe>* probe) override {
    std::unique_ptr<sluice::MemoryComponentFactory> factory;
    sluice::Status fs = NewComponentFactory(&factory);
    if (!fs.ok()) return EngineStatus::Error(fs.ToString());
    std::unique_ptr<SluiceBufferProbe> p;
    EngineStatus s = SluiceBufferProbe::Create(factory.get(), &p);
    if (s.ok()) *probe = std::move(p);
    return s;
  }

  EngineStatus NewPersistJob(const std::string& dir, std::unique_ptr<KVPersistJob>* job) override {
    std::unique_ptr<sluice::MemoryComponentFactory> factory;
    sluice::Status fs = NewComponentFactory(&factory);
    if (!fs.ok()) return EngineStatus::Error(fs.ToString());
    std::unique_ptr<SluicePersistJob> j;
    EngineStatus s = SluicePersistJob::Create(options_, std::move(factory), dir, &j);
    if (s.ok()) *job = std::move(j);
    return s;
  }

 private:
  // A fresh factory of options_.memtable's family (each user its own, so FloDB's counters and
  // the adaptive policy are that user's); FloDB's gets --flodb_use_membuffer and
  // --flodb_multi_insert, which are FloDBOptions, not Options.
  sluice::Status NewComponentFactory(
      std::unique_ptr<sluice::MemoryComponentFactory>* factory) const {
    if (options_.memtable != "flodb") return sluice::NewMemoryComponentFactory(options_, factory);
    sluice::FloDBOptions flodb = sluice::FloDBOptionsFrom(options_);
    flodb.use_membuffer = requested_.flodb_use_membuffer;
    flodb.multi_insert = requested_.flodb_multi_insert;
    *factory = std::make_unique<sluice::FloDBComponentFactory>(flodb);
    return sluice::Status::OK();
  }

  static sluice::WriteOptions ToWriteOptions(const WriteMode& mode) {
    sluice::WriteOptions w;
    w.sync = mode.sync;
    w.disable_wal = mode.disable_wal;
    return w;
  }

  EngineOptions requested_;
  const sluice::ReadOptions read_options_;
  sluice::Options options_;
  std::unique_ptr<sluice::DB> db_;
  // BackgroundBytesWritten as Close found it.
  std::optional<uint64_t> bytes_at_close_;
  std::vector<sluice::ColumnFamilyHandle*> handles_;  // empty: the default family only
};

}  // namespace

std::unique_ptr<KVEngine> NewSluiceEngine() { return std::make_unique<SluiceEngine>(); }

}  // namespace sluice_bench
