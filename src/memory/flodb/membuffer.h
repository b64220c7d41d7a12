// memory/flodb/membuffer.h — FloDB's Membuffer: a small, bounded, concurrent hash table that
// absorbs writes before they are drained into the sorted level below it (sorted_level.h).
//
// Layout (CLHT-style): cache-line (64-byte) buckets, each with a spinlock, a one-byte tag of
// each slot's key hash, the largest sequence number that ever left the bucket (max_out_seq),
// and up to six entry slots. The tags let a writer pass over other keys' entries without
// loading them (a cache miss each); they are written only under the bucket lock, so readers,
// which do not lock, ignore them (a writer reads them unlocked only to prefetch). Buckets per
// partition are a power of two. Writers take the bucket's lock for the few instructions of an
// update; readers never lock (they load slots with acquire and read immutable entries). A
// bucket with no free slot makes an add fail (the write then goes to the sorted level). Buckets
// are grouped into 2^partition_bits partitions by the most significant bits of the key, so that
// one partition's entries, drained and sorted together, land in one neighbourhood of the
// skiplist. The buckets sit on huge pages where the kernel offers them (util/huge_pages.h):
// adds and drains touch them at random.
//
// Invariants (with the sorted level below it, see flodb_component.h):
//   * One entry per key. An entry is immutable; an update of a key replaces the slot's pointer
//     under the bucket lock. The displaced entry is retired to the records' pool, which reuses
//     it only after an epoch grace period (util/epoch_pool.h), by the writer if no drainer has
//     marked it, else by the drainer or the sorted level (flodb_record.h says who and when).
//   * The entry of a key is newer than every version of that key below the Membuffer. Hence an
//     add is refused (kLate) when its sequence number is not above the bucket's max_out_seq or
//     the Membuffer's floor: a newer version may have left this bucket for the sorted level.
//   * A drained entry is inserted into the sorted level before it leaves its slot (and raises
//     max_out_seq), so a reader always finds it in one of the two.
//   * Drainers mark an entry (draining flag), under its bucket's lock, before moving it: no
//     two drainers move it.
//   * An entry sits in a bucket flagged in the occupancy bitmap, or in one a drainer is
//     sweeping (see MarkOccupied): a full sweep of the flagged buckets finds every entry.
//   * The floor only rises. A scan raises it to its sequence number S and drains every entry
//     <= S; from then on no version <= S stays in (or enters) the Membuffer: an add <= floor
//     goes below (with the key's entry, if any), and an entry <= floor that is replaced is
//     pushed below first. Before it reads S the scan announces the raise; until the floor
//     reaches S every entry replaced in place is pushed below first, so no version <= S is
//     lost to an update that read the older floor (see BeginFloorRaise).

#ifndef SLUICE_MEMORY_FLODB_MEMBUFFER_H_
#define SLUICE_MEMORY_FLODB_MEMBUFFER_H_

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <type_traits>
#include <vector>

#include "base/internal_key.h"
#include "memory/flodb/flodb_record.h"
#include "memory/memory_component.h"
#include "util/cpu.h"
#include "util/epoch_pool.h"
#include "util/huge_pages.h"

namespace sluice {

// One key's newest version in the Membuffer: a record (flodb_record.h) from the pool the
// Membuffer was given, handed to the sorted level as it is when drained.
using MembufferEntry = FloDBRecord;

class Membuffer {
 public:
  static constexpr int kMaxSlots = 6;

  // capacity: bytes of entries before adds fail (the budget, until SetBudget changes it); the
  // table is sized for it. slots_per_bucket in [1, 6]. The floor starts
  // at 0 (see RaiseFloor). pool: where entries come from and go back to (not owned; shared
  // with the sorted level the entries are drained into, which must use the same pool); null:
  // a pool of its own.
  Membuffer(size_t capacity, int partition_bits, int slots_per_bucket, EpochPool* pool = nullptr);
  ~Membuffer();
  Membuffer(const Membuffer&) = delete;
  Membuffer& operator=(const Membuffer&) = delete;

