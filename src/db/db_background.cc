// db/db_background.cc — background work: scheduling, compactions, deletion of obsolete files,
// the WAL set and SuperVersion installs; plus CompactRange(), which uses the same machinery from
// the caller's thread. Flushes (their choice, the flush task and Flush()) are in db_flush.cc.
//
// The work runs as tasks on the process-wide pools (util/task_scheduler.h) through this DB's
// client, tasks_: a flush on the high pool, the rest on the low pool. MaybeScheduleWork, called
// under mutex_ after every change that can make work (a component switch, a flush or a
// compaction installed, a waiter), queues at most one flush task and up to max_background_jobs
// - 1 compaction tasks. Each task does one unit of work and then asks again, so the pools
// alternate between DBs. A flush task flushes the oldest pending component (one at a time, so
// L0 files are created in sequence order). A compaction task runs, in this order of
// preference: a compaction if fewer than max_background_jobs - 1 run; else, if nothing else
// runs and no write has been applied for level0_idle_compaction_ms, an L0 -> L1 compaction of
// whatever L0 holds (or, with writes, once scans have paid for the L0 files they merge as much
// as that compaction costs: level0_scan_compaction); else a switch of a family that holds old
// WAL files back; else, if files became obsolete (an iterator or a retired SuperVersion released
// them), their deletion. A task that finds nothing ends; a tick every kBackgroundRecheck (and a
// recheck when an idle compaction comes due) looks again. The work itself runs without mutex_
// (a compaction's merge possibly split into key ranges run in parallel on the low pool,
// db/compaction_job.h); results are installed under it (LogAndApply, then a new SuperVersion).
// Close drops this DB's queued tasks and waits for its running ones only.

#include <fmt/format.h>

#include <algorithm>
#include <cassert>
#include <chrono>

#include "base/filename.h"
#include "db/compaction_job.h"
#include "db/db_impl.h"
#include "util/epoch.h"
#include "util/kill_point.h"
#include "util/logging.h"
#include "util/sync_point.h"
#include "util/task_scheduler.h"

