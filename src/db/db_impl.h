// db/db_impl.h — the engine behind the DB interface.
//
// Concurrency (cLSM): Get never blocks and takes no lock: it enters an epoch section, reads the
// current SuperVersion (memory components + SST version) through an atomic pointer and searches
// it top-down. A write (its path: docs/design.md) waits only while a full memory component is
// being switched (switch_mu_) or when flush/compaction fall behind (the stall policy in
// db_write.cc). mutex_ guards metadata (versions, the list of immutable components,
// background-job state) and is never taken on the get/put fast path.
//
// Durability: see WriteOptions. Background work: tasks on the process-wide pools
// (util/task_scheduler.h): one flush at a time on the high pool, which compactions never
// occupy, and at most max_background_jobs - 1 compactions on the low pool. After an I/O error
// in the background or in the WAL, the DB is read-only: writes return that error.
//
// Column families (db/column_family.h): each family has its own SuperVersion, options and
// component factory; the WAL (db/wal_set.h), sequence numbers, snapshots, caches, the stall
// policy and the background tasks are shared. A family is flushed when its own component
// fills; a switch of any family's component starts a new WAL file.
//
// Implementation files: db_open.cc (open, recovery, close), db_write.cc (write path, switch,
// stalls), db_read.cc (get, iterators, snapshots, properties), db_background.cc (scheduling,
// compaction, obsolete files), db_flush.cc (flush), db_families.cc (column families: open,
// create, drop, lookup).

#ifndef SLUICE_DB_DB_IMPL_H_
#define SLUICE_DB_DB_IMPL_H_

#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "db/column_family.h"
#include "db/db_stats.h"
#include "db/memory_budget.h"
#include "db/merge_job.h"
#include "db/replacement_keeper.h"
#include "db/sequence_oracle.h"
#include "db/snapshot_list.h"
#include "db/super_version.h"
#include "db/wal_set.h"
#include "db/write_controller.h"
#include "db/write_stamps.h"
#include "memory/memory_component_factory.h"
#include "sluice/db.h"
#include "sluice/env.h"
#include "table/table_cache.h"
#include "util/cache.h"
#include "util/epoch.h"
#include "util/mutex.h"
#include "util/task_scheduler.h"
#include "util/thread_annotations.h"
#include "version/version_set.h"

namespace sluice {

class DBImpl final : public DB {
 public:
  // component_factory: creates the memory components (null: Open creates the factory of the
  // family options.memtable names).
  DBImpl(const Options& sanitized_options, std::string dbname,
         std::unique_ptr<MemoryComponentFactory> component_factory);
  ~DBImpl() override;

  using DB::CompactRange;
  using DB::CompareAndSwap;
  using DB::Delete;
  using DB::DeleteRange;
  using DB::Flush;
  using DB::Get;
  using DB::GetProperty;
  using DB::Increment;
  using DB::MultiGet;
  using DB::NewIterator;
  using DB::Put;
  using DB::PutIfAbsent;
  using DB::ReadModifyWrite;
  using DB::Scan;