  // An entry from the pool. Thread-safe.
  MembufferEntry* NewEntry(uint64_t hash, SequenceNumber seq, ValueType type, const Slice& key,
                           const Slice& value);
  // An entry that left its slot (displaced, or drained and removed): reused after an epoch grace
  // period, so readers that found it in the slot may go on reading it.
  void RetireEntry(MembufferEntry* e) { pool_->Retire(e, e->AllocatedSize()); }
  // An entry that was never published: reused at once.
  void FreeEntry(MembufferEntry* e) { pool_->Free(e, e->AllocatedSize()); }

  // A scan's master announces a raise (BeginFloorRaise) before it reads its sequence number S,
  // then raises the floor to S (RaiseFloor, which ends the announcement). While a raise is
  // announced, an in-place update pushes the entry it replaces below first: its writer may hold
  // a sequence number above S and replace the version <= S that the scan needs before the
  // floor reaches S. seq_cst here and in Add's load of the floor: a writer whose load misses
  // the announcement took its sequence number before the master read S, so its own version is
  // <= S, and the scan drains it.
  void BeginFloorRaise() { floor_.fetch_or(kRaisePending, std::memory_order_seq_cst); }
  // Adds at or below the floor go below (see the invariants). seq_cst: a writer that takes its
  // sequence number after this store reads the new floor.
  void RaiseFloor(SequenceNumber floor) {
    uint64_t cur = floor_.load(std::memory_order_relaxed);
    while (!floor_.compare_exchange_weak(cur, std::max(cur & ~kRaisePending, floor),
                                         std::memory_order_seq_cst)) {
    }
  }
  SequenceNumber floor() const { return floor_.load(std::memory_order_acquire) & ~kRaisePending; }
  bool RaisePending() const {
    return (floor_.load(std::memory_order_acquire) & kRaisePending) != 0;
  }

  enum class AddResult {
    kAdded,       // a new entry
    kReplaced,    // replaced the key's older entry (*displaced is set)
    kOlder,       // the key's entry is newer: the caller applies this version below
    kLate,        // refused: a newer version of the key may be below (see the invariants)
    kFull,        // the byte budget is spent: draining any entries makes room
    kBucketFull,  // every slot of the key's bucket holds another key: only draining those does
  };

  // Adds `fresh`. When it replaces an entry, push_down(old) runs under the bucket lock before
  // the slot changes if must_keep(old, fresh) says a reader may still need the old version, so
  // that no reader misses it; the displaced entry is returned in *displaced for the caller to
  // retire. On kOlder / kLate / kFull / kBucketFull the caller keeps ownership of `fresh`.
  // Refused adds send the write below, so they raise the bucket's max_out_seq to its sequence
  // number first; except with retry_if_full on kFull: the caller makes room and adds again
  // (a raised max_out_seq would refuse that add as late), and raises it by the final attempt.
  template <typename MustKeep, typename PushDown>
  AddResult Add(MembufferEntry* fresh, MustKeep&& must_keep, PushDown&& push_down,
                MembufferEntry** displaced, bool retry_if_full = false);

  // The key's entry if its sequence is <= read_seq. *shadowed: an entry exists but is newer.
  bool Get(const Slice& key, uint64_t hash, SequenceNumber read_seq, MemoryLookup* result,
           bool* shadowed) const;

