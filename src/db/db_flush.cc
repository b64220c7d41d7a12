// db/db_flush.cc — flushes: which family's immutable components go next and how many at once
// (PickFlush, ComponentsToFlush), writing them as one L0 file and installing it
// (FlushOldestImmutable), the flush task and the memory budget's flush request, and the
// caller-side Flush() and WaitForFlushes.
//
// Invariants: one flush runs at a time per DB (flush_running_), so L0 files are created in
// sequence order; a family's components are flushed oldest first; nothing is held back from a
// caller of WaitForFlushes (Flush, Close) nor under a memory budget; a flushed component's
// bytes leave the budget when its file is installed, not when its last reader lets go.

#include <algorithm>
#include <cassert>

#include "db/db_impl.h"
#include "util/epoch.h"
#include "util/kill_point.h"
#include "util/logging.h"

namespace sluice {
namespace {
// Whether a family's memory holds writes not yet in its SST files (an immutable component, or
// anything in the mutable one).
bool HoldsUnflushedWrites(const SuperVersion& sv) {
  return !sv.imms.empty() || sv.mem->component->HoldsData();
}

// Takes flushed components' bytes out of the memory budget.
void ReleaseCharges(const std::vector<std::shared_ptr<LoggedComponent>>& flushed) {
  for (const auto& c : flushed) {
    if (c->charge != nullptr) c->charge->Release();
  }
}

}  // namespace

void DBImpl::FlushTask() {
  MutexLock l(&mutex_);
  flush_scheduled_ = false;
  if (!shutting_down_.load() && bg_error_.ok() && !flush_running_) {
    if (ColumnFamilyData* cfd = PickFlush()) {
      flush_running_ = true;
      Status s = FlushOldestImmutable(cfd);
      flush_running_ = false;
      if (!s.ok() && !shutting_down_.load()) SetBackgroundError(s);
    }
  }
  MaybeScheduleWork();
  bg_cv_.SignalAll();
}

void DBImpl::BudgetFlushTask() {
  // The family whose mutable component is largest, if it holds data and can be switched
  // without waiting (this runs on the high pool, where the flushes that would end such a wait
  // run too).
  ColumnFamilyData* target = nullptr;
  {
    MutexLock l(&mutex_);
    size_t largest = 0;
    if (!shutting_down_.load() && bg_error_.ok()) {
      for (ColumnFamilyData* f : LiveFamilies()) {
        const SuperVersion* sv = CurrentSuperVersion(f);
        if (static_cast<int>(sv->imms.size()) + 1 >= f->options.max_write_buffer_number ||
            !sv->mem->component->HoldsData()) {
          continue;
        }
        const size_t bytes = sv->mem->component->ApproximateMemoryUsage();
        if (bytes > largest) {
          largest = bytes;
          target = f;
        }
      }
    }
  }
  bool switched = false;
  if (target != nullptr) {
    // An error is the DB's background error already, or the family's drop (InvalidArgument).
    Status s =
        SwitchMemoryComponent(target, nullptr, /*force=*/true, /*may_wait=*/false, &switched);
    if (switched) DBStats::Add(&stats_.budget_flushes, 1);
  }
  budget_->FlushRequestDone(budget_client_.get(), switched);
}

ColumnFamilyData* DBImpl::PickFlush() const {
  // The oldest component first (smallest first_log_number): its flush lets the oldest WAL
  // files go soonest.
  ColumnFamilyData* best = nullptr;
  uint64_t best_log = UINT64_MAX;
  for (ColumnFamilyData* f : LiveFamilies()) {
    const SuperVersion* sv = CurrentSuperVersion(f);
    if (!sv->imms.empty() && sv->imms.back()->first_log_number < best_log &&
        ComponentsToFlush(f) > 0) {
      best = f;
      best_log = sv->imms.back()->first_log_number;
    }
  }
  return best;
}

void DBImpl::IdleFamilyEdits(uint64_t log_number, const ColumnFamilyData* skip,
                             std::vector<VersionEdit>* edits) {
  // A family with no immutable component and nothing in its mutable one holds no write
  // logged below log_number (the caller guarantees none is in flight), so it needs no WAL
  // file below it.
  for (ColumnFamilyData* f : LiveFamilies()) {
    if (f == skip || f->versions->log_number >= log_number) continue;
    const SuperVersion* sv = CurrentSuperVersion(f);
    if (HoldsUnflushedWrites(*sv) || sv->mem->has_unlogged_writes.load()) {
      continue;
    }
    edits->emplace_back();
    edits->back().SetColumnFamily(f->id);
    edits->back().SetLogNumber(log_number);
  }
}

bool DBImpl::InLevel0Backlog(const ColumnFamilyData* cfd) const {
  const FileList& level0 = CurrentSuperVersion(cfd)->version->files(0);
  return static_cast<int>(level0.size()) >= cfd->options.level0_file_num_compaction_trigger ||
         std::any_of(level0.begin(), level0.end(),
                     [](const auto& f) { return f->being_compacted; });
}

bool DBImpl::InDeepLevel0Backlog(const ColumnFamilyData* cfd) const {
  return CurrentSuperVersion(cfd)->version->NumFiles(0) >=
         2 * cfd->options.level0_file_num_compaction_trigger;
}

size_t DBImpl::ComponentsToFlush(const ColumnFamilyData* cfd) const {
  const auto& imms = CurrentSuperVersion(cfd)->imms;
  const size_t ready = imms.size();
  if (ready == 0) return 0;
  // At most max_write_buffer_number - 1: while fewer are ready a writer can still switch to a
  // new component, so no writer ever waits for memory because of a held flush.
  const size_t most = static_cast<size_t>(cfd->options.max_write_buffer_number - 1);
  // A component that filled up below write_buffer_size (the family's sizes are still growing,
  // ColumnFamilyData::next_write_buffer_size) waits for the next one and goes into the same
  // L0 file: alone it would be a small file that brings the next L0 compaction one flush
  // earlier. It is small, and its WAL keeps it durable meanwhile. A caller of WaitForFlushes
  // (Flush, Close) gets it at once, and a forced switch of the next one (the WAL limit)
  // makes the pair.
  const LoggedComponent& oldest = *imms.back();
  // Under a memory budget nothing is held: the budget wants the bytes back.
  const bool pairs = budget_ == nullptr && oldest.switched_full &&
                     oldest.write_buffer_size < cfd->options.write_buffer_size && most >= 2;
  if (pairs && ready == 1) return flush_waiters_ == 0 && !shutting_down_.load() ? 0 : 1;
  const size_t at_least = pairs ? 2 : 1;
  const size_t merge =
      std::min<size_t>(static_cast<size_t>(cfd->options.level0_backlog_flush_merge), most);
  if (merge <= at_least || !InDeepLevel0Backlog(cfd)) return at_least;
  if (ready >= merge) return merge;
  // Hold only while a compaction runs: its end queues the flush task again (MaybeScheduleWork)
  // (the backlog may be over then; compactions stop once no level is over its target, so a
  // hold never outlives the backlog of a DB that stopped writing). A caller of WaitForFlushes
  // (Flush, Close) gets what is ready now.
  const bool hold = budget_ == nullptr && compactions_running_ + manual_compactions_ > 0 &&
                    flush_waiters_ == 0 && !shutting_down_.load();
  return hold ? 0 : ready;
}

Status DBImpl::FlushOldestImmutable(ColumnFamilyData* cfd) {
  assert(flush_running_);  // one flush at a time: only it removes immutable components
  const size_t count = ComponentsToFlush(cfd);
  const auto& all = CurrentSuperVersion(cfd)->imms;  // newest first
  assert(count >= 1 && count <= all.size());
  // The `count` oldest, newest of them first.
  const std::vector<std::shared_ptr<LoggedComponent>> batch(all.end() - static_cast<long>(count),
                                                            all.end());
  const Options& options = cfd->options;
  // In a backlog the file waits for more than the next L0 compaction to start, so it is
  // compressed like the levels below; otherwise it is compacted soon, and level0_compression
  // (none) saves the flush and the reads meanwhile the CPU.
  const CompressionType compression =
      InLevel0Backlog(cfd) ? options.compression : options.level0_compression;
  // The WAL file the batch's successor started: the batch's writes are all in older files.
  const uint64_t successor_log =
      (all.size() > count ? all[all.size() - count - 1] : CurrentSuperVersion(cfd)->mem)
          ->first_log_number;
  mutex_.Unlock();
  // Writers that reserved on the sealed log may still be adding to the component: wait for
  // every epoch section that might be one of them.
  epoch::Synchronize();
  // The SST makes the batch's writes durable; every write with a smaller sequence number must be
  // too, or a power loss could keep this family's newer writes and lose another family's older
  // ones (recovery must give a prefix of the writes in sequence order). Those are in the WAL
  // files below successor_log: sync them now (usually synced already: no I/O then).
  Status log_status;
  {
    std::vector<std::shared_ptr<WalFile>> older;
    {
      epoch::Guard guard;
      for (const auto& f : wal_set_.load(std::memory_order_acquire)->older) {
        if (f->number < successor_log) older.push_back(f);
      }
    }
    for (size_t i = 0; log_status.ok() && i < older.size(); i++) log_status = older[i]->log->Sync();
  }
  if (!log_status.ok()) {
    // Harmless if no other family has writes there (the SST will hold all of them); else the
    // flush must not make this family's writes durable ahead of theirs.
    mutex_.Lock();
    for (ColumnFamilyData* f : LiveFamilies()) {
      const SuperVersion* sv = CurrentSuperVersion(f);
      if (f != cfd && f->versions->log_number < successor_log && HoldsUnflushedWrites(*sv)) {
        return log_status;  // with mutex_ held, as the caller expects
      }
    }
    mutex_.Unlock();
    Log(info_log_.get(),
        "syncing the WAL files of a component being flushed failed (its "
        "writes go to the SST): {}",
        log_status.ToString());
  }
  VersionEdit edit;
  uint64_t bytes = 0;
  std::vector<MemoryComponent*> mems;
  for (const auto& imm : batch) mems.push_back(imm->component.get());
  Status s = WriteLevel0Table(cfd, mems, compression, &edit, &bytes);
  mutex_.Lock();
  if (!s.ok()) return s;
  SLUICE_KILL_POINT("flush.table_written");
  // Dropped meanwhile: the new files are nobody's.
  if (cfd->dropped.load()) {
    DiscardOutputs(edit.new_files());
    ReleaseCharges(batch);
    return Status::OK();
  }
  SuperVersion* sv = CurrentSuperVersion(cfd);
  std::vector<std::shared_ptr<LoggedComponent>> imms = sv->imms;
  // Only this thread removes immutable components (new ones are added at the front).
  assert(imms.size() >= count && imms.back() == batch.back());
  imms.resize(imms.size() - count);
  // WAL files older than the oldest component still in memory hold nothing unflushed of the
  // family.
  const uint64_t log_number =
      imms.empty() ? sv->mem->first_log_number : imms.back()->first_log_number;
  edit.SetColumnFamily(cfd->id);
  edit.SetLogNumber(log_number);
  // Every write logged below log_number has been inserted (the grace period above), so the
  // families with nothing in memory need none of those WAL files either: one MANIFEST write
  // moves their log numbers too.
  std::vector<VersionEdit> idle;
  IdleFamilyEdits(log_number, cfd, &idle);
  std::vector<VersionEdit*> group{&edit};
  for (VersionEdit& e : idle) group.push_back(&e);
  versions_->SetLastSequence(oracle_.LastSequence());
  s = versions_->LogAndApply(group);
  if (!s.ok()) return s;
  SLUICE_KILL_POINT("flush.installed");
  InstallSuperVersion(cfd, sv->mem, std::move(imms), cfd->versions->current);
  // Their bytes leave the memory budget now, not when the last reader lets go of them: a write
  // waiting for room must not wait on an iterator.
  ReleaseCharges(batch);
  DropObsoleteWals();
  flushes_completed_++;
  DeleteObsoleteFiles();
  return Status::OK();
}

Status DBImpl::WaitForFlushes(ColumnFamilyData* cfd, const LoggedComponent* target) {
  MutexLock l(&mutex_);
  flush_waiters_++;  // no flush is held for a second component meanwhile (ComponentsToFlush)
  Status s;
  for (;;) {
    if (!bg_error_.ok()) {
      s = bg_error_;
      break;
    }
    if (cfd->dropped.load()) break;  // nothing of it will be flushed
    const auto& imms = CurrentSuperVersion(cfd)->imms;
    const bool pending = target == nullptr
                             ? !imms.empty()
                             : std::any_of(imms.begin(), imms.end(),
                                           [&](const auto& m) { return m.get() == target; });
    if (!pending) break;
    if (shutting_down_.load()) {
      s = Status::IOError(dbname_, "database is closing");
      break;
    }
    MaybeScheduleWork();  // a flush held for a merge is not held for a waiter
    bg_cv_.Wait();
  }
  flush_waiters_--;
  return s;
}

Status DBImpl::Flush(ColumnFamilyHandle* family) {
  if (closed_.load(std::memory_order_acquire)) {
    return Status::InvalidArgument(dbname_, "database is closed");
  }
  ColumnFamilyData* cfd = nullptr;
  Status s = FamilyOf(family, "Flush", &cfd);
  if (!s.ok()) return s;
  s = BackgroundError();
  if (!s.ok()) return s;
  s = SwitchMemoryComponent(cfd, nullptr, /*force=*/true);
  if (!s.ok()) return s;
  const LoggedComponent* newest = nullptr;
  {
    MutexLock l(&mutex_);
    const auto& imms = CurrentSuperVersion(cfd)->imms;
    if (!imms.empty()) newest = imms.front().get();
  }
  // A family's components are flushed oldest first: once the newest is gone, all are.
  return newest == nullptr ? Status::OK() : WaitForFlushes(cfd, newest);
}

}  // namespace sluice