  ColumnFamilyHandle* DefaultColumnFamily() override { return &default_cfd_->handle; }
  Status CreateColumnFamily(const ColumnFamilyOptions& options, const std::string& name,
                            ColumnFamilyHandle** handle) override;
  Status DropColumnFamily(ColumnFamilyHandle* family) override;
  Status Put(const WriteOptions& options, ColumnFamilyHandle* family, const Slice& key,
             const Slice& value) override;
  Status Delete(const WriteOptions& options, ColumnFamilyHandle* family, const Slice& key) override;
  Status DeleteRange(const WriteOptions& options, ColumnFamilyHandle* family, const Slice& begin,
                     const Slice& end) override;
  Status Write(const WriteOptions& options, WriteBatch* batch) override;
  Status ReadModifyWrite(const WriteOptions& options, ColumnFamilyHandle* family, const Slice& key,
                         const ModifyFunction& fn, std::string* result) override;
  Status PutIfAbsent(const WriteOptions& options, ColumnFamilyHandle* family, const Slice& key,
                     const Slice& value, bool* inserted) override;
  Status CompareAndSwap(const WriteOptions& options, ColumnFamilyHandle* family, const Slice& key,
                        const std::string* expected, const Slice& desired, bool* swapped) override;
  Status Increment(const WriteOptions& options, ColumnFamilyHandle* family, const Slice& key,
                   int64_t delta, int64_t* result) override;
  Status Get(const ReadOptions& options, ColumnFamilyHandle* family, const Slice& key,
             std::string* value) override;
  std::vector<Status> MultiGet(const ReadOptions& options,
                               const std::vector<ColumnFamilyHandle*>& families,
                               const std::vector<Slice>& keys,
                               std::vector<std::string>* values) override;
  std::unique_ptr<Iterator> NewIterator(const ReadOptions& options,
                                        ColumnFamilyHandle* family) override;
  Status Scan(const ReadOptions& options, ColumnFamilyHandle* family, const Slice& start,
              const Slice& end, size_t limit,
              std::vector<std::pair<std::string, std::string>>* result) override;
  const Snapshot* GetSnapshot() override;
  void ReleaseSnapshot(const Snapshot* snapshot) override;
  Status Flush(ColumnFamilyHandle* family) override;
  Status SyncWAL() override;
  Status CompactRange(ColumnFamilyHandle* family, const Slice* begin, const Slice* end) override;
  bool GetProperty(ColumnFamilyHandle* family, const Slice& property, std::string* value) override;
  Status Close() override;

  // Opens the directory, recovers, starts background work (db_open.cc). families: the
  // options of every family to open by name ("default" among them), each sanitized.
  Status Open(const std::vector<ColumnFamilyDescriptor>& families);
  // The handle of each family of `families` given to Open, in order.
  std::vector<ColumnFamilyHandle*> OpenedHandles(
      const std::vector<ColumnFamilyDescriptor>& families) EXCLUDES(mutex_);

  // Tests only: with false, read-modify-writes skip the fence and the validation (db_rmw.cc)
  // and so lose updates under concurrency; the linearizability test shows its checker catches
  // that. Set before any read-modify-write runs.
  void SetRmwConflictDetectionForTesting(bool enabled) { rmw_conflict_detection_ = enabled; }

  // Checks options and fills defaults; InvalidArgument naming the option if out of range.
  static Status SanitizeOptions(const Options& in, Options* out);

  // The implementation of both DB::Open overloads (db_families.cc); component_factory as for
  // OpenWithComponentFactory (the default family's).
  static Status OpenFamilies(const DBOptions& db_options, const std::string& path,
                             const std::vector<ColumnFamilyDescriptor>& families,
                             std::unique_ptr<MemoryComponentFactory> component_factory,
                             std::vector<ColumnFamilyHandle*>* handles, std::unique_ptr<DB>* db);

  // DB::Open with every memory component created by `component_factory` instead of the family
  // options.memtable names (null: that family). For sluice's own tools and tests (sluice_bench
  // passes FloDB's factory with its benchmark-only switches); the factory type is internal, so
  // this is no public API. Build the factory from the same options.
  static Status OpenWithComponentFactory(const Options& options, const std::string& path,
                                         std::unique_ptr<MemoryComponentFactory> component_factory,
                                         std::unique_ptr<DB>* db);

 private:
  // --- db_families.cc ---
  // The family of a handle a caller passed: InvalidArgument naming `op` if the handle is null,
  // of another DB, or of a dropped family.
  Status FamilyOf(ColumnFamilyHandle* handle, const char* op, ColumnFamilyData** cfd) const {
    if (handle == &default_cfd_->handle) {  // the common case: no cast
      *cfd = default_cfd_;
      return Status::OK();
    }
    return CheckFamilyHandle(handle, op, cfd);
  }
  Status CheckFamilyHandle(ColumnFamilyHandle* handle, const char* op,
                           ColumnFamilyData** cfd) const;
  // Creates a family's ColumnFamilyData (with its component factory; the default family's is
  // component_factory if not null), not yet published.
  Status NewFamilyData(uint32_t id, const std::string& name, const Options& options,
                       std::unique_ptr<MemoryComponentFactory> component_factory,
                       std::unique_ptr<ColumnFamilyData>* result);
  // Publishes a FamilyTable of the live families (after a create or a drop).
  void PublishFamilyTable() REQUIRES(mutex_);
  // The live families, by id (REQUIRES mutex_ for a stable answer).
  std::vector<ColumnFamilyData*> LiveFamilies() const REQUIRES(mutex_);

