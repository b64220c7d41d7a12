// memory/two_level.h — the "flodb" memory component (FloDB, EuroSys'17): a small concurrent
// hash table (the Membuffer, membuffer.h) over a large sorted skiplist (the Memtable,
// flodb_memtable.h), with background threads draining the first into the second.
//
// Write: into the Membuffer (a new entry, or an in-place update of the key's entry). If the
// bucket is full, or a newer version of the key may already be below, the write goes to the
// Memtable (in place there if the key exists). While a scan's freeze is draining the previous
// Membuffer, writes bound for the Memtable first help drain it.
// Read: Membuffer -> frozen Membuffer (if any) -> Memtable; the first version with sequence <=
// the read point wins, which is the freshest because data only flows down and each level keeps
// a key's versions newer than the levels below.
// Drain: drain threads take one partition at a time, mark its entries, sort them and
// multi-insert them into the Memtable (path sharing), then remove them from their slots.
// Scan preparation (PrepareScan): the master scan installs a fresh Membuffer, reads the
// sequence counter S (all later writes go to the fresh one: its floor is S), waits for writers
// still inside the old one, and drains it completely; every version <= S is then in the
// Memtable or in a write the DB waits for. Scans that started while a master was running wait
// for the next master and share its S (piggybacking).
//
// Switching Membuffers uses an atomic pointer plus a per-Membuffer count of writers inside it
// (sharded counters; a writer enters, then re-checks the pointer), and the old Membuffer is
// freed through epoch reclamation: readers never block, writers never wait on a lock held
// across I/O.

#ifndef SLUICE_MEMORY_TWO_LEVEL_H_
#define SLUICE_MEMORY_TWO_LEVEL_H_

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "memory/flodb_memtable.h"
#include "memory/flodb_stats.h"
#include "memory/membuffer.h"
#include "memory/memory_component.h"

namespace sluice {

struct FloDBOptions {
  size_t write_buffer_size = 64 << 20;
  double membuffer_fraction = 0.25;
  int partition_bits = 4;
  int bucket_slots = Membuffer::kMaxSlots;
  int drain_threads = 1;
  bool use_membuffer = true;
  bool multi_insert = true;
};

class TwoLevelComponent final : public MemoryComponent {
 public:
  // A partition is drained once it holds this many entries (or an eighth of its byte budget),
  // in chunks of about kDrainChunkEntries (a bounded batch keeps entries flowing; a writer
  // whose bucket is full helps with a chunk of kHelpChunkEntries).
  static constexpr int64_t kDrainBatchEntries = 128;
  static constexpr size_t kDrainChunkEntries = 2048;
  static constexpr size_t kHelpChunkEntries = 256;

  TwoLevelComponent(const FloDBOptions& options, const MemoryComponentContext& context);
  ~TwoLevelComponent() override;

  const char* Name() const override { return "flodb"; }
  void Add(SequenceNumber seq, ValueType type, const Slice& key, const Slice& value,
           bool keep_older) override;
  bool Get(const Slice& key, SequenceNumber read_seq, MemoryLookup* result) override;
  std::unique_ptr<InternalIterator> NewIterator() override;
  size_t ApproximateMemoryUsage() const override;
  uint64_t NumEntries() const override;
  void MarkImmutable() override;
  bool ReplacesInPlace() const override { return true; }
  SequenceNumber PrepareScan(bool allow_piggyback, bool* piggybacked) override;
  std::string StatsString() const override { return stats_->ToString(); }

 private:
  // Writers inside one Membuffer, counted on a few cache lines so they do not contend.
  class WriterCount {
   public:
    void Enter() { Counter().fetch_add(1, std::memory_order_seq_cst); }
    void Exit() { Counter().fetch_sub(1, std::memory_order_release); }
    bool Zero() const;

   private:
    static constexpr int kShards = 16;
    std::atomic<int64_t>& Counter();
    struct alignas(kCacheLineSize) Shard {
      std::atomic<int64_t> n{0};
    };
    Shard shards_[kShards];
  };

  struct Level1 {
    explicit Level1(std::unique_ptr<Membuffer> m) : mbf(std::move(m)) {}
    std::unique_ptr<Membuffer> mbf;
    WriterCount writers;
    std::atomic<size_t> drain_cursor{0};
  };

  // A drained Membuffer kept for the next freeze, so a scan costs what it drains rather than
  // a new table. Retired Membuffers come back here after their epoch grace period (if the
  // component still exists: the pool is shared with the retire callbacks).
  struct SparePool {
    std::mutex mu;
    std::unique_ptr<Level1> spare;  // guarded by mu
  };
  std::unique_ptr<Level1> NewLevel1();
  void RetireLevel1(Level1* l);
  void ApplyBelow(const FloDBMemtable::Update& u);
  // If a frozen Membuffer is being drained, helps and waits until it is gone.
  void WaitForFrozenDrain();
  // Drains one partition of l; returns the entries moved. sweep_all: visit every bucket, not
  // only those flagged occupied (complete drains use it).
  size_t DrainPartition(Level1* l, size_t partition, bool sweep_all = false);
  // Drains about max_entries of one partition (the next flagged buckets); returns the entries
  // moved.
  size_t DrainChunk(Level1* l, size_t partition, size_t max_entries);
  // Multi-inserts the collected entries into the Memtable, then removes them from l.
  size_t MoveToMemtable(Level1* l, std::vector<MembufferEntry*>* entries);
  // Drains l until it is empty (l receives no more writes).
  void DrainAll(Level1* l);
  void DrainLoop();
  void StopDrainers();

  const FloDBOptions options_;
  const MemoryComponentContext context_;
  const std::shared_ptr<FloDBStats> stats_;
  FloDBMemtable memtable_;

  // Owned; replaced ones are retired through epoch reclamation.
  std::atomic<Level1*> mbf_{nullptr};
  std::atomic<Level1*> frozen_{nullptr};
  std::atomic<bool> immutable_{false};

  std::mutex scan_mu_;                        // one master scan at a time
  std::atomic<uint64_t> masters_started_{0};  // written under scan_mu_
  std::atomic<uint64_t> masters_done_{0};
  std::atomic<SequenceNumber> master_sequence_{0};

  const std::shared_ptr<SparePool> spares_ = std::make_shared<SparePool>();

  std::vector<std::thread> drainers_;
  std::mutex drain_mu_;
  std::condition_variable drain_cv_;
  std::atomic<bool> stop_drainers_{false};
};

}  // namespace sluice

#endif  // SLUICE_MEMORY_TWO_LEVEL_H_
