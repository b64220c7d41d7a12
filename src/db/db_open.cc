// db/db_open.cc — opening a database (options, directory, lock, recovery of the MANIFEST and
// the WAL files), closing it, and DestroyDB.
//
// Recovery policy for WAL files (the reader reports problems in file order, see
// wal/log_reader.h):
//   * damage followed by valid records is corruption in the middle of the log: Corruption
//     naming the file and offset (with paranoid_checks), or skipped and reported in the LOG;
//   * damage with nothing valid after it is a torn tail (a write cut short by a crash): it is
//     dropped and reported in the LOG, unless it is a zero-filled region, which our writer never
//     produces (Corruption with paranoid_checks);
//   * a read error fails the open with that IOError whatever paranoid_checks says: what follows
//     is unknown, not damaged, and acknowledged writes may be there;
//   * a record whose sequence number is not above the previous record's (in this file or an
//     older one) is damage too, handled as a malformed record: the writer logs records in
//     sequence order, and replaying it would add a second version of a key under one sequence
//     number (which memory components may refuse, keeping the wrong one).
// The recovered memory component is flushed to L0 before the DB accepts writes, and a fresh
// WAL file is started, so a WAL with a torn tail is never appended to.

#include <fmt/format.h>

#include <algorithm>

#include "base/filename.h"
#include "base/merging_iterator.h"
#include "base/range_tombstone.h"
#include "db/db_impl.h"
#include "db/merge_job.h"
#include "db/write_batch_internal.h"
#include "memory/skiplist_rep.h"  // ArenaBlockSizeFor
#include "sluice/write_buffer_manager.h"
#include "util/epoch.h"
#include "util/logging.h"
#include "wal/log_reader.h"