  // --- db_open.cc ---
  // Replays the WAL files from the smallest family log number on, each record's updates into
  // the recovery components of their families (those whose log number the file has reached),
  // writing them to L0 files; *edits gets each family's new files.
  Status RecoverLogFiles(std::map<uint32_t, VersionEdit>* edits, SequenceNumber* max_sequence);
  // One family's components during recovery.
  using RecoveryComponents = std::map<uint32_t, std::unique_ptr<MemoryComponent>>;
  // Replays one WAL file (flushing a family's component to L0 when full). *last_replayed: the
  // sequence number of the last record replayed (from this file or an older one); a record not
  // above it is damage (see the recovery policy in db_open.cc).
  Status ReplayLogFile(uint64_t number, RecoveryComponents* mems,
                       std::map<uint32_t, VersionEdit>* edits, SequenceNumber* last_replayed,
                       SequenceNumber* max_sequence);
  // Writes the entries of mems (components of the family, merged when more than one) to new L0
  // file(s), compressed with `compression`, added to *edit.
  Status WriteLevel0Table(ColumnFamilyData* cfd, const std::vector<MemoryComponent*>& mems,
                          CompressionType compression, VersionEdit* edit, uint64_t* bytes);
  Status CheckVersionFiles() EXCLUDES(mutex_);
  // A new mutable component of the family whose writes are logged from WAL file first_log on.
  Status NewLoggedComponent(ColumnFamilyData* cfd, uint64_t first_log,
                            std::shared_ptr<LoggedComponent>* result);
  // A new, empty WAL file.
  Status NewWalFile(std::shared_ptr<WalFile>* result);
  // versions_->NewFileNumber(), which any thread may call without mutex_ (it is atomic).
  uint64_t NewFileNumber() NO_THREAD_SAFETY_ANALYSIS;
  // The options every flush and compaction of the family writes SST files with.
  MergeJobOptions NewMergeJobOptions(const ColumnFamilyData* cfd);
  void RemoveObsoleteFilesOnOpen() EXCLUDES(mutex_);

