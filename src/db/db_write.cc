// db/db_write.cc — the write path (WriteImpl: ReserveOnCurrent, ReserveWrite, CompleteWrite),
// the switch of a full memory component, SyncWAL, and the stall policy. The path, step by
// step, is in docs/design.md ("The path of a write"); each step's contract is on its
// declaration in db_impl.h.
//
// Two orderings carry the write path's guarantees. The sequence number is taken inside the log
// reservation (ReserveWrite), so log order is sequence order (a write that skips the WAL takes
// it without the log's lock, and checks the seal afterwards: see ReserveWrite). And the flush
// of a switched component starts only after an epoch grace period (db_flush.cc), so a
// writer that reserved on the sealed log has inserted before the flush reads the component:
// that is why a write holds one epoch section from its reservation to its insertion
// (ReservedWrite::section).
//
// Stall policy: the write controller (write_controller.h) says, from L0 and the compaction
// debt, whether a write runs, is paced (it sleeps its share of the rate, once) or waits until
// compaction catches up; when max_write_buffer_number components exist (one mutable, the rest
// waiting for flush) a write that finds the mutable one full waits for a flush
// (WaitWhileStalled).

#include <fmt/format.h>

#include <algorithm>
#include <cassert>

#include "db/db_impl.h"
#include "db/write_batch_internal.h"
#include "util/epoch.h"
#include "util/logging.h"
#include "util/sync_point.h"

namespace sluice {

namespace {

// Put and Delete build their one-update batch in a buffer the thread keeps, so a write of a
// small value allocates nothing. A thread already inside such a write (none today, but a
// callback could write) gets a batch of its own; a buffer grown past 1 MB by a large value is
// given back.
class ThreadBatch {
 public:
  ThreadBatch() : batch_(in_use_ ? &own_ : &Cached()), nested_(in_use_) {
    in_use_ = true;
    batch_->Clear();
  }
  ~ThreadBatch() {
    if (nested_) return;
    in_use_ = false;
    if (batch_->ApproximateSize() > (1u << 20)) *batch_ = WriteBatch();
  }
  ThreadBatch(const ThreadBatch&) = delete;
  ThreadBatch& operator=(const ThreadBatch&) = delete;
  WriteBatch* get() { return batch_; }