namespace sluice {

namespace {

Status CheckRange(const char* name, uint64_t value, uint64_t lo, uint64_t hi) {
  if (value < lo || value > hi) {
    return Status::InvalidArgument(
        fmt::format("Options::{} must be in [{}, {}] (got {})", name, lo, hi, value));
  }
  return Status::OK();
}

}  // namespace

Status DBImpl::SanitizeOptions(const Options& in, Options* out) {
  *out = in;
  if (out->env == nullptr) out->env = Env::Default();
  if (out->write_buffer_manager == nullptr && out->db_write_buffer_size > 0) {
    out->write_buffer_manager = std::make_shared<WriteBufferManager>(out->db_write_buffer_size);
  }
  constexpr uint64_t kGiB = uint64_t{1} << 30;
  Status s;
  auto check = [&](const char* name, uint64_t v, uint64_t lo, uint64_t hi) {
    if (s.ok()) s = CheckRange(name, v, lo, hi);
  };
  check("write_buffer_size", out->write_buffer_size, 4096, 64 * kGiB);
  if (out->initial_write_buffer_size != 0) {
    check("initial_write_buffer_size (at most write_buffer_size)", out->initial_write_buffer_size,
          4096, out->write_buffer_size);
  }
  check("max_write_buffer_number", static_cast<uint64_t>(out->max_write_buffer_number), 2, 64);
  check("block_size", out->block_size, 128, kGiB);
  check("block_restart_interval", static_cast<uint64_t>(out->block_restart_interval), 1, 65536);
  check("bloom_bits_per_key", static_cast<uint64_t>(out->bloom_bits_per_key), 0, 64);
  check("max_open_files", static_cast<uint64_t>(out->max_open_files), 1, 1 << 24);
  check("max_background_jobs", static_cast<uint64_t>(out->max_background_jobs), 2, 256);
  check("max_subcompactions", static_cast<uint64_t>(out->max_subcompactions), 0, 256);
  if (out->max_subcompactions == 0) {
    out->max_subcompactions = Options::DefaultMaxSubcompactions();
  }
  check("num_levels", static_cast<uint64_t>(out->num_levels), 2, 64);
  check("level0_file_num_compaction_trigger",
        static_cast<uint64_t>(out->level0_file_num_compaction_trigger), 1, 1 << 20);
  check("level0_slowdown_writes_trigger",
        static_cast<uint64_t>(out->level0_slowdown_writes_trigger),
        static_cast<uint64_t>(std::max(1, out->level0_file_num_compaction_trigger)), 1 << 20);
  check("level0_stop_writes_trigger", static_cast<uint64_t>(out->level0_stop_writes_trigger),
        static_cast<uint64_t>(std::max(1, out->level0_slowdown_writes_trigger)), 1 << 20);
  if (out->soft_pending_compaction_bytes_limit > 0) {
    check("hard_pending_compaction_bytes_limit",
          out->hard_pending_compaction_bytes_limit == 0 ? out->soft_pending_compaction_bytes_limit
                                                        : out->hard_pending_compaction_bytes_limit,
          out->soft_pending_compaction_bytes_limit, uint64_t{1} << 60);
  }
  check("level0_backlog_flush_merge", static_cast<uint64_t>(out->level0_backlog_flush_merge), 1,
        64);
  check("level0_idle_compaction_ms", static_cast<uint64_t>(out->level0_idle_compaction_ms), 0,
        86400000);
  check("target_file_size_base", out->target_file_size_base, 1024, 64 * kGiB);
  check("max_bytes_for_level_base", out->max_bytes_for_level_base, 1024, uint64_t{1} << 50);
  check("max_key_size", out->max_key_size, 1, kGiB);
  check("max_value_size", out->max_value_size, 0, kGiB);
  if (!s.ok()) return s;
  if (!(out->max_bytes_for_level_multiplier >= 1.0 &&
        out->max_bytes_for_level_multiplier <= 1000.0)) {
    return Status::InvalidArgument(
        fmt::format("Options::max_bytes_for_level_multiplier must be in [1, 1000] (got {})",
                    out->max_bytes_for_level_multiplier));
  }
  for (const auto& [name, type] : {std::pair{"compression", out->compression},
                                   std::pair{"level0_compression", out->level0_compression}}) {
    switch (type) {
      case CompressionType::kNone:
      case CompressionType::kSnappy:
      case CompressionType::kZstd:
      case CompressionType::kLz4: break;
      default:
        return Status::InvalidArgument(
            fmt::format("Options::{}: unknown compression type {}", name, static_cast<int>(type)));
    }
  }
  if (out->compaction_pri != CompactionPri::kRoundRobin &&
      out->compaction_pri != CompactionPri::kMinOverlappingRatio) {
    return Status::InvalidArgument(fmt::format("Options::compaction_pri: unknown value {}",
                                               static_cast<int>(out->compaction_pri)));
  }
  if (!(out->membuffer_fraction > 0.0 && out->membuffer_fraction <= 0.9)) {
    return Status::InvalidArgument(fmt::format(
        "Options::membuffer_fraction must be in (0, 0.9] (got {})", out->membuffer_fraction));
  }
  check("membuffer_partition_bits", static_cast<uint64_t>(out->membuffer_partition_bits), 0, 16);
  check("membuffer_bucket_slots", static_cast<uint64_t>(out->membuffer_bucket_slots), 1, 6);
  check("flodb_drain_threads", static_cast<uint64_t>(out->flodb_drain_threads), 1, 64);
  check("flodb_scan_max_restarts", static_cast<uint64_t>(out->flodb_scan_max_restarts), 0, 1000);
  check("prefix_length", out->prefix_length, 1, 1 << 16);
  if (out->bucket_count != 0) {
    check("bucket_count", out->bucket_count, 1,
          std::max<uint64_t>(1, out->write_buffer_size / 4 / sizeof(void*)));
  }
  if (!s.ok()) return s;
  return ValidateMemoryComponentName(out->memtable);
}

DBImpl::DBImpl(const Options& sanitized_options, std::string dbname,
               std::unique_ptr<MemoryComponentFactory> component_factory)
    : dbname_(std::move(dbname)),
      options_(sanitized_options),
      env_(sanitized_options.env),
      info_log_(sanitized_options.info_log),
      budget_(options_.write_buffer_manager != nullptr ? &options_.write_buffer_manager->budget()
                                                       : nullptr),
      file_registry_(std::make_shared<FileRegistry>()),
      component_factory_(std::move(component_factory)),
      write_controller_(sanitized_options) {
  if (options_.block_cache != nullptr) {
    block_cache_ = options_.block_cache;
  } else if (options_.block_cache_size > 0) {
    block_cache_ = NewLRUCache(options_.block_cache_size);
  }
  table_cache_ = std::make_unique<TableCache>(
      dbname_, env_, TableOptionsFor(options_, block_cache_.get()), options_.max_open_files);
  versions_ = std::make_unique<VersionSet>(dbname_, options_, file_registry_);
  stats_.EnsureLevels(options_.num_levels);
}

DBImpl::~DBImpl() { Close(); }

Status DBImpl::Open(const std::vector<ColumnFamilyDescriptor>& families) {
  Status s;
  if (budget_ != nullptr) {
    // Its components charge the budget from the start; it is asked for flushes once open.
    budget_client_ = std::make_shared<MemoryBudget::Client>();
    budget_client_->request_flush = [this] {
      tasks_->Schedule(TaskScheduler::Pool::kHigh, [this] { BudgetFlushTask(); });
    };
  }
  if (!env_->FileExists(dbname_)) {
    if (!options_.create_if_missing) {
      return Status::InvalidArgument(dbname_, "does not exist (create_if_missing is false)");
    }
    s = env_->CreateDirIfMissing(dbname_);
    if (!s.ok()) return s;
  }
  s = env_->LockFile(LockFileName(dbname_), &db_lock_);
  if (!s.ok()) return s;
  if (info_log_ == nullptr) {
    if (env_->FileExists(InfoLogFileName(dbname_))) {
      env_->RenameFile(InfoLogFileName(dbname_), OldInfoLogFileName(dbname_));
    }
    s = env_->NewLogger(InfoLogFileName(dbname_), &info_log_);
    if (!s.ok()) return s;
  }

  if (!env_->FileExists(CurrentFileName(dbname_))) {
    if (!options_.create_if_missing) {
      return Status::InvalidArgument(
          dbname_, "is not a sluice database (no CURRENT file; create_if_missing is false)");
    }
    Log(info_log_.get(), "creating new database in {}", dbname_);
    {
      MutexLock l(&mutex_);  // for the analysis: no other thread uses the DB yet
      s = versions_->CreateNew();
    }
    if (!s.ok()) return s;
  } else if (options_.error_if_exists) {
    return Status::InvalidArgument(dbname_, "exists (error_if_exists is true)");
  }

  // The families' options by name (sanitized by the caller).
  std::map<std::string, Options> options_by_name;
  for (const ColumnFamilyDescriptor& d : families) {
    options_by_name.emplace(d.name, Options(options_, d.options));
  }
  std::string report;
  std::vector<std::string> missing;  // named, but not in the database
  {
    MutexLock l(&mutex_);
    s = versions_->Recover(
        [&](const std::string& name) -> const Options* {
          auto it = options_by_name.find(name);
          return it == options_by_name.end() ? nullptr : &it->second;
        },
        &report);
    if (!s.ok()) return s;
    for (const ColumnFamilyDescriptor& d : families) {
      bool found = false;
      for (const auto& [id, f] : versions_->families()) found = found || f->name == d.name;
      if (!found) missing.push_back(d.name);
    }
    if (!missing.empty() && !options_.create_missing_column_families) {
      std::string list;
      for (const std::string& name : missing) list += (list.empty() ? "" : ", ") + name;
      return Status::InvalidArgument(dbname_,
                                     "has no column families named " + list +
                                         " (set create_missing_column_families to create them)");
    }
    for (const auto& [id, f] : versions_->families()) {
      std::unique_ptr<ColumnFamilyData> cfd;
      s = NewFamilyData(id, f->name, f->options, id == 0 ? std::move(component_factory_) : nullptr,
                        &cfd);
      if (!s.ok()) return s;
      cfd->versions = f.get();
      stats_.EnsureLevels(f->options.num_levels);
      if (id == 0) default_cfd_ = cfd.get();
      families_[id] = std::move(cfd);
    }
  }
  if (!report.empty()) Log(info_log_.get(), "MANIFEST recovery: {}", report);
  s = CheckVersionFiles();
  if (!s.ok()) return s;

  std::map<uint32_t, VersionEdit> edits;
  SequenceNumber max_sequence;
  {
    MutexLock l(&mutex_);
    max_sequence = versions_->LastSequence();
  }
  s = RecoverLogFiles(&edits, &max_sequence);
  if (!s.ok()) return s;
  oracle_.AdvanceTo(max_sequence);

  std::shared_ptr<WalFile> wal;
  s = NewWalFile(&wal);
  if (!s.ok()) return s;
  {
    MutexLock l(&mutex_);
    versions_->SetLastSequence(max_sequence);
    for (ColumnFamilyData* cfd : LiveFamilies()) {
      std::shared_ptr<LoggedComponent> mem;
      s = NewLoggedComponent(cfd, wal->number, &mem);
      if (!s.ok()) return s;
      VersionEdit& edit = edits[cfd->id];
      edit.SetColumnFamily(cfd->id);
      edit.SetLogNumber(wal->number);
      s = versions_->LogAndApply(&edit);
      // On failure the new (empty) WAL stays: CURRENT may already name the new MANIFEST, which
      // names this WAL (see VersionSet::LogAndApply). The next open replays and deletes it.
      if (!s.ok()) return s;
      cfd->replaces_in_place = mem->component->ReplacesInPlace();
      if (cfd->replaces_in_place) in_place_families_.fetch_add(1, std::memory_order_acq_rel);
      InstallSuperVersion(cfd, std::move(mem), {}, cfd->versions->current);
    }
    InstallWalSet(std::move(wal), {});
    PublishFamilyTable();
  }
  RemoveObsoleteFilesOnOpen();
  file_registry_->SetListener([this] { WakeForObsoleteFiles(); });
  StartBackgroundWork();
  if (budget_client_ != nullptr) budget_->Register(budget_client_);
  opened_ = true;
  for (const std::string& name : missing) {
    ColumnFamilyHandle* handle = nullptr;
    s = CreateColumnFamily(options_by_name.at(name), name, &handle);
    if (!s.ok()) return s;
  }
  std::string summary;
  {
    MutexLock l(&mutex_);
    summary = versions_->LevelSummary();
    summary += fmt::format(", {} column families", LiveFamilies().size());
  }
  Log(info_log_.get(), "opened {}: memtable={} last_sequence={} {}", dbname_, options_.memtable,
      max_sequence, summary);
  return Status::OK();
}

Status DBImpl::CheckVersionFiles() {
  MutexLock l(&mutex_);
  const std::string manifest = ManifestFileName(dbname_, versions_->ManifestFileNumber());
  for (const auto& [id, family] : versions_->families()) {
    std::shared_ptr<const Version> v = family->current;
    for (int level = 0; level < v->num_levels(); level++) {
      for (const auto& f : v->files(level)) {
        const std::string fname = TableFileName(dbname_, f->number);
        uint64_t size = 0;
        Status s = env_->GetFileSize(fname, &size);
        if (s.IsNotFound()) {
          return Status::Corruption(
              fmt::format("{} references {}, which is missing (the MANIFEST may be truncated or "
                          "the file deleted)",
                          manifest, fname));
        }
        if (!s.ok()) return s;
        if (size != f->file_size) {
          return Status::Corruption(
              fmt::format("{} has {} bytes, but {} says {}", fname, size, manifest, f->file_size));
        }
        if (options_.paranoid_checks) {
          // Reads the footer, index, filter and properties: a damaged or foreign file is
          // reported now, by name, rather than at the first read that reaches it.
          s = table_cache_->OpenFile(f->number, f->file_size);
          if (!s.ok()) return s;
        }
      }
    }
  }
  const uint64_t log_number = versions_->LogNumber();
  if (log_number != 0 && !env_->FileExists(LogFileName(dbname_, log_number))) {
    return Status::Corruption(fmt::format(
        "{} says unflushed writes start in {}, which is missing (the MANIFEST may be truncated "
        "or the file deleted)",
        manifest, LogFileName(dbname_, log_number)));
  }
  return Status::OK();
}

Status DBImpl::RecoverLogFiles(std::map<uint32_t, VersionEdit>* edits,
                               SequenceNumber* max_sequence) {
  std::vector<std::string> children;
  Status s = env_->GetChildren(dbname_, &children);
  if (!s.ok()) return s;
  std::vector<uint64_t> logs;
  {
    MutexLock l(&mutex_);
    for (const std::string& name : children) {
      uint64_t number;
      FileType type;
      if (ParseFileName(name, &number, &type)) {
        versions_->MarkFileNumberUsed(number);
        if (type == FileType::kLog && number >= versions_->LogNumber()) logs.push_back(number);
      }
    }
  }
  std::sort(logs.begin(), logs.end());
  RecoveryComponents mems;
  SequenceNumber last_replayed = 0;
  for (uint64_t number : logs) {
    s = ReplayLogFile(number, &mems, edits, &last_replayed, max_sequence);
    if (!s.ok()) return s;
  }
  for (auto& [id, mem] : mems) {
    if (mem == nullptr || !mem->HoldsData()) continue;
    ColumnFamilyData* cfd;
    {
      MutexLock l(&mutex_);
      cfd = families_.at(id).get();
    }
    uint64_t bytes = 0;
    s = WriteLevel0Table(cfd, {mem.get()}, cfd->options.level0_compression, &(*edits)[id], &bytes);
    if (!s.ok()) return s;
  }
  return s;
}

namespace {

// Applies the recovery policy (see the file comment) to the reader's problem reports.
class RecoveryReporter : public log::Reader::Reporter {
 public:
  RecoveryReporter(Logger* log, bool paranoid) : log_(log), paranoid_(paranoid) {}

