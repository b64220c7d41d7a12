// db/db_impl.h — the engine behind the DB interface.
//
// Concurrency (cLSM): Get never blocks and takes no lock: it enters an epoch section, reads the
// current SuperVersion (memory components + SST version) through an atomic pointer and searches
// it top-down. A write takes an Active slot, reserves its WAL record and its sequence number in
// one step (log order == sequence order), hands the record to the OS (and syncs it if asked),
// adds its updates to the memory component and leaves Active. Writers wait only when a full
// memory component is being switched (switch_mu_) or when flush/compaction fall behind (the
// stall policy in db_write.cc). mutex_ guards metadata (versions, the list of immutable
// components, background-job state) and is never taken on the get/put fast path.
//
// Durability: see WriteOptions. Background work: max_background_jobs threads; one is always
// free for flushes (compactions use at most jobs - 1 threads). After an I/O error in the
// background or in the WAL, the DB is read-only: writes return that error.
//
// Implementation files: db_open.cc (open, recovery, close), db_write.cc (write path, switch,
// stalls), db_read.cc (get, iterators, snapshots, properties), db_background.cc (flush,
// compaction, obsolete files).

#ifndef SLUICE_DB_DB_IMPL_H_
#define SLUICE_DB_DB_IMPL_H_

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <thread>
#include <vector>

#include "db/db_stats.h"
#include "db/super_version.h"
#include "db/merge_job.h"
#include "db/snapshot_list.h"
#include "db/sequence_oracle.h"
#include "db/write_stamps.h"
#include "memory/memory_component_factory.h"
#include "sluice/db.h"
#include "sluice/env.h"
#include "table/table_cache.h"
#include "util/cache.h"
#include "version/version_set.h"

namespace sluice {

class DBImpl final : public DB {
 public:
  // component_factory: creates the memory components (null: Open creates the factory of the
  // family options.memtable names).
  DBImpl(const Options& sanitized_options, std::string dbname,
         std::unique_ptr<MemoryComponentFactory> component_factory);
  ~DBImpl() override;

  Status Put(const WriteOptions& options, const Slice& key, const Slice& value) override;
  Status Delete(const WriteOptions& options, const Slice& key) override;
  Status Write(const WriteOptions& options, WriteBatch* batch) override;
  Status ReadModifyWrite(const WriteOptions& options, const Slice& key, const ModifyFunction& fn,
                         std::string* result) override;
  Status PutIfAbsent(const WriteOptions& options, const Slice& key, const Slice& value,
                     bool* inserted) override;
  Status CompareAndSwap(const WriteOptions& options, const Slice& key, const std::string* expected,
                        const Slice& desired, bool* swapped) override;
  Status Increment(const WriteOptions& options, const Slice& key, int64_t delta,
                   int64_t* result) override;
  Status Get(const ReadOptions& options, const Slice& key, std::string* value) override;
  std::unique_ptr<Iterator> NewIterator(const ReadOptions& options) override;
  Status Scan(const ReadOptions& options, const Slice& start, const Slice& end, size_t limit,
              std::vector<std::pair<std::string, std::string>>* result) override;
  const Snapshot* GetSnapshot() override;
  void ReleaseSnapshot(const Snapshot* snapshot) override;
  Status Flush() override;
  Status SyncWAL() override;
  Status CompactRange(const Slice* begin, const Slice* end) override;
  bool GetProperty(const Slice& property, std::string* value) override;
  Status Close() override;

  // Opens the directory, recovers, starts background threads (db_open.cc).
  Status Open();

  // Tests only: with false, read-modify-writes skip the fence and the validation (db_rmw.cc)
  // and so lose updates under concurrency; the linearizability test shows its checker catches
  // that. Set before any read-modify-write runs.
  void SetRmwConflictDetectionForTesting(bool enabled) { rmw_conflict_detection_ = enabled; }

  // Checks options and fills defaults; InvalidArgument naming the option if out of range.
  static Status SanitizeOptions(const Options& in, Options* out);