namespace sluice {
namespace {

// How often an open DB looks for background work that no event announces (compactions that
// scans paid for, an idle compaction whose recheck was not queued).
constexpr std::chrono::microseconds kBackgroundRecheck = std::chrono::seconds(1);

}  // namespace

void DBImpl::StartBackgroundWork() {
  TaskScheduler& scheduler = *tasks_->scheduler();
  // This DB runs up to max_background_jobs - 1 compactions at once: the low pool has room for
  // them (RocksDB's IncBackgroundThreadsIfNeeded).
  scheduler.EnsureThreads(TaskScheduler::Pool::kLow, options_.max_background_jobs - 1);
  MutexLock l(&mutex_);
  tasks_->ScheduleAfter(TaskScheduler::Pool::kLow, kBackgroundRecheck, [this] { TickTask(); });
  MaybeScheduleWork();
}

void DBImpl::StopBackgroundWork() {
  {
    MutexLock l(&mutex_);
    shutting_down_.store(true);
    bg_cv_.SignalAll();
  }
  // Drops this DB's queued tasks and waits for its running ones (a flush or a compaction
  // finishes first); other DBs' tasks are not waited for.
  tasks_->Close();
}

void DBImpl::MaybeScheduleWork() {
  if (shutting_down_.load() || !bg_error_.ok()) return;
  if (!flush_scheduled_ && !flush_running_ && PickFlush() != nullptr) {
    flush_scheduled_ = true;
    tasks_->Schedule(TaskScheduler::Pool::kHigh, [this] { FlushTask(); });
  }
  // Up to the DB's share of compactions: each task that finds work asks again when it is done,
  // one that finds none ends (so nothing spins while, say, the inputs are busy).
  while (compaction_tasks_ < options_.max_background_jobs - 1 && LowPriorityWorkMayBeDue()) {
    compaction_tasks_++;
    tasks_->Schedule(TaskScheduler::Pool::kLow, [this] { CompactionTask(); });
  }
}

bool DBImpl::LowPriorityWorkMayBeDue() const {
  // acquire: see WakeForObsoleteFiles.
  if (obsolete_files_pending_.load(std::memory_order_acquire)) return true;
  for (ColumnFamilyData* f : LiveFamilies()) {
    if (f->versions->picker.MaxScore(*f->versions->current) >= 1.0) return true;
  }
  // (Idle and scan-paid L0 compactions are looked for by every compaction task, by the ticks
  // and by the rechecks those ask for.)
  return PickWalHolder() != nullptr;
}

void DBImpl::CompactionTask() {
  MutexLock l(&mutex_);
  uint64_t recheck_micros = 0;
  const bool worked =
      !shutting_down_.load() && bg_error_.ok() && RunLowPriorityJob(&recheck_micros);
  compaction_tasks_--;
  if (worked) {
    MaybeScheduleWork();
  } else if (recheck_micros > 0 && !shutting_down_.load()) {
    // An idle compaction comes due then (sooner than the next tick, which also looks).
    tasks_->ScheduleAfter(TaskScheduler::Pool::kLow, std::chrono::microseconds(recheck_micros),
                          [this] { WakeCompactionTask(); });
  }
  bg_cv_.SignalAll();
}

void DBImpl::WakeCompactionTask() {
  MutexLock l(&mutex_);
  if (shutting_down_.load() || !bg_error_.ok()) return;
  if (compaction_tasks_ < options_.max_background_jobs - 1) {
    compaction_tasks_++;
    tasks_->Schedule(TaskScheduler::Pool::kLow, [this] { CompactionTask(); });
  }
}

void DBImpl::TickTask() {
  WakeCompactionTask();
  // relaxed: a hint; a tick after Close began is refused by the closed client.
  if (!shutting_down_.load(std::memory_order_relaxed)) {
    tasks_->ScheduleAfter(TaskScheduler::Pool::kLow, kBackgroundRecheck, [this] { TickTask(); });
  }
}

void DBImpl::ObsoleteFilesTask() {
  MutexLock l(&mutex_);
  // Closing: Close deletes them. After a background error nothing is deleted: a failed
  // MANIFEST write may still name a file the DB dropped.
  if (shutting_down_.load() || !bg_error_.ok()) return;
  // acq_rel: pairs with the listener's exchange, so the files it announced are in the
  // registry's queue (also guarded by the registry's own lock) when DeleteObsoleteFiles takes
  // it; a later announcement sees false and queues another task.
  if (obsolete_files_pending_.exchange(false, std::memory_order_acq_rel)) DeleteObsoleteFiles();
}

void DBImpl::InstallSuperVersion(ColumnFamilyData* cfd, std::shared_ptr<LoggedComponent> mem,
                                 std::vector<std::shared_ptr<LoggedComponent>> imms,
                                 std::shared_ptr<const Version> version) {
  assert(mem != nullptr && version != nullptr);
  // Components newest first, each started on a newer WAL file than the ones after it.
  for (size_t i = 0; i < imms.size(); i++) {
    assert(imms[i] != nullptr);
    assert(imms[i]->first_log_number < (i == 0 ? mem : imms[i - 1])->first_log_number);
  }
  auto* fresh = new SuperVersion{std::move(mem), std::move(imms), std::move(version)};
  // acq_rel: readers that acquire the pointer see the fully built SuperVersion.
  SuperVersion* old = cfd->super_version.exchange(fresh, std::memory_order_acq_rel);
  if (old != nullptr) epoch::RetireDelete(old);
  UpdateWriteController();
}

void DBImpl::UpdateWriteController() {
  // The stall policy looks at every new tree (the pending bytes change only with the Version,
  // but an install is rare enough to recompute them: a few hundred files summed per family).
  // With several families: the fullest L0 and the summed debt, against the default family's
  // triggers.
  WriteController::Inputs in;
  in.l0_files = 0;
  in.pending_compaction_bytes = 0;
  for (ColumnFamilyData* cfd : LiveFamilies()) {
    const SuperVersion* sv = CurrentSuperVersion(cfd);
    if (sv == nullptr || cfd->versions == nullptr) continue;  // being opened
    in.l0_files = std::max(in.l0_files, sv->version->NumFiles(0));
    in.pending_compaction_bytes += cfd->versions->picker.EstimatePendingBytes(*sv->version);
  }
  in.bytes_written = DBStats::Get(stats_.user_bytes_written);
  in.now_micros = env_->NowMicros();
  const WriteController::State before = write_controller_.state();
  write_controller_.Update(in);
  if (write_controller_.state() != before) {
    static constexpr const char* kNames[] = {"normal", "delayed", "stopped"};
    Log(info_log_.get(), "writes {}: {} L0 files, {} pending compaction, rate {}/s",
        kNames[static_cast<int>(write_controller_.state())], in.l0_files,
        HumanBytes(in.pending_compaction_bytes),
        HumanBytes(write_controller_.delayed_write_rate()));
  }
}

void DBImpl::InstallWalSet(std::shared_ptr<WalFile> current,
                           std::vector<std::shared_ptr<WalFile>> older) {
  assert(current != nullptr);
  auto* fresh = new WalSet{std::move(current), std::move(older)};
  // acq_rel: writers that acquire the pointer see the fully built set.
  WalSet* old = wal_set_.exchange(fresh, std::memory_order_acq_rel);
  if (old != nullptr) epoch::RetireDelete(old);
}

void DBImpl::DropObsoleteWals() {
  const WalSet* wals = CurrentWalSet();
  const uint64_t log_number = versions_->LogNumber();
  if (wals->older.empty() || wals->older.front()->number >= log_number) return;
  std::vector<std::shared_ptr<WalFile>> older;
  for (const auto& f : wals->older) {
    if (f->number >= log_number) older.push_back(f);
  }
  // The files dropped close when the last writer that may still sync them lets go (the retired
  // set, at the end of the epoch sections that read it).
  InstallWalSet(wals->current, std::move(older));
}

void DBImpl::SetBackgroundError(const Status& s) {
  if (!bg_error_.ok() || s.ok()) return;
  bg_error_ = s;
  has_bg_error_.store(true, std::memory_order_release);
  Log(info_log_.get(), "background error, the database is now read-only: {}", s.ToString());
  bg_cv_.SignalAll();
}

bool DBImpl::RunLowPriorityJob(uint64_t* recheck_micros) {
  *recheck_micros = 0;
  // The pick that wins runs here, counted in compactions_running_ while it runs.
  std::unique_ptr<Compaction> c;
  ColumnFamilyData* cfd = nullptr;
  if (compactions_running_ < options_.max_background_jobs - 1) {
    // The family with the highest score first; one that cannot start (files busy) yields to
    // the next.
    std::vector<std::pair<double, ColumnFamilyData*>> scored;
    for (ColumnFamilyData* f : LiveFamilies()) {
      const double score = f->versions->picker.MaxScore(*f->versions->current);
      if (score >= 1.0) scored.emplace_back(score, f);
    }
    std::sort(scored.begin(), scored.end(),
              [](const auto& a, const auto& b) { return a.first > b.first; });
    for (const auto& [score, f] : scored) {
      c = f->versions->PickCompaction();
      if (c != nullptr) {
        cfd = f;
        break;
      }
    }
  }
  if (c == nullptr && compactions_running_ == 0 && manual_compactions_ == 0) {
    c = PickIdleCompaction(&cfd, recheck_micros);
    if (c != nullptr) {
      DBStats::Add(&stats_.idle_compactions, 1);
    } else {
      c = PickScanCompaction(&cfd);
      if (c != nullptr) DBStats::Add(&stats_.scan_compactions, 1);
    }
  }
  if (c != nullptr) {
    compactions_running_++;
    Status s = RunCompaction(cfd, std::move(c));
    compactions_running_--;
    if (!s.ok() && !shutting_down_.load()) SetBackgroundError(s);
    return true;
  }
  // Old WAL files held back by a family that gets few writes: switch its component (the
  // flush then lets them go).
  if (ColumnFamilyData* holder = PickWalHolder()) {
    mutex_.Unlock();
    Status s = SwitchMemoryComponent(holder, nullptr, /*force=*/true);
    mutex_.Lock();
    if (!s.ok() && !s.IsInvalidArgument() && !shutting_down_.load()) SetBackgroundError(s);
    return true;
  }
  // acq_rel: as in ObsoleteFilesTask.
  if (obsolete_files_pending_.exchange(false, std::memory_order_acq_rel)) {
    DeleteObsoleteFiles();
    return true;
  }
  return false;
}

void DBImpl::WakeForObsoleteFiles() {
  // acq_rel: the release half pairs with the task's exchange (see ObsoleteFilesTask); true
  // already: a task is queued, or one that has not yet taken the flag will see these files.
  if (obsolete_files_pending_.exchange(true, std::memory_order_acq_rel)) return;
  // Refused once the DB closes (which deletes them itself). The scheduler's lock is a leaf, so
  // this may run under the registry's lock and mutex_.
  tasks_->Schedule(TaskScheduler::Pool::kLow, [this] { ObsoleteFilesTask(); });
}

std::unique_ptr<Compaction> DBImpl::PickIdleCompaction(ColumnFamilyData** cfd,
                                                       uint64_t* recheck_micros) {
  *recheck_micros = 0;
  const uint64_t now = env_->NowMicros();
  const SequenceNumber last = oracle_.LastSequence();
  if (last != idle_sequence_ || idle_since_micros_ == 0) {
    idle_sequence_ = last;  // a write since the last look: the idle period starts now
    idle_since_micros_ = now;
  }
  const uint64_t idle_for = now >= idle_since_micros_ ? now - idle_since_micros_ : 0;
  for (ColumnFamilyData* f : LiveFamilies()) {
    std::shared_ptr<const Version> v = f->versions->current;
    // A pending flush adds an L0 file: let it land first (its completion wakes this loop).
    if (!IdleCompactionOwed(*f, *v) || !CurrentSuperVersion(f)->imms.empty()) continue;
    const uint64_t delay = static_cast<uint64_t>(f->options.level0_idle_compaction_ms) * 1000;
    if (idle_for < delay) {
      const uint64_t wait = delay - idle_for;
      if (*recheck_micros == 0 || wait < *recheck_micros) *recheck_micros = wait;
      continue;
    }
    bool busy = false;
    std::unique_ptr<Compaction> c = f->versions->picker.PickRange(v, 0, nullptr, nullptr, &busy);
    if (c == nullptr) {
      // Files in use: look again later.
      if (busy && (*recheck_micros == 0 || delay < *recheck_micros)) *recheck_micros = delay;
      continue;
    }
    Log(info_log_.get(), "writes idle for {} ms: compacting {} L0 files of family {} into L1",
        idle_for / 1000, v->NumFiles(0), f->name);
    *cfd = f;
    return c;
  }
  return nullptr;
}

std::unique_ptr<Compaction> DBImpl::PickScanCompaction(ColumnFamilyData** cfd) {
  const SequenceNumber last = oracle_.LastSequence();
  for (ColumnFamilyData* f : LiveFamilies()) {
    if (!f->options.level0_scan_compaction) continue;
    std::shared_ptr<const Version> v = f->versions->current;
    std::vector<uint64_t> files;
    for (int level = 0; level <= 1 && level < v->num_levels(); level++) {
      for (const auto& file : v->files(level)) files.push_back(file->number);
    }
    const uint64_t charges = f->level0_scan_charges.Get();
    if (files != f->scan_files) {
      // L0 or L1 changed: the charges so far paid for other files. Count afresh.
      f->scan_files = std::move(files);
      f->scan_charges_base = charges;
      f->scan_writes_base = last;
      continue;
    }
    const int l0_files = v->NumFiles(0);
    // A pending flush adds an L0 file: let it land first.
    if (l0_files < 2 || !CurrentSuperVersion(f)->imms.empty()) continue;
    const uint64_t paid = charges - f->scan_charges_base;
    const uint64_t writes = last - f->scan_writes_base;
    // Rent or buy: compact once the scans have paid what the compaction costs (an L0 seek, a
    // block read and its share of the merge, costs about what compacting 1 KiB does), so they
    // never pay more than twice the optimum. The floor covers a compaction's fixed costs (a
    // new version, tables opened, blocks cached again), and keeps a few iterators over a
    // small database from starting one.
    constexpr uint64_t kMinScanCharges = 65536;
    const uint64_t cost =
        std::max(kMinScanCharges, (v->NumLevelBytes(0) + v->NumLevelBytes(1)) / 1024);
    // Scans outnumber writes: each charge is one L0 file of one iterator and L0 is the same
    // since the count started, so paid / l0_files is the number of iterators. Writes to other
    // families count too (sequence numbers are the DB's): that only holds the compaction back.
    if (paid < cost || writes > paid / static_cast<uint64_t>(l0_files)) continue;
    bool busy = false;
    std::unique_ptr<Compaction> c = f->versions->picker.PickRange(v, 0, nullptr, nullptr, &busy);
    if (c == nullptr) continue;  // files in use: look again later
    Log(info_log_.get(),
        "scans paid {} L0 file seeks (cost {} KiB) against {} writes: compacting {} L0 files of "
        "family {} into L1",
        paid, cost, writes, l0_files, f->name);
    *cfd = f;
    return c;
  }
  return nullptr;
}

ColumnFamilyData* DBImpl::PickWalHolder() const {
  const WalSet* wals = CurrentWalSet();
  if (wals->older.empty()) return nullptr;
  uint64_t total = wals->current->log->ReservedSize();
  for (const auto& f : wals->older) total += f->log->ReservedSize();
  uint64_t limit = options_.max_total_wal_size;
  const std::vector<ColumnFamilyData*> live = LiveFamilies();
  if (limit == 0) {
    for (ColumnFamilyData* f : live) {
      limit += 4 * f->options.write_buffer_size *
               static_cast<uint64_t>(f->options.max_write_buffer_number);
    }
  }
  if (total <= limit) return nullptr;
  const uint64_t oldest = versions_->LogNumber();
  for (ColumnFamilyData* f : live) {
    const SuperVersion* sv = CurrentSuperVersion(f);
    if (f->versions->log_number == oldest && sv->imms.empty() &&
        sv->mem->first_log_number <= oldest && sv->mem->component->HoldsData()) {
      return f;
    }
  }
  return nullptr;
}

Status DBImpl::RunCompaction(ColumnFamilyData* cfd, std::unique_ptr<Compaction> c) {
  assert(c != nullptr && compactions_running_ + manual_compactions_ > 0);  // counted by the caller
  assert(!c->inputs(0).empty());
  const uint64_t start = env_->NowMicros();
  LevelCompactionStats& level_stats = stats_.levels[static_cast<size_t>(c->level())];
  if (c->IsTrivialMove()) {
    const auto& f = c->inputs(0)[0];
    VersionEdit edit;
    edit.SetColumnFamily(cfd->id);
    edit.RemoveFile(c->level(), f->number);
    edit.AddFile(c->output_level(), *f);
    Status s = cfd->dropped.load() ? Status::OK() : versions_->LogAndApply(&edit);
    c->ReleaseInputs();
    if (!s.ok() || cfd->dropped.load()) return s;
    SuperVersion* sv = CurrentSuperVersion(cfd);
    InstallSuperVersion(cfd, sv->mem, sv->imms, cfd->versions->current);
    level_stats.trivial_moves++;
    Log(info_log_.get(), "moved #{} to L{} ({})", f->number, c->output_level(),
        cfd->versions->LevelSummary());
    return Status::OK();
  }
  const std::string summary = c->Summary();
  mutex_.Unlock();
  TEST_SYNC_POINT("DBImpl::RunCompaction:Begin");  // a merge is about to start, without mutex_
  Log(info_log_.get(), "compacting {}", summary);

  CompactionJobOptions job;
  job.merge = NewMergeJobOptions(cfd);
  job.table_cache = table_cache_.get();
  job.snapshots = snapshots_.Sequences();
  job.max_subcompactions = cfd->options.max_subcompactions;
  // A range gets at least one full output file of input: smaller ones save little time and
  // leave small files behind.
  job.min_subcompaction_bytes = c->max_output_file_size();
  job.tasks = tasks_.get();
  CompactionJobResult job_result;
  Status s = RunCompactionJob(job, *c, &job_result);
  const MergeJobResult& result = job_result.merged;

  mutex_.Lock();
  c->ReleaseInputs();
  if (!s.ok()) {
    Log(info_log_.get(), "compaction {} failed: {}", summary, s.ToString());
    return s;
  }
  SLUICE_KILL_POINT("compaction.outputs_written");
  // Dropped meanwhile: the outputs are nobody's.
  if (cfd->dropped.load()) {
    std::vector<std::pair<int, FileMetaData>> outputs;
    for (const FileMetaData& f : result.outputs) outputs.emplace_back(c->output_level(), f);
    DiscardOutputs(outputs);
    return Status::OK();
  }
  VersionEdit edit;
  edit.SetColumnFamily(cfd->id);
  c->AddInputDeletions(&edit);
  for (const FileMetaData& f : result.outputs) edit.AddFile(c->output_level(), f);
  if (!c->inputs(0).empty()) edit.SetCompactPointer(c->level(), c->inputs(0).back()->largest);
  s = versions_->LogAndApply(&edit);
  // On failure the outputs stay: the edit may have reached the MANIFEST (a failed sync), so the
  // next open may use them. Nothing refers to them otherwise; they are deleted once a later
  // edit (written to a new MANIFEST) or the next open finds them unused.
  if (!s.ok()) return s;
  SLUICE_KILL_POINT("compaction.installed");
  SuperVersion* sv = CurrentSuperVersion(cfd);
  InstallSuperVersion(cfd, sv->mem, sv->imms, cfd->versions->current);
  level_stats.compactions++;
  if (job_result.subcompactions > 1) {
    DBStats::Add(&stats_.split_compactions, 1);
    DBStats::Add(&stats_.split_compaction_ranges, static_cast<uint64_t>(job_result.subcompactions));
  }
  level_stats.bytes_read += c->InputBytes();
  level_stats.bytes_written += result.bytes_written;
  level_stats.micros += env_->NowMicros() - start;
  Log(info_log_.get(),
      "compacted {} in {} range(s): {} entries in, {} out, {} dropped, {} written; {}; {} "
      "pending compaction",
      summary, job_result.subcompactions, result.entries_read, result.entries_written,
      result.entries_dropped, HumanBytes(result.bytes_written), cfd->versions->LevelSummary(),
      HumanBytes(write_controller_.pending_compaction_bytes()));
  DeleteObsoleteFiles();
  return Status::OK();
}

void DBImpl::DiscardOutputs(const std::vector<std::pair<int, FileMetaData>>& files) {
  for (const auto& [level, f] : files) {
    table_cache_->Evict(f.number);
    env_->RemoveFile(TableFileName(dbname_, f.number));
  }
}

void DBImpl::DeleteObsoleteFiles() {
  const std::vector<uint64_t> tables = file_registry_->TakeObsolete();
  const uint64_t log_number = versions_->LogNumber();
  const uint64_t manifest_number = versions_->ManifestFileNumber();
  mutex_.Unlock();
  SLUICE_KILL_POINT("obsolete.before_delete");
  for (uint64_t number : tables) {
    table_cache_->Evict(number);
    env_->RemoveFile(TableFileName(dbname_, number));
    SLUICE_KILL_POINT("obsolete.mid_delete");
  }
  std::vector<std::string> children;
  if (env_->GetChildren(dbname_, &children).ok()) {
    for (const std::string& name : children) {
      uint64_t number;
      FileType type;
      if (!ParseFileName(name, &number, &type)) continue;
      if ((type == FileType::kLog && number < log_number) ||
          (type == FileType::kManifest && number < manifest_number)) {
        env_->RemoveFile(dbname_ + "/" + name);
      }
    }
  }
  mutex_.Lock();
}

Status DBImpl::CompactRange(ColumnFamilyHandle* family, const Slice* begin, const Slice* end) {
  Status s = Flush(family);
  if (!s.ok()) return s;
  ColumnFamilyData* cfd = nullptr;
  s = FamilyOf(family, "CompactRange", &cfd);
  if (!s.ok()) return s;
  MutexLock l(&mutex_);
  if (cfd->dropped.load()) {
    return Status::InvalidArgument(
        fmt::format("CompactRange: column family \"{}\" was dropped", cfd->name));
  }
  int max_level = 1;
  {
    std::shared_ptr<const Version> v = cfd->versions->current;
    for (int level = 1; level < v->num_levels(); level++) {
      if (v->OverlapInLevel(level, begin, end)) max_level = level;
    }
  }
  for (int level = 0; level < max_level; level++) {
    for (;;) {
      if (!bg_error_.ok()) return bg_error_;
      if (shutting_down_.load()) return Status::IOError(dbname_, "database is closing");
      if (cfd->dropped.load()) return Status::OK();
      bool busy = false;
      std::unique_ptr<Compaction> c =
          cfd->versions->picker.PickRange(cfd->versions->current, level, begin, end, &busy);
      if (c == nullptr) {
        if (!busy) break;
        bg_cv_.Wait();  // a background compaction holds some of the files
        continue;
      }
      c->manual = true;  // rewrite even a lone file: the caller asked for its range compacted
      manual_compactions_++;
      s = RunCompaction(cfd, std::move(c));
      manual_compactions_--;
      MaybeScheduleWork();  // a flush held while it ran, an idle compaction it held back
      bg_cv_.SignalAll();
      if (!s.ok()) {
        SetBackgroundError(s);
        return s;
      }
      break;
    }
  }
  return Status::OK();
}

}  // namespace sluice