  size_t partitions() const { return partitions_; }
  // Marks and appends unmarked entries of flagged buckets of the partition, continuing from the
  // partition's rotating cursor, until about max_entries are collected or a full round is done.
  // Only entries with sequence <= max_seq are taken (buckets keeping others stay flagged).
  void CollectChunk(size_t partition, size_t max_entries, std::vector<MembufferEntry*>* out,
                    SequenceNumber max_seq = kMaxSequenceNumber);
  // Removes a drained entry if its slot still holds it (raising max_out_seq); true if removed.
  // False: an update displaced it first. Either way the entry is now out of the Membuffer and
  // its drainer decides what becomes of it (see flodb_record.h).
  bool RemoveDrained(MembufferEntry* entry);
  // Starts fetching the bucket of a key into the cache, for writing (Add and RemoveDrained
  // lock it), so that the miss overlaps other work.
  void PrefetchBucket(const Slice& key, uint64_t hash) const {
    __builtin_prefetch(BucketFor(key, hash), /*rw=*/1);
  }
  // Starts fetching the entries of the key's bucket whose slot tag is the key's: an in-place
  // update's second miss (Add compares the old entry's hash and key under the bucket lock),
  // which then overlaps what the writer does before it locks the bucket. Call it once the
  // bucket has had time to arrive (PrefetchBucket), or it stalls on the bucket. A hint: relaxed
  // loads without the lock; a slot that changes meanwhile costs one useless prefetch.
  void PrefetchEntryFor(const Slice& key, uint64_t hash) const {
    const Bucket* b = BucketFor(key, hash);
    const uint8_t tag = TagOf(hash);
    for (int i = 0; i < slots_; i++) {
      if (b->tags[i].load(std::memory_order_relaxed) != tag) continue;
      const MembufferEntry* e = b->slots[i].load(std::memory_order_relaxed);
      if (e != nullptr) {
        // Both lines an entry's header and a short (8-byte) key may span: records are
        // 16-byte aligned, so those 48 bytes cross a line in half the records.
        __builtin_prefetch(e);
        __builtin_prefetch(reinterpret_cast<const char*>(e) + sizeof(MembufferEntry) + 7);
      }
    }
  }
  void PrefetchBucketOf(const MembufferEntry* entry) const {
    PrefetchBucket(entry->key(), entry->hash);
  }

  size_t EntryBytes() const;
  // The table and the live entries. Entries retired and waiting for their grace period (a few
  // milliseconds of writes; see util/epoch.h) and free records of the pool are not counted:
  // the pool reuses them for the next entries.
  size_t ApproximateMemoryUsage() const { return table_bytes_ + EntryBytes(); }
  // The table alone (for an owner that counts the shared pool itself).
  size_t TableBytes() const { return table_bytes_; }
  bool IsEmpty() const;
  uint64_t NumEntries() const;
  // Whether any partition counts an entry, read with seq_cst loads (the drain chains' last
  // look before they stop: see FloDBComponent's drain_armed_).
  bool AnyEntriesSeqCst() const;
  // Entries in one partition (approximate while writers run).
  int64_t PartitionEntries(size_t partition) const {
    return stats_[partition].entries.load(std::memory_order_relaxed);
  }
  int64_t PartitionBytes(size_t partition) const {
    return stats_[partition].bytes.load(std::memory_order_relaxed);
  }
  size_t capacity() const { return capacity_; }
  // Bytes of entries before adds fail: the capacity, or what the owner set (SetBudget; a
  // larger budget fills the buckets more, and more keys then find theirs full). Relaxed: an add
  // that reads an older budget is at most one entry over or under it.
  size_t budget() const { return budget_.load(std::memory_order_relaxed); }
  void SetBudget(size_t bytes) { budget_.store(bytes, std::memory_order_relaxed); }
  // Each partition's share of the budget (partitions are a power of two: a shift, not a
  // division, on the add path).
  size_t PartitionBudget() const { return budget() >> partition_bits_; }

  uint64_t PartitionOf(const Slice& key) const;
  static uint64_t HashKey(const Slice& key) { return FloDBRecord::HashKey(key); }

 private:
  struct alignas(kCacheLineSize) Bucket {
    std::atomic<uint16_t> lock{0};
    // Written under the lock; meaningful for non-null slots only. Atomic (relaxed) only for
    // PrefetchEntryFor's unlocked hint reads.
    std::atomic<uint8_t> tags[kMaxSlots] = {};
    SequenceNumber max_out_seq = 0;  // guarded by lock
    std::atomic<MembufferEntry*> slots[kMaxSlots];
  };
  static_assert(sizeof(Bucket) == kCacheLineSize, "a bucket is one cache line");
  static_assert(std::is_trivially_destructible_v<Bucket>, "buckets are never destroyed");