  // DB::Open with every memory component created by `component_factory` instead of the family
  // options.memtable names (null: that family). For sluice's own tools and tests (sluice_bench
  // passes FloDB's factory with its benchmark-only switches); the factory type is internal, so
  // this is no public API. Build the factory from the same options.
  static Status OpenWithComponentFactory(const Options& options, const std::string& path,
                                         std::unique_ptr<MemoryComponentFactory> component_factory,
                                         std::unique_ptr<DB>* db);

 private:
  // --- db_open.cc ---
  Status RecoverLogFiles(VersionEdit* edit, SequenceNumber* max_sequence);
  Status ReplayLogFile(uint64_t number, std::unique_ptr<MemoryComponent>* mem, VersionEdit* edit,
                       SequenceNumber* max_sequence);
  Status WriteLevel0Table(MemoryComponent* mem, VersionEdit* edit, uint64_t* bytes);
  Status CheckVersionFiles();
  Status NewLoggedComponent(std::shared_ptr<LoggedComponent>* result);
  // The options every flush and compaction of this DB writes SST files with.
  MergeJobOptions NewMergeJobOptions();
  void RemoveObsoleteFilesOnOpen();

  // --- db_write.cc ---
  Status ValidateBatch(WriteBatch* batch) const;
  Status WriteImpl(const WriteOptions& options, WriteBatch* batch);
  // A write that holds an Active slot, its sequence number and its WAL reservation.
  struct ReservedWrite {
    int slot = -1;
    bool multi = false;
    uint64_t key_tag = SequenceOracle::kAnyKey;  // of the one key of a single-update write
    SequenceNumber seq = 0;
    log::Writer::Reservation reservation;
  };
  // Enters an epoch section and reserves batch on the current mutable component (*sv). On OK
  // with *retry false the caller is inside that section and must CompleteWrite, then leave it.
  // *retry true: the component was full (switched) or sealed (the switch awaited); nothing is
  // held, start over. An error: nothing is held.
  Status ReserveOnCurrent(const WriteOptions& options, WriteBatch* batch, SuperVersion** sv,
                          ReservedWrite* w, bool* retry);
  // Claims a slot, reserves batch's record on mem's log and takes the sequence number (set in
  // the batch). w->key_tag: the key's tag if the caller knows it, else computed here. Busy if the
  // log is sealed (a switch is under way); nothing is held on error. REQUIRES: inside an epoch
  // section that pins mem.
  Status ReserveWrite(const WriteOptions& options, LoggedComponent* mem, WriteBatch* batch,
                      ReservedWrite* w);
  // Commits the reserved record (syncing as asked) and applies the batch to sv->mem unless it
  // is marked aborted, bumping the write stamps of its keys; releases the slot. REQUIRES: w
  // reserved on sv->mem, same epoch section.
  Status CompleteWrite(const WriteOptions& options, SuperVersion* sv, WriteBatch* batch,
                       ReservedWrite* w);
  Status WaitForRoom(bool* delayed);
  Status SwitchMemoryComponent(const LoggedComponent* full, bool force);

  // --- db_rmw.cc ---
  enum class ModifyAction { kKeep, kPut, kDelete };
  // Decides the new state of a key from its current value (nullptr: none). A non-OK status
  // ends the call with that status and writes nothing.
  using ModifyDecision =
      std::function<Status(const std::string* current, ModifyAction* action, std::string* value)>;
  // The lock-free read-modify-write every public variant is built on (see db_rmw.cc).
  // *final_value: the key's value afterwards (cleared if it has none).
  Status Modify(const WriteOptions& options, const Slice& key, const ModifyDecision& decide,
                std::string* final_value);

  // --- db_properties.cc ---
  nlohmann::ordered_json StatsJson();  // GetProperty("sluice.stats-json")
  std::string StatsString();           // GetProperty("sluice.stats"): StatsJson as text
  std::string IoCountersString();      // GetProperty("sluice.io-counters")
  uint64_t EstimateNumKeys();          // GetProperty("sluice.estimate-num-keys")

