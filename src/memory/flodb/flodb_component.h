// memory/flodb/flodb_component.h — the "flodb" memory component (FloDB, EuroSys'17): a small
// concurrent hash table (the Membuffer, membuffer.h) over a large sorted skiplist (the sorted
// level, the paper's Memtable, sorted_level.h), with background drain steps (tasks on the
// process-wide drain pool, util/task_scheduler.h) moving the first into the second.
//
// Write: into the Membuffer (a new entry, or an in-place update of the key's entry). If its
// byte budget is spent the writer first drains a chunk of its partition itself (multi-insert
// costs a fraction of a single insert per entry) and retries once; if it is still spent, if
// the key's bucket has no free slot, or if a newer version of the key may already be below, the
// write goes to the sorted level (in place there).
// Read: Membuffer -> sorted level; the first version with sequence <= the read point wins, which is
// the freshest because data only flows down and each level keeps a key's versions newer than
// the levels below (membuffer.h states how).
// Drain: drain steps take chunks of occupied buckets, sort the entries and multi-insert them
// into the sorted level (path sharing), then remove them from their slots. They drain early
// while cores are spare, and let the Membuffer hold its entries (a larger budget, drained late)
// while writers lack cores and updates hit keys it holds (DrainStep, DecidePolicy). Each of the
// drain_threads chains of steps starts with the first add into an empty, idle Membuffer and
// ends once writes stop and the Membuffer is empty: an idle component queues no work. Both levels
// draw their records from one pool, so a drained entry becomes a version of the sorted level as it
// is: nothing is allocated, copied or retired for it (flodb_record.h has the ownership rules).
// Scan preparation (PrepareScan, FloDB's drain-then-sequence): the master announces a floor
// raise (from then on an in-place update pushes the version it replaces below, so none that
// the scan may need is lost before the floor rises), reads the sequence counter S and raises
// the Membuffer's floor to S, so every later add <= S goes below; it waits
// for writers that may have read the old floor (a two-phase count: writers register in the
// current phase, the master flips the phase and waits for the old one to empty), drains every
// entry <= S, and waits (the same way) for drain batches that started before. Every version
// <= S is then in the sorted level, or in a write the DB waits for. The cost is what is drained:
// nothing is allocated or swapped. Scans that started while a master was running share the
// next master's S (piggybacking). MarkImmutable is the same with S = infinity.

#ifndef SLUICE_MEMORY_FLODB_FLODB_COMPONENT_H_
#define SLUICE_MEMORY_FLODB_FLODB_COMPONENT_H_

#include <array>
#include <atomic>
#include <chrono>
#include <memory>
#include <thread>
#include <vector>

#include "memory/flodb/flodb_stats.h"
#include "memory/flodb/membuffer.h"
#include "memory/flodb/sorted_level.h"
#include "memory/memory_component.h"
#include "util/mutex.h"
#include "util/task_scheduler.h"
#include "util/thread_annotations.h"

namespace sluice {

// The component's options (flodb_factory.h builds them from the public Options).
struct FloDBOptions {
  size_t write_buffer_size = 64 << 20;
  double membuffer_fraction = 0.25;
  int partition_bits = 0;
  int bucket_slots = Membuffer::kMaxSlots;
  int drain_threads = 1;  // chains of drain steps that may run at once
  // The cores the drain policy counts on (DecidePolicy); 0: the machine's hardware threads.
  int cores = 0;
  // false: no Membuffer (every write goes to the sorted level), for comparison.
  bool use_membuffer = true;
  // false: drain with one insert per entry instead of multi-insert, for comparison.
  bool multi_insert = true;
};

class FloDBComponent final : public MemoryComponent {
 public:
  // The drain steps move a partition's entries in chunks of about kDrainChunkEntries (when
  // they do: see DrainStep); a writer that finds the Membuffer's byte budget spent helps with
  // a chunk of kHelpChunkEntries.
  static constexpr size_t kDrainChunkEntries = 16384;
  static constexpr size_t kHelpChunkEntries = 256;
  // The drain policy is decided once per kDrainWindow from what happened in the last one: the
  // Membuffer holds its entries (see DrainStep) while more threads wrote than the cores that
  // drain chains leave free, no scan drained it, and at least 1/kHoldInPlaceShare of the
  // writes were in-place updates there. While scans drain it (a master ran in the last
  // window), new keys go straight to the sorted level instead (ForScans), so each scan finds
  // little to drain: the scanning thread no longer pays for the writers' inserts.
  static constexpr std::chrono::milliseconds kDrainWindow{10};
  static constexpr uint64_t kHoldInPlaceShare = 8;
  // A drain chain that found nothing to move looks again after a wait that doubles from the
  // first to the second of these.
  static constexpr int kDrainMinIdleMicros = 100;
  static constexpr int kDrainMaxIdleMicros = 5000;
  // The writes have stopped once a chain has seen none for this long (then it drains all).
  static constexpr std::chrono::milliseconds kDrainQuietAfter{2};