  void Report(log::Problem problem, uint64_t offset, size_t bytes, const Status& s) override {
    // A failed read is no damage to skip or drop: the rest of the log is unknown.
    if (problem == log::Problem::kReadError) {
      if (read_error_.ok()) read_error_ = Status::IOError(s.message());
      return;
    }
    pending_.push_back({problem, bytes, s});
  }

  // A valid record was read: earlier problems were in the middle of the log.
  Status RecordSeen(DBStats* stats) {
    Status result;
    for (const Pending& p : pending_) {
      if (paranoid_) {
        result = Status::Corruption(p.status.message() +
                                    " (followed by valid records; open with paranoid_checks=false "
                                    "to skip damaged records, or run RepairDB)");
        break;
      }
      Log(log_, "WAL: skipped damaged data: {}", p.status.ToString());
      DBStats::Add(&stats->recovered_skipped_records, 1);
    }
    pending_.clear();
    return result;
  }

  // End of the file: what is pending is the tail.
  Status EndOfFile(DBStats* stats) {
    if (!read_error_.ok()) return read_error_;
    Status result;
    for (const Pending& p : pending_) {
      if (p.problem == log::Problem::kZeroFilled && paranoid_) {
        result = Status::Corruption(
            p.status.message() +
            " (sluice never writes zeros to a WAL; open with paranoid_checks=false to drop it)");
        break;
      }
      Log(log_, "WAL: dropped torn tail: {}", p.status.ToString());
      DBStats::Add(&stats->recovered_torn_bytes, p.bytes);
    }
    pending_.clear();
    return result;
  }