  // --- db_write.cc ---
  // Checks a batch and finds its families (sorted by id); InvalidArgument naming what is wrong
  // (a family the DB does not have, a size beyond the limits, a reversed range).
  Status ValidateBatch(WriteBatch* batch, std::vector<ColumnFamilyData*>* families) const;
  // InvalidArgument if a key or a value is larger than the options allow.
  Status ValidateSizes(size_t max_key, size_t max_value) const;
  // A write of one update described by its caller (Put, Delete): the write path uses it as it
  // is instead of parsing the batch's encoding back. The batch holds the encoded update only
  // for the WAL: with the WAL off it is just a header (count 1, then the sequence number).
  struct SingleUpdate {
    ValueType type;
    Slice key;
    Slice value;
  };
  Status WriteSingle(const WriteOptions& options, ColumnFamilyHandle* family,
                     const SingleUpdate& update);
  // families: those the batch updates, sorted by id (at least one). single: the batch's one
  // update, if the caller has it (else null).
  Status WriteImpl(const WriteOptions& options, WriteBatch* batch,
                   std::span<ColumnFamilyData* const> families,
                   const SingleUpdate* single = nullptr);
  // What one write has waited for already, across its retries: it is delayed (paced) once at
  // most, and after a budget wait that saw no progress it no longer waits for the budget.
  struct WriteWaits {
    bool delayed = false;
    bool past_budget = false;
  };
  // A write that holds an Active slot, its sequence number and its WAL reservation, inside the
  // epoch section that pins the SuperVersion it reserved on.
  struct ReservedWrite {
    epoch::Guard section{epoch::kNoSection};  // pins wals and sv until the write is complete
    WalSet* wals = nullptr;                   // the WAL files when it reserved (on wals->current)
    // The families it writes (sorted by id) and, for each, the SuperVersion whose mutable
    // component it goes to: the first inline (the only one of most writes), the others after.
    std::span<ColumnFamilyData* const> families;
    SuperVersion* sv = nullptr;
    std::vector<SuperVersion*> more_svs;
    int slot = -1;
    bool multi = false;
    uint64_t key_tag = SequenceOracle::kAnyKey;  // of the one key of a single-update write
    const SingleUpdate* single = nullptr;        // the batch's one update, when known
    SequenceNumber seq = 0;
    log::Writer::Reservation reservation;
  };
  // Enters an epoch section and reserves batch on the current WAL file, for the current mutable
  // component. On OK with
  // *retry false, w holds the section, w->wals, w->sv and the reservation: the caller must
  // CompleteWrite (the section ends with w, or with w->section.Leave()). *retry true: the component
  // was full (switched) or sealed (the switch awaited); nothing is held, start over. An error:
  // nothing is held. First the stall policy (write_controller_): a stopped write waits
  // (WaitForRoom) and asks for a retry; a delayed one sleeps its share of the paced rate, once.
  // Then the memory budget: past its thresholds a flush is asked for, and at the cap (with
  // stalls allowed) the write waits (WaitForBudget) and asks for a retry.
  // REQUIRES: w->families set.
  Status ReserveOnCurrent(const WriteOptions& options, WriteBatch* batch, ReservedWrite* w,
                          bool* retry, WriteWaits* waits);
  // Claims a slot, reserves batch's record on wal and takes the sequence number (set in
  // the batch). w->key_tag: the key's tag if the caller knows it, else computed here. Busy if the
  // log is sealed (a switch is under way); nothing is held on error. REQUIRES: inside an epoch
  // section that pins wal.
  Status ReserveWrite(const WriteOptions& options, WalFile* wal, WriteBatch* batch,
                      ReservedWrite* w);
  // Commits the reserved record (syncing as asked) and applies the batch to w->sv->mem unless
  // it is marked aborted, bumping the write stamps of its keys; releases the slot. REQUIRES: w
  // from ReserveOnCurrent, its section still held.
  Status CompleteWrite(const WriteOptions& options, WriteBatch* batch, ReservedWrite* w);
  // The stall policy's waits for a write of `bytes`: until the controller is no longer
  // stopped, or the write's share of the paced rate (once). Sets *delayed.
  Status WaitForRoom(uint64_t bytes, bool* delayed);
  // The memory budget's wait (with stalls allowed): until it is below the cap, asking for
  // flushes meanwhile. Sets *past_budget if it gave up because nothing was released for
  // kBudgetWaitWithoutProgress. The background error, or IOError if the DB is closing.
  Status WaitForBudget(bool* past_budget);
  static constexpr std::chrono::microseconds kBudgetWaitSlice{10'000};
  static constexpr uint64_t kBudgetWaitWithoutProgress = 1'000'000;  // micros
  // The stall policy's wait: waits on bg_cv_ while stalled() holds, counting the stall in
  // *stalls and *micros. OK once it ends; the background error if there is one; IOError if the
  // DB is closing, unless closing_ok.
  Status WaitWhileStalled(const std::function<bool()>& stalled, std::atomic<uint64_t>* stalls,
                          std::atomic<uint64_t>* micros, bool closing_ok) REQUIRES(mutex_);
  // True if the mutable component must be switched out before the next write: it reached its
  // size (LoggedComponent::write_buffer_size) or asks to leave early, and it holds something.
  bool IsFull(const LoggedComponent& logged) const;
  // A memory component that fills up sizes the next for about this long of writes at the
  // same rate (SwitchMemoryComponent).
  static constexpr uint64_t kComponentFillMicros = 10'000'000;
  // Switches the family's mutable component out (full: only if that one is still current;
  // force: if it holds anything, else only if IsFull). With too many immutable components it
  // waits for a flush, or, unless may_wait, returns OK without switching. *switched (optional):
  // whether it did.
  Status SwitchMemoryComponent(ColumnFamilyData* cfd, const LoggedComponent* full, bool force,
                               bool may_wait = true, bool* switched = nullptr)
      EXCLUDES(mutex_, switch_mu_);

  // --- db_rmw.cc ---
  enum class ModifyAction { kKeep, kPut, kDelete };
  // Decides the new state of a key from its current value (nullptr: none). A non-OK status
  // ends the call with that status and writes nothing.
  using ModifyDecision =
      std::function<Status(const std::string* current, ModifyAction* action, std::string* value)>;
  // The lock-free read-modify-write every public variant is built on (see db_rmw.cc).
  // *final_value: the key's value afterwards (cleared if it has none).
  Status Modify(const WriteOptions& options, ColumnFamilyHandle* family, const Slice& key,
                const ModifyDecision& decide, std::string* final_value);

  // --- db_properties.cc ---
  nlohmann::ordered_json StatsJson(ColumnFamilyData* cfd);  // GetProperty("sluice.stats-json")
  std::string StatsString(ColumnFamilyData* cfd);           // GetProperty("sluice.stats"): as text
  std::string IoCountersString();                           // GetProperty("sluice.io-counters")
  uint64_t EstimateNumKeys(ColumnFamilyData* cfd);  // GetProperty("sluice.estimate-num-keys")

  // --- db_read.cc ---
  // The memory components' part of a read at *read_seq, top-down: *done if one of them holds a
  // version visible there (the status then is the answer: OK with *value, or NotFound). latest:
  // a version of a multi-update batch in flight is passed over (*read_seq drops below it, and
  // *skipped_batch, if not null, is set to it). *covering: raised to the largest sequence number
  // of a range tombstone of the searched components covering key (a version below it is
  // hidden); the caller starts it at 0. REQUIRES: inside an epoch section.
  Status GetFromMemory(SuperVersion* sv, const Slice& key, bool latest, SequenceNumber* read_seq,
                       std::string* value, SequenceNumber* skipped_batch, bool* done,
                       SequenceNumber* covering);
  // Get through sv. REQUIRES: inside an epoch section. skipped_batch (optional): set to the
  // sequence number of a version passed over because its multi-update batch is in flight.
  Status GetFromSuperVersion(SuperVersion* sv, const ReadOptions& options, const Slice& key,
                             std::string* value, SequenceNumber* skipped_batch);
  // The context memory components are created with (keeper, sequence counter).
  MemoryComponentContext ComponentContext();
  // Whether any family's components replace versions in place (FloDB): snapshots must then be
  // registered before their sequence number is chosen.
  bool AnyFamilyReplacesInPlace() const {
    return in_place_families_.load(std::memory_order_acquire) > 0;
  }
  // Prepares every memory component of sv for a scan and returns a linearizable read point
  // for it (SequenceOracle::LinearizablePoint; all writes at or below it are done). The caller
  // must then check ReadPointCovered(cfd, sv).
  SequenceNumber PrepareScan(SuperVersion* sv, bool allow_piggyback);
  // For a read point chosen after sv was loaded: true if every write at or below it is in sv.
  // A write is in the mutable component that was current when it reserved, or in an older
  // one; so if sv's mutable component is still the family's, every write that completed
  // before this call is in sv (its immutable components, or the files flushed before sv was
  // loaded). Otherwise a write in a newer component may be at or below the read point, and the
  // caller reloads the SuperVersion and chooses again (a switch: rare).
  static bool ReadPointCovered(const ColumnFamilyData* cfd, const SuperVersion* sv);
  // Internal iterators over everything sv holds (components pinned by their iterators).
  // guard_seq: if set, the mutable component's iterator records versions newer than it.
  std::vector<std::unique_ptr<InternalIterator>> NewInternalIterators(SuperVersion* sv,
                                                                      const ReadOptions& options,
                                                                      SequenceNumber guard_seq,
                                                                      std::string* newer_key,
                                                                      bool* newer_seen);
  // The range tombstones of everything sv holds, for an iterator at seq (null if there are
  // none). REQUIRES: inside an epoch section.
  Status NewRangeDelCheck(SuperVersion* sv, SequenceNumber seq,
                          std::unique_ptr<RangeDelCheck>* result);
  // A bounded scan through an iterator at a fixed snapshot (no restarts).
  Status ScanWithIterator(const ReadOptions& options, ColumnFamilyHandle* family,
                          const Slice& start, const Slice& end, size_t limit,
                          std::vector<std::pair<std::string, std::string>>* result);
  // Bytes of the memory components of one family, or of every family (nullptr).
  uint64_t MemoryUsage(ColumnFamilyData* cfd);

  // --- db_background.cc (the flush members: db_flush.cc) ---
  // Grows the low pool to this DB's share, queues the tick and any work recovery left.
  void StartBackgroundWork() EXCLUDES(mutex_);
  // Sets shutting_down_, drops this DB's queued tasks, waits for its running ones.
  void StopBackgroundWork() EXCLUDES(mutex_);
  // Queues a flush task if a flush is due and none is queued or running, and compaction tasks
  // up to max_background_jobs - 1 while LowPriorityWorkMayBeDue.
  void MaybeScheduleWork() REQUIRES(mutex_);
  // Cheap signs of low-priority work: a family's compaction score, obsolete files, a WAL holder.
  bool LowPriorityWorkMayBeDue() const REQUIRES(mutex_);
  // The tasks: one unit of work each.
  void FlushTask() EXCLUDES(mutex_);
  // The memory budget asked this DB for a flush: switches out its largest mutable component
  // (if one can be, without waiting), then tells the budget.
  void BudgetFlushTask() EXCLUDES(mutex_);
  void CompactionTask() EXCLUDES(mutex_);
  void WakeCompactionTask() EXCLUDES(mutex_);  // queues a compaction task if there is room
  void TickTask() EXCLUDES(mutex_);            // WakeCompactionTask every kBackgroundRecheck
  void ObsoleteFilesTask() EXCLUDES(mutex_);
  // A compaction task's unit of work (see db_background.cc for the order): true if it did
  // something; else *recheck_micros is how long until an idle compaction may be due (0: none).
  bool RunLowPriorityJob(uint64_t* recheck_micros) REQUIRES(mutex_);
  // These three release mutex_ around their I/O and hold it again when they return.
  // FlushOldestImmutable flushes ComponentsToFlush(cfd) (>= 1) oldest components as one file.
  Status FlushOldestImmutable(ColumnFamilyData* cfd) REQUIRES(mutex_);
  Status RunCompaction(ColumnFamilyData* cfd, std::unique_ptr<Compaction> c) REQUIRES(mutex_);
  // The L0 -> L1 compaction of a write-idle DB (Options::level0_idle_compaction_ms) in some
  // family (*cfd), or nullptr; then *recheck_micros is how long until it may be due (0: nothing
  // to wait for).
  std::unique_ptr<Compaction> PickIdleCompaction(ColumnFamilyData** cfd, uint64_t* recheck_micros)
      REQUIRES(mutex_);
  // Whether the idle L0 compaction is owed to the family whose current version is v: L0 holds
  // files and the option is on. PickIdleCompaction runs it once writes stay idle (and no flush
  // is pending); "sluice.idle-compaction-pending" reports it.
  static bool IdleCompactionOwed(const ColumnFamilyData& cfd, const Version& v) {
    return cfd.options.level0_idle_compaction_ms > 0 && v.NumFiles(0) > 0;
  }
  // The L0 -> L1 compaction that scans have paid for (Options::level0_scan_compaction) in some
  // family (*cfd), or nullptr.
  std::unique_ptr<Compaction> PickScanCompaction(ColumnFamilyData** cfd) REQUIRES(mutex_);
  // Charges an iterator over v to its family's L0 scan count (REQUIRES: in an epoch section).
  static void ChargeLevel0Scan(ColumnFamilyData* cfd, const Version& v) {
    if (cfd->options.level0_scan_compaction && v.NumFiles(0) >= 2) {
      cfd->level0_scan_charges.Add(static_cast<uint64_t>(v.NumFiles(0)));
    }
  }
  // The family whose oldest immutable component should be flushed next (the one holding the
  // oldest WAL file; families whose flush is held, ComponentsToFlush 0, skipped), or nullptr.
  ColumnFamilyData* PickFlush() const REQUIRES(mutex_);
  // Whether the family's L0 is in a backlog: it holds a compaction's worth of files, or an L0
  // compaction is running (it took its inputs already). A flush then waits for more than the
  // next L0 compaction to start.
  bool InLevel0Backlog(const ColumnFamilyData* cfd) const REQUIRES(mutex_);
  // Whether the family's L0 holds twice the files that trigger its compaction (those being
  // compacted included): compactions are not keeping up with the flushes.
  bool InDeepLevel0Backlog(const ColumnFamilyData* cfd) const REQUIRES(mutex_);
  // How many of the family's oldest immutable components its next flush writes as one L0 file
  // (Options::level0_backlog_flush_merge): 1 outside a deep backlog; in one, up to the merge count,
  // or 0 (hold the flush) while fewer are ready, a compaction runs and nobody waits for it.
  size_t ComponentsToFlush(const ColumnFamilyData* cfd) const REQUIRES(mutex_);
  // When the live WAL files exceed Options::max_total_wal_size: a family that holds the oldest
  // one back with writes in its mutable component only (its switch and flush let it go), or
  // nullptr.
  ColumnFamilyData* PickWalHolder() const REQUIRES(mutex_);
  // At a flush: the edits that move up to `log_number` the log numbers of the families (but
  // `skip`) with nothing in memory, which need no WAL file below it. REQUIRES: every write
  // logged below log_number has been inserted.
  void IdleFamilyEdits(uint64_t log_number, const ColumnFamilyData* skip,
                       std::vector<VersionEdit>* edits) REQUIRES(mutex_);
  void DeleteObsoleteFiles() REQUIRES(mutex_);
  // Deletes the files a flush or compaction wrote for a family dropped before they were
  // installed (no version names them).
  void DiscardOutputs(const std::vector<std::pair<int, FileMetaData>>& files) REQUIRES(mutex_);
  // The file registry's listener: files became obsolete outside a flush or compaction (an
  // iterator or a retired SuperVersion let go of them); queues a task to delete
  // them. Called with the registry's lock held, maybe with mutex_ held too: never blocks.
  void WakeForObsoleteFiles();
  void SetBackgroundError(const Status& s) REQUIRES(mutex_);
  Status BackgroundError() EXCLUDES(mutex_);  // lock-free check
  // Waits until target (null: every immutable component of the family) is flushed.
  Status WaitForFlushes(ColumnFamilyData* cfd, const LoggedComponent* target) EXCLUDES(mutex_);

  // Publishes a new SuperVersion of the family.
  void InstallSuperVersion(ColumnFamilyData* cfd, std::shared_ptr<LoggedComponent> mem,
                           std::vector<std::shared_ptr<LoggedComponent>> imms,
                           std::shared_ptr<const Version> version) REQUIRES(mutex_);
  // The stall policy's inputs from every family's tree (the largest L0, the summed debt).
  void UpdateWriteController() REQUIRES(mutex_);
  // Publishes a new WalSet (see wal_set.h for the order of installs at a switch).
  void InstallWalSet(std::shared_ptr<WalFile> current, std::vector<std::shared_ptr<WalFile>> older)
      REQUIRES(mutex_);
  // Drops the older WAL files that no family needs any more (below VersionSet::LogNumber()).
  void DropObsoleteWals() REQUIRES(mutex_);
  WalSet* CurrentWalSet() const REQUIRES(mutex_) {
    return wal_set_.load(std::memory_order_acquire);
  }
  // The family's current SuperVersion. REQUIRES mutex_: no install can retire it meanwhile.
  SuperVersion* CurrentSuperVersion(const ColumnFamilyData* cfd) const REQUIRES(mutex_) {
    return cfd->super_version.load(std::memory_order_acquire);
  }

  const std::string dbname_;
  const Options options_;
  Env* const env_;
  std::shared_ptr<Logger> info_log_;
  std::unique_ptr<FileLock> db_lock_;
  std::shared_ptr<Cache> block_cache_;  // DBOptions::block_cache, or one of block_cache_size
  // The memory budget (options_.write_buffer_manager's), and this DB as its client; null
  // without one. Registered by Open, unregistered by Close.
  MemoryBudget* const budget_;
  std::shared_ptr<MemoryBudget::Client> budget_client_;
  std::unique_ptr<TableCache> table_cache_;
  std::shared_ptr<FileRegistry> file_registry_;
  // Every use but NewFileNumber() requires mutex_ (see version_set.h).
  std::unique_ptr<VersionSet> versions_ PT_GUARDED_BY(mutex_);
  SequenceOracle oracle_;
  WriteStamps write_stamps_;  // read-modify-write conflict detection (db_rmw.cc)
  SnapshotList snapshots_;
  ReplacementKeeper replacement_keeper_{&oracle_, &snapshots_};  // the components' keeper
  // The default family's component factory until Open moves it into its family.
  std::unique_ptr<MemoryComponentFactory> component_factory_;
  DBStats stats_;
  // Every family ever opened or created, dropped ones too (their handles stay valid), by id.
  std::map<uint32_t, std::unique_ptr<ColumnFamilyData>> families_ GUARDED_BY(mutex_);
  ColumnFamilyData* default_cfd_ = nullptr;  // set by Open, then never changed
  // The live families (column_family.h); retired like SuperVersions. Never null while open.
  std::atomic<FamilyTable*> family_table_{nullptr};
  std::atomic<int> in_place_families_{0};  // see AnyFamilyReplacesInPlace
  // The stall policy; updated at every SuperVersion install (under mutex_), read by writers.
  WriteController write_controller_;

  // The WAL files (wal_set.h); retired like SuperVersions. Never null while open.
  std::atomic<WalSet*> wal_set_{nullptr};

  Mutex mutex_;
  CondVar bg_cv_{&mutex_};  // background work, flush and stall waiters
  Mutex switch_mu_;         // serialises memory component switches
  // This DB's tasks on the process-wide pools; closed by StopBackgroundWork (then it refuses
  // new ones). Never null.
  const std::unique_ptr<TaskScheduler::Client> tasks_{TaskScheduler::Default().NewClient()};
  bool flush_scheduled_ GUARDED_BY(mutex_) = false;  // a flush task is queued
  int compaction_tasks_ GUARDED_BY(mutex_) = 0;      // compaction tasks queued or running
  bool flush_running_ GUARDED_BY(mutex_) = false;
  int flush_waiters_ GUARDED_BY(mutex_) = 0;  // callers in WaitForFlushes: no flush is held
  int compactions_running_ GUARDED_BY(mutex_) = 0;
  int manual_compactions_ GUARDED_BY(mutex_) = 0;
  uint64_t flushes_completed_ GUARDED_BY(mutex_) = 0;
  // Write-idle detection: the last sequence number seen by PickIdleCompaction, and since when.
  SequenceNumber idle_sequence_ GUARDED_BY(mutex_) = 0;
  uint64_t idle_since_micros_ GUARDED_BY(mutex_) = 0;
  Status bg_error_ GUARDED_BY(mutex_);
  std::atomic<bool> has_bg_error_{false};
  // Set by WakeForObsoleteFiles, taken by the background loop (which then deletes them).
  std::atomic<bool> obsolete_files_pending_{false};
  std::atomic<bool> shutting_down_{false};
  std::atomic<bool> closed_{false};
  bool opened_ = false;
  bool rmw_conflict_detection_ = true;  // see SetRmwConflictDetectionForTesting
};

}  // namespace sluice

#endif  // SLUICE_DB_DB_IMPL_H_