  // --- db_read.cc ---
  // Get through sv. REQUIRES: inside an epoch section. skipped_batch (optional): set to the
  // sequence number of a version passed over because its multi-update batch is in flight.
  Status GetFromSuperVersion(SuperVersion* sv, const ReadOptions& options, const Slice& key,
                             std::string* value, SequenceNumber* skipped_batch);
  // The context memory components are created with (keeper, sequence counter).
  MemoryComponentContext ComponentContext();
  // Prepares every memory component of sv for a scan and returns the sequence number that
  // includes every write completed before the call (all writes at or below it are done).
  SequenceNumber PrepareScan(SuperVersion* sv, bool allow_piggyback);
  // Internal iterators over everything sv holds (components pinned by their iterators).
  // guard_seq: if set, the mutable component's iterator records versions newer than it.
  std::vector<std::unique_ptr<InternalIterator>> NewInternalIterators(SuperVersion* sv,
                                                                      const ReadOptions& options,
                                                                      SequenceNumber guard_seq,
                                                                      std::string* newer_key,
                                                                      bool* newer_seen);
  // A bounded scan through an iterator at a fixed snapshot (no restarts).
  Status ScanWithIterator(const ReadOptions& options, const Slice& start, const Slice& end,
                          size_t limit, std::vector<std::pair<std::string, std::string>>* result);
  uint64_t MemoryUsage();

  // --- db_background.cc ---
  void StartBackgroundThreads();
  void StopBackgroundThreads();
  void BackgroundLoop();
  Status FlushOldestImmutable(std::unique_lock<std::mutex>* lock);
  Status RunCompaction(std::unique_ptr<Compaction> c, std::unique_lock<std::mutex>* lock);
  void DeleteObsoleteFiles(std::unique_lock<std::mutex>* lock);
  void SetBackgroundError(const Status& s);  // REQUIRES: mutex_ held
  Status BackgroundError();                  // lock-free check
  Status WaitForFlushes(const LoggedComponent* target);

  // Publishes a new SuperVersion. REQUIRES: mutex_ held.
  void InstallSuperVersion(std::shared_ptr<LoggedComponent> mem,
                           std::vector<std::shared_ptr<LoggedComponent>> imms,
                           std::shared_ptr<const Version> version);
  // The current SuperVersion. REQUIRES: mutex_ held (no install can retire it meanwhile).
  SuperVersion* CurrentSuperVersion() const {
    return super_version_.load(std::memory_order_acquire);
  }

  const std::string dbname_;
  const Options options_;
  Env* const env_;
  std::shared_ptr<Logger> info_log_;
  std::unique_ptr<FileLock> db_lock_;
  std::unique_ptr<Cache> block_cache_;
  std::unique_ptr<TableCache> table_cache_;
  std::shared_ptr<FileRegistry> file_registry_;
  std::unique_ptr<VersionSet> versions_;  // guarded by mutex_
  SequenceOracle oracle_;
  WriteStamps write_stamps_;  // read-modify-write conflict detection (db_rmw.cc)
  SnapshotList snapshots_;
  // Creates every memory component of this DB and holds what its components share (set by
  // Open, then never changed; serves the family's own properties and scan counters).
  std::unique_ptr<MemoryComponentFactory> component_factory_;
  DBStats stats_;

  // Owned by the DB, retired through epoch reclamation (see memtable.h). Never null while open.
  std::atomic<SuperVersion*> super_version_{nullptr};

  std::mutex mutex_;
  std::condition_variable bg_cv_;  // background work, flush and stall waiters
  std::mutex switch_mu_;           // serialises memory component switches
  std::vector<std::thread> bg_threads_;
  bool flush_running_ = false;      // guarded by mutex_
  int compactions_running_ = 0;     // guarded by mutex_
  int manual_compactions_ = 0;      // guarded by mutex_
  uint64_t flushes_completed_ = 0;  // guarded by mutex_
  Status bg_error_;                 // guarded by mutex_
  std::atomic<bool> has_bg_error_{false};
  std::atomic<bool> shutting_down_{false};
  std::atomic<bool> closed_{false};
  bool opened_ = false;
  bool rmw_conflict_detection_ = true;  // see SetRmwConflictDetectionForTesting
};

}  // namespace sluice

#endif  // SLUICE_DB_DB_IMPL_H_