  // stats: the counters shared with the other components of the factory (null: the component
  // keeps its own).
  FloDBComponent(const FloDBOptions& options, const MemoryComponentContext& context,
                 std::shared_ptr<FloDBStats> stats = nullptr);
  ~FloDBComponent() override;

  const char* Name() const override { return "flodb"; }
  void Add(SequenceNumber seq, ValueType type, const Slice& key, const Slice& value,
           bool keep_older) override;
  void PrefetchForAdd(const Slice& key) override;
  void PrefetchForGet(const Slice& key) override;
  bool Get(const Slice& key, SequenceNumber read_seq, MemoryLookup* result) override;
  std::unique_ptr<InternalIterator> NewIterator() override;
  size_t ApproximateMemoryUsage() const override;
  // Exact once writers have stopped: waits for a gap between drain batches (a batch in flight
  // is counted by both levels); with writes arriving, for about 20 ms at most.
  uint64_t NumEntries() const override;
  bool HasEntries() const override;
  void MarkImmutable() override;
  bool ReplacesInPlace() const override { return true; }
  SequenceNumber PrepareScan(bool allow_piggyback, bool* piggybacked) override;
  std::string StatsString() const override { return stats_->ToString(); }

 private:
  // Threads inside a critical region (writers in the Membuffer, drain batches), counted on a
  // few cache lines so they do not contend, in two phases: Enter registers in the current
  // phase (re-checking it afterwards); FlipAndWait switches the phase and waits until the old
  // one is empty: it waits only for threads that entered before it, so it never starves.
  // Dekker-style (all seq_cst): a thread either registered in the old phase (the flipper waits
  // for it) or re-checked after the flip, and then reads everything written before the flip.
  // Each of the first kShards thread slots (util/thread_slot.h) owns a line per phase and
  // changes it with plain stores (the increment a seq_cst store, for the Dekker pair); other
  // threads share one more, with atomic adds.
  class PhasedCount {
   public:
    static constexpr uint32_t kShards = 16;
    using EnterCounts = std::array<uint64_t, kShards + 1>;

    int Enter();
    void Exit(int phase);
    void FlipAndWait();  // REQUIRES: one caller at a time
    // The threads that entered since the call that filled *seen (which this one updates),
    // counting those without a line of their own as one. Relaxed reads: an estimate, for the
    // drain policy.
    int ThreadsEnteredSince(EnterCounts* seen) const;

   private:
    bool Zero(int phase) const;
    struct alignas(kCacheLineSize) Shard {
      std::atomic<int64_t> n{0};
      std::atomic<uint64_t> enters{0};  // only grows; on the line Enter writes anyway
    };
    std::atomic<int> phase_{0};
    Shard shards_[2][kShards + 1];  // [kShards]: threads without a line of their own
  };