  Bucket* BucketFor(const Slice& key, uint64_t hash) const {
    return BucketIn(PartitionOf(key), hash);
  }
  // Occupancy bitmap, one bit per bucket: a writer sets its bucket's bit after publishing an
  // entry, under the bucket lock; a drainer clears the bit, then reads the bucket under its
  // lock (CollectBucket). So an entry is either seen by that sweep or flags the bucket again:
  // if the writer's critical section comes first, the drainer's lock acquire sees the entry;
  // if it comes second, the drainer's clear happened before it, so the writer's load reads the
  // bit clear and sets it. (Without the drainer taking the lock this is a store-buffering
  // race: the writer's slot store and its relaxed load of the word may be reordered, and an
  // entry could sit in an unflagged bucket that no sweep visits.)
  // REQUIRES: the bucket's lock held.
  void MarkOccupied(const Bucket* b) {
    const size_t index = static_cast<size_t>(b - buckets_);
    const uint64_t bit = uint64_t{1} << (index % 64);
    std::atomic<uint64_t>& word = occupied_[index / 64];
    if ((word.load(std::memory_order_relaxed) & bit) == 0) {
      word.fetch_or(bit, std::memory_order_release);
    }
  }
  // Takes the bucket's unmarked entries <= max_seq, under the bucket's lock (see
  // MarkOccupied); a bucket left with unmarked entries stays flagged.
  void CollectBucket(Bucket* b, std::vector<MembufferEntry*>* out,
                     SequenceNumber max_seq = kMaxSequenceNumber);

  Bucket* BucketIn(uint64_t partition, uint64_t hash) const {
    return &buckets_[partition * buckets_per_partition_ + (hash & bucket_mask_)];
  }
  // The slot tag of a hash: its top byte (the bucket index comes from the low bits).
  static uint8_t TagOf(uint64_t hash) { return static_cast<uint8_t>(hash >> 56); }
  static void Lock(Bucket* b) {
    // acquire: the critical section sees the previous holder's writes.
    while (b->lock.exchange(1, std::memory_order_acquire) != 0) CpuRelax();
  }
  static void Unlock(Bucket* b) { b->lock.store(0, std::memory_order_release); }

  const size_t capacity_;
  const int partition_bits_;
  const size_t partitions_;
  const size_t buckets_per_partition_;  // a power of two
  const uint64_t bucket_mask_;          // buckets_per_partition_ - 1
  const int slots_;
  HugePageBuffer bucket_memory_;  // the buckets, on huge pages where the kernel offers them
  Bucket* const buckets_;         // partitions_ * buckets_per_partition_, in bucket_memory_
  std::unique_ptr<std::atomic<uint64_t>[]> occupied_;
  const size_t table_bytes_;
  // Occupancy per partition, each on its own cache line: writers of different partitions do
  // not contend on a counter.
  struct alignas(kCacheLineSize) PartitionStats {
    std::atomic<int64_t> entries{0};
    std::atomic<int64_t> bytes{0};
    std::atomic<size_t> cursor{0};  // next bitmap word for CollectChunk (relative)
  };
  void Account(uint64_t partition, int64_t entries, int64_t bytes) {
    PartitionStats& ps = stats_[partition];
    // seq_cst: an add's increment pairs with FloDBComponent's drain_armed_ (Dekker; an x86
    // locked add either way).
    if (entries != 0) ps.entries.fetch_add(entries, std::memory_order_seq_cst);
    if (bytes != 0) ps.bytes.fetch_add(bytes, std::memory_order_relaxed);
  }
  // An in-place update changes its partition's bytes by the difference of two charges, and
  // nothing else. Each of the first kPendingSlots thread slots gathers those differences for
  // one partition at a time and adds them to the partition's counter once they pass
  // pending_limit_ or the thread moves to another partition, so that writers updating keys in
  // place do not take the counter's cache line from each other on every write. Owner-only
  // state, relaxed loads and
  // stores (a slot's hand-over orders its owners, util/thread_slot.h). So the bytes counters
  // may be off by kPendingSlots * pending_limit_ (EntryBytes clamps at zero): they keep a
  // budget, where that is noise, and never a count (entries stay exact).
  static constexpr uint32_t kPendingSlots = 16;
  struct alignas(kCacheLineSize) PendingBytes {
    std::atomic<uint64_t> partition{0};
    std::atomic<int64_t> bytes{0};
  };
  void AccountInPlace(uint64_t partition, int64_t bytes);