 private:
  static WriteBatch& Cached() {
    thread_local WriteBatch batch;
    return batch;
  }
  static thread_local bool in_use_;
  WriteBatch own_;
  WriteBatch* const batch_;
  const bool nested_;
};

thread_local bool ThreadBatch::in_use_ = false;

}  // namespace

Status DBImpl::Put(const WriteOptions& options, ColumnFamilyHandle* family, const Slice& key,
                   const Slice& value) {
  return WriteSingle(options, family, {kTypeValue, key, value});
}

Status DBImpl::Delete(const WriteOptions& options, ColumnFamilyHandle* family, const Slice& key) {
  return WriteSingle(options, family, {kTypeDeletion, key, Slice()});
}

Status DBImpl::DeleteRange(const WriteOptions& options, ColumnFamilyHandle* family,
                           const Slice& begin, const Slice& end) {
  if (closed_.load(std::memory_order_acquire)) {
    return Status::InvalidArgument(dbname_, "database is closed");
  }
  ColumnFamilyData* cfd = nullptr;
  Status s = FamilyOf(family, "DeleteRange", &cfd);
  if (!s.ok()) return s;
  if (begin.compare(end) > 0) {
    return Status::InvalidArgument(fmt::format(
        "DeleteRange: begin ({} bytes) is after end ({} bytes)", begin.size(), end.size()));
  }
  if (begin == end) return Status::OK();  // an empty range deletes nothing
  s = ValidateSizes(std::max(begin.size(), end.size()), 0);
  if (!s.ok()) return s;
  WriteBatch batch;
  batch.DeleteRange(&cfd->handle, begin, end);
  return WriteImpl(options, &batch, std::span<ColumnFamilyData* const>(&cfd, 1));
}

Status DBImpl::WriteSingle(const WriteOptions& options, ColumnFamilyHandle* family,
                           const SingleUpdate& update) {
  if (closed_.load(std::memory_order_acquire)) {
    return Status::InvalidArgument(dbname_, "database is closed");
  }
  ColumnFamilyData* cfd = nullptr;
  Status s = FamilyOf(family, update.type == kTypeValue ? "Put" : "Delete", &cfd);
  if (!s.ok()) return s;
  s = ValidateSizes(update.key.size(), update.value.size());
  if (!s.ok()) return s;
  ThreadBatch batch;
  // (The default family's records carry no family id: no handle needed to encode them.)
  ColumnFamilyHandle* encode_as = cfd == default_cfd_ ? nullptr : &cfd->handle;
  if (options.disable_wal) {
    // No log record is written, and the update goes to the component from `update`: the
    // batch carries only its header (the count, and the sequence number it is given).
    WriteBatchInternal::SetCount(batch.get(), 1);
  } else if (update.type == kTypeValue) {
    batch.get()->Put(encode_as, update.key, update.value);
  } else {
    batch.get()->Delete(encode_as, update.key);
  }
  return WriteImpl(options, batch.get(), std::span<ColumnFamilyData* const>(&cfd, 1), &update);
}

Status DBImpl::ValidateBatch(WriteBatch* batch, std::vector<ColumnFamilyData*>* families) const {
  size_t max_key = 0, max_value = 0;
  std::vector<uint32_t> ids;
  Status s = WriteBatchInternal::CheckUpdates(batch, &max_key, &max_value, &ids);
  if (!s.ok()) return s;
  s = ValidateSizes(max_key, max_value);
  if (!s.ok()) return s;
  families->clear();
  if (ids.size() == 1 && ids[0] == 0) {  // the common batch: no table lookup, no epoch fence
    families->push_back(default_cfd_);
    return Status::OK();
  }
  epoch::Guard guard;  // the table; the families it names live as long as the DB
  const FamilyTable* table = family_table_.load(std::memory_order_acquire);
  for (uint32_t id : ids) {
    ColumnFamilyData* cfd = table->Find(id);
    if (cfd == nullptr) {
      return Status::InvalidArgument(fmt::format(
          "WriteBatch: column family {} does not exist in {} (dropped, or of another database)", id,
          dbname_));
    }
    families->push_back(cfd);
  }
  return Status::OK();
}

Status DBImpl::ValidateSizes(size_t max_key, size_t max_value) const {
  if (max_key > options_.max_key_size) {
    return Status::InvalidArgument(fmt::format("key of {} bytes exceeds Options::max_key_size ({})",
                                               max_key, options_.max_key_size));
  }
  if (max_value > options_.max_value_size) {
    return Status::InvalidArgument(
        fmt::format("value of {} bytes exceeds Options::max_value_size ({})", max_value,
                    options_.max_value_size));
  }
  return Status::OK();
}

Status DBImpl::Write(const WriteOptions& options, WriteBatch* batch) {
  if (closed_.load(std::memory_order_acquire)) {
    return Status::InvalidArgument(dbname_, "database is closed");
  }
  if (batch == nullptr || batch->Count() == 0) return Status::OK();
  std::vector<ColumnFamilyData*> families;
  Status s = ValidateBatch(batch, &families);
  if (!s.ok()) return s;
  return WriteImpl(options, batch, families);
}

Status DBImpl::BackgroundError() {
  if (!has_bg_error_.load(std::memory_order_acquire)) return Status::OK();
  MutexLock l(&mutex_);
  return bg_error_;
}

Status DBImpl::WaitWhileStalled(const std::function<bool()>& stalled, std::atomic<uint64_t>* stalls,
                                std::atomic<uint64_t>* micros, bool closing_ok) {
  mutex_.AssertHeld();
  const uint64_t start = env_->NowMicros();
  while (stalled() && bg_error_.ok() && !shutting_down_.load()) {
    MaybeScheduleWork();  // make sure the work that ends it is queued
    bg_cv_.Wait();
  }
  DBStats::Add(stalls, 1);
  DBStats::Add(micros, env_->NowMicros() - start);
  if (!bg_error_.ok()) return bg_error_;
  if (shutting_down_.load() && !closing_ok) {
    return Status::IOError(dbname_, "database is closing");
  }
  return Status::OK();
}

Status DBImpl::WaitForRoom(uint64_t bytes, bool* delayed) {
  *delayed = true;  // delayed once at most (a write that waited for a stop is not delayed again)
  if (write_controller_.state() == WriteController::State::kStopped) {
    MutexLock l(&mutex_);
    return WaitWhileStalled(
        [this]() REQUIRES(mutex_) {
          return write_controller_.state() == WriteController::State::kStopped;
        },
        &stats_.stop_writes, &stats_.stop_micros, /*closing_ok=*/false);
  }
  // At most a second per write: a huge batch at a slow rate would otherwise sleep for longer
  // than an int holds; the clock stays ahead, so the writes after it wait for the rest.
  const uint64_t wait =
      std::min<uint64_t>(write_controller_.Pace(bytes, env_->NowMicros()), 1000000);
  DBStats::Add(&stats_.slowdown_writes, 1);
  if (wait > 0) {
    env_->SleepForMicroseconds(static_cast<int>(wait));
    DBStats::Add(&stats_.slowdown_micros, wait);
  }
  return Status::OK();
}

Status DBImpl::WaitForBudget(bool* past_budget) {
  const uint64_t start = env_->NowMicros();
  uint64_t seen = budget_->releases();
  uint64_t last_progress = start;
  Status s;
  while (budget_->ShouldStall()) {
    s = BackgroundError();
    if (!s.ok()) break;
    if (shutting_down_.load()) {
      s = Status::IOError(
          fmt::format("{}: closing while a write waited for the memory budget", dbname_));
      break;
    }
    budget_->MaybeRequestFlush();
    budget_->WaitForRelease(seen, kBudgetWaitSlice);
    const uint64_t now = env_->NowMicros();
    const uint64_t releases = budget_->releases();
    if (releases != seen) {
      seen = releases;
      last_progress = now;
    } else if (now - last_progress >= kBudgetWaitWithoutProgress) {
      // Nothing was flushed or freed anywhere for that long (a DB's flushes fail, or every
      // byte is pinned): the write goes ahead rather than wait for good.
      *past_budget = true;
      break;
    }
  }
  const uint64_t waited = env_->NowMicros() - start;
  budget_->RecordStall(waited);
  DBStats::Add(&stats_.budget_stalls, 1);
  DBStats::Add(&stats_.budget_stall_micros, waited);
  return s;
}

Status DBImpl::WriteImpl(const WriteOptions& options, WriteBatch* batch,
                         std::span<ColumnFamilyData* const> families, const SingleUpdate* single) {
  assert(!families.empty());
  const uint32_t count = WriteBatchInternal::Count(batch);
  WriteWaits waits;
  for (;;) {
    Status s = BackgroundError();
    if (!s.ok()) return s;

    ReservedWrite w;
    w.single = single;
    w.families = families;
    bool retry = false;
    s = ReserveOnCurrent(options, batch, &w, &retry, &waits);
    if (!s.ok()) return s;
    if (retry) continue;
    s = CompleteWrite(options, batch, &w);
    w.section.Leave();
    if (s.ok()) {
      DBStats::Add(&stats_.writes, 1);
      DBStats::Add(&stats_.keys_written, count);
      DBStats::Add(&stats_.user_bytes_written,
                   single != nullptr
                       ? single->key.size() + single->value.size()
                       : WriteBatchInternal::ByteSize(batch) - WriteBatchInternal::kHeader);
    }
    return s;
  }
}

bool DBImpl::IsFull(const LoggedComponent& logged) const {
  // A component that holds nothing is never switched out, even if its empty structure alone
  // reaches the budget: a fresh one would be no emptier, and the writers would switch forever.
  const MemoryComponent& component = *logged.component;
  const size_t usage = component.ApproximateMemoryUsage();
  if (logged.charge != nullptr) logged.charge->Update(usage);
  return (usage >= logged.write_buffer_size || component.WantsEarlySwitch()) &&
         component.HoldsData();
}

Status DBImpl::ReserveOnCurrent(const WriteOptions& options, WriteBatch* batch, ReservedWrite* w,
                                bool* retry, WriteWaits* waits) {
  assert(!w->section.inside() && w->slot < 0);
  *retry = false;
  // One epoch section (one full fence) per write: the stall policy is consulted in the
  // section that pins the component, and the write leaves it only to wait.
  epoch::Guard section;
  // The WalSet first, then the SuperVersion (the order wal_set.h relies on: a switch installs
  // them the other way round).
  WalSet* wals = wal_set_.load(std::memory_order_acquire);
  ColumnFamilyData* cfd = w->families[0];
  SuperVersion* sv = cfd->super_version.load(std::memory_order_acquire);
  const WriteController::State stall = write_controller_.state();
  if (stall == WriteController::State::kStopped ||
      (stall == WriteController::State::kDelayed && !waits->delayed)) {
    section.Leave();
    Status s = WaitForRoom(WriteBatchInternal::ByteSize(batch), &waits->delayed);
    *retry = s.ok();
    return s;
  }
  // A batch across families also needs each other family's SuperVersion (loaded, like the
  // first, after the WalSet); a full component in any of them is switched first.
  w->more_svs.clear();
  for (size_t i = 0; i < w->families.size(); i++) {
    ColumnFamilyData* f = w->families[i];
    SuperVersion* fsv = i == 0 ? sv : f->super_version.load(std::memory_order_acquire);
    if (i > 0) w->more_svs.push_back(fsv);
    if (IsFull(*fsv->mem)) {
      // Only compared by SwitchMemoryComponent, never dereferenced after the section ends.
      const LoggedComponent* full = fsv->mem.get();
      section.Leave();
      Status s = SwitchMemoryComponent(f, full, /*force=*/false);
      *retry = s.ok();
      return s;
    }
  }
  // The memory budget shared with other DBs: ask for a flush past its thresholds (it picks
  // the largest mutable component of them all), and wait while the cap is reached.
  if (budget_ != nullptr) {
    if (budget_->ShouldFlush()) budget_->MaybeRequestFlush();
    if (!waits->past_budget && budget_->ShouldStall()) {
      section.Leave();
      Status s = WaitForBudget(&waits->past_budget);
      *retry = s.ok();
      return s;
    }
  }
  // The component's first cache miss starts now and overlaps the sequence number's.
  if (w->single != nullptr) sv->mem->component->PrefetchForAdd(w->single->key);
  Status s = ReserveWrite(options, wals->current.get(), batch, w);
  if (!s.ok()) {
    section.Leave();
    if (!s.IsBusy()) return s;
    // Sealed: a switch is installing a new component. Wait for it, then retry.
    MutexLock wait_for_switch(&switch_mu_);
    *retry = true;
    return Status::OK();
  }
  w->wals = wals;
  w->sv = sv;
  w->section = std::move(section);
  return s;
}

Status DBImpl::ReserveWrite(const WriteOptions& options, WalFile* wal, WriteBatch* batch,
                            ReservedWrite* w) {
  assert(epoch::InSection());          // pins wal
  assert(w->slot < 0 && w->seq == 0);  // nothing reserved yet
  assert(WriteBatchInternal::Count(batch) > 0);
  w->multi = WriteBatchInternal::Count(batch) > 1;
  // A single-update write names its key, so a read-modify-write of another key need not wait
  // for it (SequenceOracle::FenceBelow).
  // (A caller that knows the key's tag already, a read-modify-write, has set it.)
  if (w->key_tag == SequenceOracle::kAnyKey) {
    Slice key;
    if (w->single != nullptr) {
      w->key_tag = SequenceOracle::KeyTag(w->single->key);
    } else if (WriteBatchInternal::SingleKey(batch, &key)) {
      w->key_tag = SequenceOracle::KeyTag(key);
    }
  }
  // An internal key holds 56 bits of sequence (base/internal_key.h): refuse writes well before the
  // counter could pass that, rather than wrap around. The margin covers every writer that can
  // pass the check at once. A logged write checks before it reserves (a reservation must be
  // filled); an unlogged one checks the number it drew, and so does not load the counter's
  // cache line, which every writer takes, twice (once shared, then exclusive).
  const auto exhausted = [this] {
    return Status::NotSupported(dbname_, "sequence numbers are exhausted (2^56 writes)");
  };
  if (!options.disable_wal && oracle_.LastSequence() > kMaxSequenceNumber - kSequenceMargin) {
    return exhausted();
  }
  w->slot = oracle_.ClaimSlot();
  Status s;
  if (options.disable_wal) {
    // No record, so no place in the log to take: the sequence number is taken without the
    // log's mutex (which every writer would otherwise lock twice). What the mutex gave, the
    // seal check after the fact gives here: AssignSequence's seq_cst fetch_add comes before
    // this seq_cst load of the seal flag, and SwitchMemoryComponent seals (seq_cst store)
    // before it installs the next component. So if the load reads "not sealed", our sequence
    // number precedes the seal, and every writer of the next component (which loads the
    // SuperVersion installed after it) draws a larger one: the old component's sequence
    // numbers stay below the new one's. If it reads "sealed", the number is given back (a
    // gap, which nothing minds) and the caller retries on the next component. (That smaller
    // numbers are published when a fence or a batch wait scans Active is kept by
    // SequenceOracle, which waits for slots claimed but not yet published.)
    w->seq = oracle_.AssignSequence(w->slot, w->multi, w->key_tag);
    const bool sealed = wal->log->sealed();
    if (sealed || w->seq > kMaxSequenceNumber - kSequenceMargin) {
      oracle_.Release(w->slot, w->multi);
      w->seq = 0;
      return sealed ? Status::Busy(wal->log->file_name(), "log is sealed") : exhausted();
    }
  } else {
    auto assign = [&] { w->seq = oracle_.AssignSequence(w->slot, w->multi, w->key_tag); };
    s = wal->log->Reserve(WriteBatchInternal::ByteSize(batch), assign, &w->reservation);
    if (!s.ok()) {
      oracle_.Release(w->slot, /*multi_entry=*/false);  // no sequence number was published
      return s;
    }
  }
  // A snapshot never covers a sequence number still being written (AssignSequence retakes it).
  assert(w->seq > 0 && w->seq <= oracle_.LastSequence());
  WriteBatchInternal::SetSequence(batch, w->seq);
  return s;
}

Status DBImpl::CompleteWrite(const WriteOptions& options, WriteBatch* batch, ReservedWrite* w) {
  assert(w->section.inside() && epoch::InSection());
  assert(w->slot >= 0 && w->seq > 0);
  assert(WriteBatchInternal::Sequence(batch) == w->seq);
  SuperVersion* sv = w->sv;
  LoggedComponent* mem = sv->mem.get();
  // An aborted read-modify-write's record only fills its reservation: no need to sync it.
  const bool sync = options.sync && !WriteBatchInternal::IsAborted(batch);
  if (options.disable_wal) {
    // Stored once: every writer reads this cache line (the component and its log).
    auto mark = [](LoggedComponent* m) {
      if (!m->has_unlogged_writes.load(std::memory_order_relaxed)) {
        m->has_unlogged_writes.store(true, std::memory_order_relaxed);
      }
    };
    mark(mem);
    for (SuperVersion* other : w->more_svs) mark(other->mem.get());
  } else {
    // A synced write makes every earlier write durable, including those in older WAL files
    // that still hold writes of components not flushed yet (usually synced already: no I/O
    // then). They are synced first, oldest first, so no power loss keeps this record but loses
    // an older one.
    const WalSet* wals = w->wals;
    Status older;
    for (size_t i = 0; older.ok() && sync && i < wals->older.size(); i++) {
      older = wals->older[i]->log->Sync();
    }
    // Commit even if that failed: a reserved range must be filled, or every later writer of
    // this log would wait for it forever.
    Status s = wals->current->log->Commit(w->reservation, WriteBatchInternal::Contents(batch),
                                          sync && older.ok());
    if (s.ok()) s = older;
    if (!s.ok()) {
      oracle_.Release(w->slot, w->multi);
      MutexLock l(&mutex_);
      SetBackgroundError(s);
      return s;
    }
    DBStats::Add(&stats_.wal_bytes_written, w->reservation.end - w->reservation.start);
  }
  TEST_SYNC_POINT("DBImpl::CompleteWrite:BeforeInsert");  // logged, in Active, not inserted
  // Batches with smaller sequence numbers take effect first (SequenceOracle::WaitForBatchesBelow).
  if (!WriteBatchInternal::IsAborted(batch)) {
    oracle_.WaitForBatchesBelow(w->seq);
    oracle_.PassGate(w->seq);  // a reader choosing its read point may hold it back a moment
  }
  Status s;
  if (w->single == nullptr) {
    assert(WriteBatchInternal::ByteSize(batch) > WriteBatchInternal::kHeader);
    s = WriteBatchInternal::InsertInto(batch, [w](uint32_t id) -> MemoryComponent* {
      for (size_t i = 0; i < w->families.size(); i++) {
        if (w->families[i]->id == id) {
          return (i == 0 ? w->sv : w->more_svs[i - 1])->mem->component.get();
        }
      }
      assert(false);  // ValidateBatch found every family of the batch
      return nullptr;
    });
  } else if (!WriteBatchInternal::IsAborted(batch)) {
    mem->component->Add(w->seq, w->single->type, w->single->key, w->single->value);
  }
  // Inserted: linearizable read points must cover the write from now on (a reader that saw it
  // before, or the write itself when it replaced a version in place, has announced it
  // already: SequenceOracle). Not earlier, so a snapshot or scan taken while the write is
  // logged or inserted need not wait for it.
  if (!WriteBatchInternal::IsAborted(batch)) oracle_.Announce(w->seq);
  // After the insertion, before leaving Active (see write_stamps.h).
  if (s.ok() && !WriteBatchInternal::IsAborted(batch)) {
    if (w->key_tag != SequenceOracle::kAnyKey) {
      write_stamps_.Bump(w->key_tag);
    } else {
      const bool range = WriteBatchInternal::ForEachKey(
          batch, [&](const Slice& k) { write_stamps_.Bump(SequenceOracle::KeyTag(k)); });
      // A range deletion touches keys it cannot name: every read-modify-write in flight must
      // see a conflict.
      if (range) write_stamps_.BumpAll();
    }
  }
  oracle_.Release(w->slot, w->multi);
  return s;
}

Status DBImpl::SyncWAL() {
  if (closed_.load(std::memory_order_acquire)) {
    return Status::InvalidArgument(dbname_, "database is closed");
  }
  // A completed write's record was handed to the OS in the WAL file that was current then: the
  // current one, or one switched out since and still in the set (one dropped from it holds
  // only writes that are in synced SST files). Oldest first, as a synced write does. The files
  // are pinned, so the fdatasyncs run outside the epoch section (which would hold up
  // reclamation and flushes meanwhile).
  std::vector<std::shared_ptr<WalFile>> files;
  {
    epoch::Guard guard;
    const WalSet* wals = wal_set_.load(std::memory_order_acquire);
    files = wals->older;
    files.push_back(wals->current);
  }
  Status s;
  for (size_t i = 0; s.ok() && i < files.size(); i++) s = files[i]->log->Sync();
  if (!s.ok()) {
    MutexLock l(&mutex_);
    SetBackgroundError(s);
  }
  return s;
}

Status DBImpl::SwitchMemoryComponent(ColumnFamilyData* cfd, const LoggedComponent* full, bool force,
                                     bool may_wait, bool* switched) {
  if (switched != nullptr) *switched = false;
  MutexLock switch_lock(&switch_mu_);
  std::shared_ptr<LoggedComponent> old;
  std::shared_ptr<WalFile> old_wal;  // switch_mu_ keeps it current until the install below
  {
    MutexLock l(&mutex_);
    // A writer that passed the dropped check just before the drop ends here.
    auto dropped = [cfd] {
      return Status::InvalidArgument(fmt::format("column family \"{}\" was dropped", cfd->name));
    };
    if (cfd->dropped.load()) return dropped();
    SuperVersion* sv = CurrentSuperVersion(cfd);
    if (full != nullptr && sv->mem.get() != full) return Status::OK();  // already switched
    if (!(force ? sv->mem->component->HoldsData() : IsFull(*sv->mem))) return Status::OK();
    // Too many components: wait for a flush (the stall policy).
    auto too_many = [this, cfd]() REQUIRES(mutex_) {
      return static_cast<int>(CurrentSuperVersion(cfd)->imms.size()) + 1 >=
             cfd->options.max_write_buffer_number;
    };
    if (too_many() && !may_wait) return Status::OK();
    if (too_many()) {
      Status s = WaitWhileStalled(too_many, &stats_.memtable_waits, &stats_.memtable_wait_micros,
                                  /*closing_ok=*/force);
      if (!s.ok()) return s;
    }
    if (cfd->dropped.load()) return dropped();
    old = CurrentSuperVersion(cfd)->mem;
    old_wal = CurrentWalSet()->current;
  }
  if (!force) {
    // It filled up: the next one holds about kComponentFillMicros of writes at the rate this
    // one filled, and at least twice as much as this one, up to write_buffer_size. A family
    // written fast gets full-size components after its first switch (each small component
    // would be one more small L0 file, flushed and compacted early); one written slowly
    // doubles them. A forced switch (Flush, the WAL limit) says nothing about the rate and
    // keeps the size.
    const uint64_t now = env_->NowMicros();
    const uint64_t filled_in = now > old->created_micros ? now - old->created_micros : 1;
    const uint64_t size = old->write_buffer_size;  // at most 64 GiB: no overflow below
    const uint64_t for_rate = size * kComponentFillMicros / filled_in;
    const size_t grown = static_cast<size_t>(
        std::min<uint64_t>(std::max(for_rate, size * 2), cfd->options.write_buffer_size));
    if (grown > cfd->next_write_buffer_size.load(std::memory_order_relaxed)) {
      cfd->next_write_buffer_size.store(grown, std::memory_order_relaxed);
    }
  }
  // Create the next WAL file and component outside mutex_ (file creation is I/O). Writers that
  // did not notice the old component is full keep writing to it meanwhile.
  std::shared_ptr<WalFile> fresh_wal;
  std::shared_ptr<LoggedComponent> fresh;
  Status s = NewWalFile(&fresh_wal);
  if (s.ok()) s = NewLoggedComponent(cfd, fresh_wal->number, &fresh);
  if (!s.ok()) {
    MutexLock l(&mutex_);
    SetBackgroundError(s);
    return s;
  }
  // From here on no writer reserves on the old log: its sequence numbers are all smaller than
  // any the new component will see.
  old_wal->log->Seal();
  MutexLock l(&mutex_);
  old->switched_full = !force;
  SuperVersion* sv = CurrentSuperVersion(cfd);
  std::vector<std::shared_ptr<LoggedComponent>> imms;
  imms.reserve(sv->imms.size() + 1);
  imms.push_back(old);
  imms.insert(imms.end(), sv->imms.begin(), sv->imms.end());
  // The SuperVersion first, then the WalSet (see wal_set.h). (A family dropped meanwhile gets
  // it too: harmless, its writes go nowhere.)
  InstallSuperVersion(cfd, fresh, std::move(imms), sv->version);
  std::vector<std::shared_ptr<WalFile>> older = CurrentWalSet()->older;
  older.push_back(std::move(old_wal));
  InstallWalSet(std::move(fresh_wal), std::move(older));
  if (old->charge != nullptr) old->charge->MarkImmutable();
  MaybeScheduleWork();  // the flush of the old component
  bg_cv_.SignalAll();
  if (switched != nullptr) *switched = true;
  return Status::OK();
}

}  // namespace sluice