 private:
  struct Pending {
    log::Problem problem;
    size_t bytes;
    Status status;
  };
  Logger* const log_;
  const bool paranoid_;
  std::vector<Pending> pending_;
  Status read_error_;
};

}  // namespace

Status DBImpl::ReplayLogFile(uint64_t number, RecoveryComponents* mems,
                             std::map<uint32_t, VersionEdit>* edits, SequenceNumber* last_replayed,
                             SequenceNumber* max_sequence) {
  // The families this file may hold unflushed writes of (its number reached their log
  // number), and the ids given out so far (a record of an id at most that, but not live, is of
  // a dropped family: skipped).
  std::map<uint32_t, ColumnFamilyData*> replayed;
  uint32_t max_family = 0;
  {
    MutexLock l(&mutex_);
    for (const auto& [id, f] : versions_->families()) {
      if (number >= f->log_number) replayed[id] = families_.at(id).get();
    }
    max_family = versions_->max_column_family();
  }
  const std::string fname = LogFileName(dbname_, number);
  std::unique_ptr<SequentialFile> file;
  Status s = env_->NewSequentialFile(fname, &file);
  if (!s.ok()) return s;
  RecoveryReporter reporter(info_log_.get(), options_.paranoid_checks);
  log::Reader reader(std::move(file), fname, &reporter);
  Slice record;
  std::string scratch;
  WriteBatch batch;
  uint64_t records = 0;
  while (reader.ReadRecord(&record, &scratch)) {
    s = reporter.RecordSeen(&stats_);
    if (!s.ok()) return s;
    s = WriteBatchInternal::SetContents(&batch, record);
    if (!s.ok()) {
      s = Status::Corruption(
          fmt::format("{} (record at offset {})", s.message(), reader.LastRecordOffset()), fname);
      if (options_.paranoid_checks) return s;
      Log(info_log_.get(), "WAL: skipped malformed record: {}", s.ToString());
      DBStats::Add(&stats_.recovered_skipped_records, 1);
      continue;
    }
    size_t max_key = 0, max_value = 0;
    std::vector<uint32_t> families;
    WriteBatchInternal::CheckUpdates(&batch, &max_key, &max_value, &families);
    if (!families.empty() && families.back() > max_family) {
      s = Status::Corruption(fmt::format("record at offset {} updates column family {}, which "
                                         "this database never had",
                                         reader.LastRecordOffset(), families.back()),
                             fname);
      if (options_.paranoid_checks) return s;
      Log(info_log_.get(), "WAL: skipped record of an unknown column family: {}", s.ToString());
      DBStats::Add(&stats_.recovered_skipped_records, 1);
      continue;
    }
    const SequenceNumber seq = WriteBatchInternal::Sequence(&batch);
    if (seq <= *last_replayed) {
      s = Status::Corruption(
          fmt::format("record at offset {} has sequence {}, not above {} (open with "
                      "paranoid_checks=false to skip it)",
                      reader.LastRecordOffset(), seq, *last_replayed),
          fname);
      if (options_.paranoid_checks) return s;
      Log(info_log_.get(), "WAL: skipped out-of-order record: {}", s.ToString());
      DBStats::Add(&stats_.recovered_skipped_records, 1);
      continue;
    }
    *last_replayed = seq;
    // Each update goes to the recovery component of its family, if this file is at or past
    // the family's log number (else the family's SST files have it already) and the family is
    // live; the others are passed over.
    Status create;
    s = WriteBatchInternal::InsertInto(&batch, [&](uint32_t id) -> MemoryComponent* {
      auto it = replayed.find(id);
      if (it == replayed.end()) return nullptr;
      std::unique_ptr<MemoryComponent>& mem = (*mems)[id];
      if (mem == nullptr && create.ok()) {
        // Replayed writes are no workload to adapt to (an adaptive family does not see them).
        create = it->second->component_factory->NewUnobservedComponent(ComponentContext(), &mem);
      }
      return mem.get();
    });
    if (s.ok()) s = create;
    if (!s.ok()) return s;
    records++;
    if (seq > *max_sequence) *max_sequence = seq;
    for (uint32_t id : families) {  // only the components this record added to can be full
      auto it = replayed.find(id);
      if (it == replayed.end()) continue;
      std::unique_ptr<MemoryComponent>& mem = (*mems)[id];
      if (mem == nullptr || mem->ApproximateMemoryUsage() < it->second->options.write_buffer_size) {
        continue;
      }
      ColumnFamilyData* cfd = it->second;
      uint64_t bytes = 0;
      s = WriteLevel0Table(cfd, {mem.get()}, cfd->options.level0_compression, &(*edits)[id],
                           &bytes);
      if (!s.ok()) return s;
      mem.reset();
    }
  }
  s = reporter.EndOfFile(&stats_);
  if (!s.ok()) return s;
  Log(info_log_.get(), "recovered {} records from {}", records, fname);
  return Status::OK();
}

Status DBImpl::WriteLevel0Table(ColumnFamilyData* cfd, const std::vector<MemoryComponent*>& mems,
                                CompressionType compression, VersionEdit* edit, uint64_t* bytes) {
  assert(!mems.empty());
  const uint64_t start = env_->NowMicros();
  MergeJobOptions job = NewMergeJobOptions(cfd);
  job.table_options.compression = compression;
  std::vector<std::unique_ptr<InternalIterator>> iters;
  std::vector<std::shared_ptr<const FragmentedRangeTombstones>> tombstones;
  for (MemoryComponent* mem : mems) {
    // No more writes: let the component gather everything where its iterator reads (FloDB
    // drains its Membuffer). Without this the iterator may miss writes.
    mem->MarkImmutable();
    iters.push_back(mem->NewIterator());
    epoch::Guard section;  // (no tombstone is added any more: the set is stable)
    tombstones.push_back(mem->range_tombstones().All());
  }
  job.range_tombstones = MergeRangeTombstones(tombstones);  // one set over all of them
  // Versions of one key in two components: the pruner below keeps the newest and those a
  // snapshot needs, as a compaction does.
  std::unique_ptr<InternalIterator> iter =
      iters.size() == 1 ? std::move(iters[0])
                        : NewMergingIterator(DefaultInternalKeyComparator(), std::move(iters));
  VersionPruner pruner(snapshots_.Sequences(), nullptr);
  MergeJobResult result;
  Status s = RunMergeJob(job, iter.get(), &pruner, &result);
  if (!s.ok()) return s;
  *bytes = result.bytes_written;
  for (const FileMetaData& f : result.outputs) edit->AddFile(0, f);
  DBStats::Add(&stats_.flushes, 1);
  DBStats::Add(&stats_.flush_bytes, result.bytes_written);
  DBStats::Add(&stats_.flush_micros, env_->NowMicros() - start);
  if (mems.size() > 1) {
    DBStats::Add(&stats_.merged_flushes, 1);
    DBStats::Add(&stats_.merged_flush_components, mems.size());
  }
  Log(info_log_.get(),
      "flushed {} entries ({} dropped) of {} component(s) to {} L0 file(s) of family {}, {}",
      result.entries_written, result.entries_dropped, mems.size(), result.outputs.size(), cfd->name,
      HumanBytes(result.bytes_written));
  return Status::OK();
}

MergeJobOptions DBImpl::NewMergeJobOptions(const ColumnFamilyData* cfd) {
  MergeJobOptions job;
  job.dbname = dbname_;
  job.env = env_;
  // The family's format (block size, filter, compression) with the DB's cache and checks.
  job.table_options = TableOptionsFor(cfd->options, block_cache_.get());
  job.table_cache = table_cache_.get();
  job.paranoid_checks = options_.paranoid_checks;
  job.new_file_number = [this] { return NewFileNumber(); };
  job.cancel = &shutting_down_;
  return job;
}

// The analysis cannot tell this one method of the pt-guarded VersionSet from the others.
uint64_t DBImpl::NewFileNumber() { return versions_->NewFileNumber(); }

Status DBImpl::NewLoggedComponent(ColumnFamilyData* cfd, uint64_t first_log,
                                  std::shared_ptr<LoggedComponent>* result) {
  std::unique_ptr<MemoryComponent> rep;
  MemoryComponentContext context = ComponentContext();
  // relaxed: written only under switch_mu_ or before the family is published.
  context.write_buffer_size = cfd->next_write_buffer_size.load(std::memory_order_relaxed);
  // Under a budget a component is sized for its share of it: the structure a component lays
  // out for its size (FloDB's tables) must leave the budget room for the data.
  if (budget_ != nullptr && budget_->cap() > 0) {
    context.write_buffer_size = budget_->ComponentSize(context.write_buffer_size);
  }
  Status s = cfd->component_factory->NewComponent(context, &rep);
  if (!s.ok()) return s;
  *result = std::make_shared<LoggedComponent>(std::move(rep), first_log, context.write_buffer_size,
                                              env_->NowMicros());
  if (budget_ != nullptr) {
    // Its headroom: the charge's lag, a block in each of the (at most two) arenas one write
    // can start, and the structure of the component that replaces it (about its own).
    const size_t empty = (*result)->component->ApproximateMemoryUsage();
    const size_t headroom =
        budget_->step() + 2 * ArenaBlockSizeFor(context.write_buffer_size) + empty;
    (*result)->charge = std::make_unique<MemoryCharge>(options_.write_buffer_manager,
                                                       budget_client_, empty, headroom);
  }
  return Status::OK();
}

Status DBImpl::NewWalFile(std::shared_ptr<WalFile>* result) {
  const uint64_t number = NewFileNumber();
  const std::string fname = LogFileName(dbname_, number);
  std::unique_ptr<WritableFile> file;
  Status s = env_->NewWritableFile(fname, &file);
  if (!s.ok()) return s;
  *result =
      std::make_shared<WalFile>(std::make_unique<log::Writer>(std::move(file), fname), number);
  return Status::OK();
}

void DBImpl::RemoveObsoleteFilesOnOpen() {
  std::vector<std::string> children;
  if (!env_->GetChildren(dbname_, &children).ok()) return;
  uint64_t log_number, manifest_number;
  {
    MutexLock l(&mutex_);
    log_number = versions_->LogNumber();
    manifest_number = versions_->ManifestFileNumber();
  }
  for (const std::string& name : children) {
    uint64_t number;
    FileType type;
    if (!ParseFileName(name, &number, &type)) continue;
    bool remove = false;
    switch (type) {
      case FileType::kLog: remove = number < log_number; break;
      case FileType::kTable: remove = !file_registry_->IsLive(number); break;
      case FileType::kManifest: remove = number != manifest_number; break;
      case FileType::kTemp: remove = true; break;
      default: break;
    }
    if (remove) {
      Log(info_log_.get(), "removing obsolete file {}", name);
      env_->RemoveFile(dbname_ + "/" + name);
    }
  }
}

Status DBImpl::Close() {
  if (closed_.exchange(true)) return Status::OK();
  Status result;
  if (opened_) {
    // Data written with disable_wal is in no WAL: flush it so a clean close loses nothing.
    std::vector<ColumnFamilyData*> unlogged;
    {
      MutexLock l(&mutex_);
      for (ColumnFamilyData* cfd : LiveFamilies()) {
        SuperVersion* sv = CurrentSuperVersion(cfd);
        bool any = sv->mem->has_unlogged_writes.load();
        for (const auto& imm : sv->imms) any = any || imm->has_unlogged_writes.load();
        if (any) unlogged.push_back(cfd);
      }
    }
    for (ColumnFamilyData* cfd : unlogged) {
      if (!BackgroundError().ok()) break;
      Status s = SwitchMemoryComponent(cfd, nullptr, /*force=*/true);
      if (s.ok()) s = WaitForFlushes(cfd, nullptr);
      if (!s.ok() && result.ok()) result = s;
    }
  }
  // No flush is asked of this DB from now on (one asked already is dropped with its task).
  if (budget_client_ != nullptr) budget_->Unregister(budget_client_);
  StopBackgroundWork();
  std::vector<SuperVersion*> svs;
  {
    MutexLock l(&mutex_);
    for (const auto& [id, cfd] : families_) {
      svs.push_back(cfd->super_version.exchange(nullptr, std::memory_order_acq_rel));
    }
  }
  FamilyTable* table = family_table_.exchange(nullptr, std::memory_order_acq_rel);
  WalSet* wals = wal_set_.exchange(nullptr, std::memory_order_acq_rel);
  if (wals != nullptr) {
    // Make every acknowledged write durable, even those written with sync=false: in the
    // current WAL file, and in older ones whose components are not flushed yet.
    Status s;
    for (size_t i = 0; s.ok() && i < wals->older.size(); i++) s = wals->older[i]->log->Sync();
    if (s.ok()) s = wals->current->log->Sync();
    if (s.ok()) s = wals->current->log->Close();
    if (!s.ok() && result.ok() && BackgroundError().ok()) result = s;
  }
  // Files that became obsolete since background tasks last deleted some (an iterator let
  // go of its version, a retired SuperVersion was reclaimed) are deleted now, not left for the
  // next open. Reclaiming the retired SuperVersions first queues theirs. After a background
  // error nothing is deleted: a failed MANIFEST write may still name a file the DB dropped.
  epoch::DrainAll();
  {
    MutexLock l(&mutex_);
    if (opened_ && bg_error_.ok()) DeleteObsoleteFiles();
  }
  // The versions and components going away now still name live files: keep them.
  file_registry_->Disable();
  for (SuperVersion* sv : svs) {
    if (sv != nullptr) epoch::RetireDelete(sv);
  }
  if (wals != nullptr) epoch::RetireDelete(wals);
  if (table != nullptr) epoch::RetireDelete(table);
  epoch::DrainAll();
  {
    MutexLock l(&mutex_);
    versions_.reset();
    // (families_ stay until the DB is destroyed: handles point at them.)
    for (const auto& [id, cfd] : families_) cfd->versions = nullptr;
  }
  table_cache_.reset();
  block_cache_.reset();
  if (db_lock_ != nullptr) {
    env_->UnlockFile(std::move(db_lock_));
  }
  if (opened_) Log(info_log_.get(), "closed {}", dbname_);
  return result;
}

Status DestroyDB(const std::string& path, const Options& options) {
  Env* env = options.env != nullptr ? options.env : Env::Default();
  const std::string dbname = NormalizeDbPath(path);
  std::vector<std::string> children;
  Status s = env->GetChildren(dbname, &children);
  if (!s.ok()) return s.IsNotFound() ? Status::OK() : s;
  std::unique_ptr<FileLock> lock;
  s = env->LockFile(LockFileName(dbname), &lock);
  if (!s.ok()) return s;
  Status result;
  for (const std::string& name : children) {
    uint64_t number;
    FileType type;
    if (ParseFileName(name, &number, &type) && type != FileType::kLock) {
      Status del = env->RemoveFile(dbname + "/" + name);
      if (result.ok() && !del.ok() && !del.IsNotFound()) result = del;
    }
  }
  env->UnlockFile(std::move(lock));
  env->RemoveFile(LockFileName(dbname));
  env->RemoveDir(dbname);  // fails, harmlessly, if the directory holds other files
  return result;
}

}  // namespace sluice