  void ApplyBelow(const SortedLevel::Update& u) { memtable_.Apply(u); }
  // Drains about max_entries of one partition with sequence <= max_seq; returns the entries
  // moved. A drain batch is counted in drain_batches_ from before it collects until its
  // entries have left the Membuffer.
  size_t DrainChunk(size_t partition, size_t max_entries,
                    SequenceNumber max_seq = kMaxSequenceNumber);
  // Links the collected entries into the sorted level as they are (multi-insert), then removes
  // them from the Membuffer, then retires those the sorted level dropped (flodb_record.h).
  size_t MoveToSortedLevel(std::vector<MembufferEntry*>* entries);
  // Membuffer count plus sorted level count, read in the order that never misses an entry.
  uint64_t LevelCountSum() const;
  // Raises the floor to max_seq, waits for writers that may have read the old one, drains
  // every entry <= max_seq, then waits for drain batches that started before.
  void DrainUpTo(SequenceNumber max_seq) REQUIRES(scan_mu_);
  // One step of a drain chain (which queues the next, or ends the chain: see the .cc).
  void DrainStep(size_t chain_index);
  // Starts the drain chains unless they run (drain_armed_ already true).
  void ArmDrain();
  void StopDrainers();
  // What a drain chain saw at the start of its current policy window.
  struct DrainWindow {
    std::chrono::steady_clock::time_point start;
    bool hold = false;
    bool for_scans = false;
    uint64_t writes = 0;
    uint64_t in_place = 0;
    uint64_t masters = 0;
    PhasedCount::EnterCounts writers_seen{};
  };
  // The drain policy for the next kDrainWindow, from what happened in the last one: sets
  // w->hold and w->for_scans (and for_scans_).
  void DecidePolicy(std::chrono::steady_clock::time_point now, DrainWindow* w);

  const FloDBOptions options_;
  const MemoryComponentContext context_;
  const std::shared_ptr<FloDBStats> stats_;
  // The records of both levels (flodb_record.h): a drained entry moves below as it is. Declared
  // before the levels, so it outlives them.
  EpochPool records_;
  SortedLevel memtable_;
  const std::unique_ptr<Membuffer> mbf_;  // null without a Membuffer
  PhasedCount writers_;                   // writers inside mbf_->Add
  PhasedCount drain_batches_;             // drain batches between collecting and removing
  std::atomic<size_t> drain_cursor_{0};   // next partition a drain thread looks at
  // Batches that MoveToSortedLevel started and finished moving (a sequence lock for NumEntries:
  // an entry being moved is counted by both levels).
  std::atomic<uint64_t> moves_started_{0};
  std::atomic<uint64_t> moves_finished_{0};
  std::atomic<bool> immutable_{false};
  // Scans drained the Membuffer in the last policy window: a write of a key it does not hold
  // goes below at once (no help with the drain, no retry). Relaxed: a policy hint; whichever
  // way a writer reads it, the Membuffer's rules keep each key's versions in order.
  std::atomic<bool> for_scans_{false};

  Mutex scan_mu_;                             // one master scan at a time
  std::atomic<uint64_t> masters_started_{0};  // written under scan_mu_
  std::atomic<uint64_t> masters_done_{0};
  std::atomic<SequenceNumber> master_sequence_{0};

  // A chain's own state: only its steps touch it, one at a time (each step is queued by the
  // one before, through the scheduler's lock).
  struct DrainChain {
    int idle_micros = kDrainMinIdleMicros;
    uint64_t writes_seen = 0;
    std::chrono::steady_clock::time_point last_write_seen{};  // when writes_seen last moved
    DrainWindow window;
  };
  std::vector<DrainChain> drain_chains_;  // drain_threads of them (none without a Membuffer)
  // True from ArmDrain until the last chain ends. Dekker pairing, all seq_cst: an add that put
  // an entry into the Membuffer (the partition count's seq_cst increment) loads it; the last
  // chain to end stores false and then loads the partition counts (AnyEntriesSeqCst). Either the
  // add's load comes after the store in the single total order (it reads false and arms), or
  // the chain's loads come after the increment (they see the entry and it re-arms): an entry
  // is never left in a Membuffer with no chain running.
  std::atomic<bool> drain_armed_{false};
  std::atomic<size_t> live_chains_{0};  // chains not ended; set by ArmDrain while none runs
  // The drain steps' client of the process-wide pools; closed by StopDrainers. Declared last:
  // destroyed (closed) before anything a step uses.
  const std::unique_ptr<TaskScheduler::Client> drain_tasks_{TaskScheduler::Default().NewClient()};
};

}  // namespace sluice

#endif  // SLUICE_MEMORY_FLODB_FLODB_COMPONENT_H_