  // The floor, and kRaisePending while a raise is announced (sequence numbers stay below it).
  static constexpr uint64_t kRaisePending = uint64_t{1} << 63;
  std::atomic<uint64_t> floor_{0};
  std::atomic<size_t> budget_;
  std::unique_ptr<PartitionStats[]> stats_;
  const int64_t pending_limit_;  // 1/1024 of a partition's share of the capacity, <= 16 KiB
  std::unique_ptr<PendingBytes[]> pending_;    // kPendingSlots
  const std::unique_ptr<EpochPool> own_pool_;  // null when given a pool
  EpochPool* const pool_;
};

template <typename MustKeep, typename PushDown>
Membuffer::AddResult Membuffer::Add(MembufferEntry* fresh, MustKeep&& must_keep,
                                    PushDown&& push_down, MembufferEntry** displaced,
                                    bool retry_if_full) {
  *displaced = nullptr;
  const uint64_t partition = PartitionOf(fresh->key());
  Bucket* b = BucketIn(partition, fresh->hash);
  const SequenceNumber seq = fresh->sequence();
  const uint8_t tag = TagOf(fresh->hash);
  Lock(b);
  int free_slot = -1;
  for (int i = 0; i < slots_; i++) {
    MembufferEntry* e = b->slots[i].load(std::memory_order_relaxed);
    if (e == nullptr) {
      if (free_slot < 0) free_slot = i;
      continue;
    }
    if (b->tags[i].load(std::memory_order_relaxed) != tag || e->hash != fresh->hash ||
        e->key() != fresh->key())
      continue;
    if (seq <= e->sequence()) {
      Unlock(b);
      return AddResult::kOlder;
    }
    // seq_cst: the Dekker pair with BeginFloorRaise and the master's read of S (see there).
    const uint64_t floor_word = floor_.load(std::memory_order_seq_cst);
    const SequenceNumber floor = floor_word & ~kRaisePending;
    if (seq <= floor) {
      // At or below the floor a scan is draining: the write belongs below, and so does the
      // entry it would replace (moved first, so the Membuffer never shadows it with an older
      // version). The caller retires *displaced and applies `fresh` below.
      push_down(*e);
      b->slots[i].store(nullptr, std::memory_order_release);
      if (e->sequence() > b->max_out_seq) b->max_out_seq = e->sequence();
      Account(partition, -1, -static_cast<int64_t>(e->Charge()));
      Unlock(b);
      *displaced = e;
      return AddResult::kLate;
    }
    // In-place update. The old version goes below first if a reader may need it, or if a scan
    // draining at or above its sequence number still needs it (it is at or below the floor), or
    // if a scan is choosing its sequence number (it may be at or above the old version's).
    if (fresh->keep_older || e->sequence() <= floor || (floor_word & kRaisePending) != 0 ||
        must_keep(*e, *fresh)) {
      push_down(*e);
    }
    AccountInPlace(partition,
                   static_cast<int64_t>(fresh->Charge()) - static_cast<int64_t>(e->Charge()));
    // release: readers that acquire the slot see the whole entry.
    b->slots[i].store(fresh, std::memory_order_release);
    MarkOccupied(b);
    Unlock(b);
    *displaced = e;
    return AddResult::kReplaced;
  }
  if (seq <= b->max_out_seq || seq <= floor()) {
    Unlock(b);
    return AddResult::kLate;
  }
  // A partition may use more than its share of the budget while the whole table has
  // room (the sum is read only then): keys are rarely spread evenly over partitions.
  const bool bucket_full = free_slot < 0;
  if (bucket_full || (stats_[partition].bytes.load(std::memory_order_relaxed) >=
                          static_cast<int64_t>(PartitionBudget()) &&
                      EntryBytes() >= budget())) {
    // The write goes below: later, older writes of keys of this bucket must follow it there.
    if ((bucket_full || !retry_if_full) && seq > b->max_out_seq) b->max_out_seq = seq;
    Unlock(b);
    return bucket_full ? AddResult::kBucketFull : AddResult::kFull;
  }
  Account(partition, 1, static_cast<int64_t>(fresh->Charge()));
  b->tags[free_slot].store(tag, std::memory_order_relaxed);
  b->slots[free_slot].store(fresh, std::memory_order_release);
  MarkOccupied(b);
  Unlock(b);
  return AddResult::kAdded;
}

}  // namespace sluice

#endif  // SLUICE_MEMORY_FLODB_MEMBUFFER_H_
