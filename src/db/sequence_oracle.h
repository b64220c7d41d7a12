// db/sequence_oracle.h — sequence numbers, cLSM's timestamps: one global counter, the Active set
// of sequence numbers taken but not yet fully written, and snapTime, the newest sequence number
// handed to a snapshot.
//
// Writers:  ClaimSlot() → AssignSequence() (inside the WAL reservation, so log order is
//           sequence order; without it for a write that skips the WAL) → apply the write →
//           Release().
// Readers:  SnapshotSequence() for snapshots and iterators; IsBatchInFlight() for point reads.
//
// Invariants (cLSM, Algorithm 2):
//   * AssignSequence publishes its sequence number in Active *before* reading snapTime (both
//   seq_cst),
//     and takes a new one while its sequence number is <= snapTime. A snapshot publishes snapTime
//     *before* waiting on Active. So for every snapshot s and every write w with ts(w) <= s,
//     either w finished before s was returned, or w saw snapTime >= ts(w) and retried with a
//     larger sequence number. A snapshot therefore sees exactly the writes with ts <= s, all
//     complete.
//   * snapTime never moves backwards (CAS to the max).
//   * Every update of a multi-entry batch carries the batch's one sequence number. A point read
//   that
//     finds a version whose sequence number belongs to a batch still in Active ignores it (reads
//     the next older version), so a batch becomes visible all at once, at Release().
//     batches_in_flight_ is raised before the slot is published and lowered after it is
//     cleared, so a reader that sees 0 knows no batch is in flight (see IsBatchInFlight).
// Active is a fixed array of cache-line padded slots; a writer owns one slot for the duration
// of its write (at most kSlots writes are in flight; more wait for a slot).

#ifndef SLUICE_DB_SEQUENCE_ORACLE_H_
#define SLUICE_DB_SEQUENCE_ORACLE_H_

#include <atomic>
#include <cstdint>

#include "base/internal_key.h"
#include "sluice/slice.h"
#include "util/cpu.h"

namespace sluice {

class SequenceOracle {
 public:
  static constexpr int kSlots = 64;

  explicit SequenceOracle(SequenceNumber last_sequence = 0);
  SequenceOracle(const SequenceOracle&) = delete;
  SequenceOracle& operator=(const SequenceOracle&) = delete;

  // Claims a free Active slot for the calling writer (waits while all are taken).
  int ClaimSlot();
  // Takes the write's sequence number (see the invariants). multi_entry: the write is a batch of
  // more than one update, whose updates must become visible together. key_tag: KeyTag() of
  // the one key a single-update write touches, kAnyKey otherwise (see FenceBelow).
  SequenceNumber AssignSequence(int slot, bool multi_entry, uint64_t key_tag = kAnyKey);

  // Tags for FenceBelow: a non-zero hash of a key; kAnyKey stands for every key.
  static constexpr uint64_t kAnyKey = 0;
  static uint64_t KeyTag(const Slice& key);
  // The write of this slot is complete (or abandoned): remove it from Active, free the slot.
  void Release(int slot, bool multi_entry);

  // A sequence number for a snapshot: below every active sequence number, never below an earlier
  // snapshot. linearizable: also wait until every write that started before the call is covered.
  SequenceNumber SnapshotSequence(bool linearizable);

  // Waits until no write with a sequence number <= seq is in flight (including one that has
  // claimed its slot and may be drawing such a number).
  void WaitForWritesUpTo(SequenceNumber seq) const;

  // For a read-modify-write of the key tagged key_tag that holds sequence number ts (see
  // db/db_rmw.cc): waits until every write with a smaller sequence number that may touch the key
  // (same tag, or kAnyKey) has finished. Afterwards the set of writes to the key ordered before
  // ts is final and complete. Writes to other keys are not waited for. A slot claimed but not
  // yet showing its number is waited for too (it may be drawing a smaller one; see the .cc).
  void FenceBelow(SequenceNumber ts, uint64_t key_tag) const;

  // Waits until no multi-entry batch with a sequence number below ts is in flight (free when no
  // batch is). A write calls it before inserting: see "Batches and linearizability" in the .cc.
  void WaitForBatchesBelow(SequenceNumber ts) const;

  // Waits until the batch with sequence number seq (if any) is no longer in flight.
  void WaitWhileBatchInFlight(SequenceNumber seq) const;

  // True if seq is the sequence number of a multi-entry batch that is still being applied.
  bool IsBatchInFlight(SequenceNumber seq) const;

  // The largest sequence number handed out so far.
  SequenceNumber LastSequence() const { return counter_.load(std::memory_order_seq_cst); }
  // Raises the counter to at least seq (recovery). Not concurrent with writers.
  void AdvanceTo(SequenceNumber seq);

 private:
  static constexpr uint64_t kEmpty = 0;
  static constexpr uint64_t kClaimed = uint64_t{1} << 62;  // slot owned, no sequence number yet
  static constexpr uint64_t kBatchBit = uint64_t{1} << 63;
  static constexpr uint64_t kSeqMask = (uint64_t{1} << 56) - 1;
  static constexpr SequenceNumber kNoneActive = ~SequenceNumber{0};

  // Smallest sequence number in Active, or kNoneActive.
  SequenceNumber MinActive() const;
  SequenceNumber SerializableSnapshot();
  // snapTime = max(snapTime, ts).
  void RaiseSnapTime(SequenceNumber ts);
  // Waits, slot by slot, until each write whose slot holds a sequence number v with awaits(slot, v)
  // has left its slot (defined in the .cc, its only user).
  template <typename Awaits>
  void WaitForSlots(Awaits awaits) const;

  struct alignas(kCacheLineSize) Slot {
    std::atomic<uint64_t> value{kEmpty};
    // The owner's key tag, written before its sequence number is published (see FenceBelow).
    std::atomic<uint64_t> key_tag{kAnyKey};
  };

  std::atomic<SequenceNumber> counter_;
  alignas(kCacheLineSize) std::atomic<SequenceNumber> snap_time_{0};
  alignas(kCacheLineSize) std::atomic<int64_t> batches_in_flight_{0};
  Slot slots_[kSlots];
};

}  // namespace sluice

#endif  // SLUICE_DB_SEQUENCE_ORACLE_H_
