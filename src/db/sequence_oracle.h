// db/sequence_oracle.h — sequence numbers, cLSM's timestamps: one global counter, the Active set
// of sequence numbers taken but not yet fully written, and snapTime, the newest sequence number
// handed to a snapshot.
//
// Writers:  ClaimSlot() → AssignSequence() (inside the WAL reservation, so log order is
//           sequence order; without it for a write that skips the WAL) → log the write →
//           PassGate() → insert it → Announce() → Release().
// Readers:  SnapshotSequence() for snapshots and iterators; IsBatchInFlight() for point reads;
//           AnnouncedSequence() for a scan's read point (DBImpl::PrepareScan).
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
//   * Linearizable read points (LinearizablePoint). A write takes effect when its sequence
//     number is announced (announced_, a seq_cst maximum): by the write itself once it has
//     inserted, or earlier by a point read that found one of its versions (EnsureAnnounced,
//     before the read returns), or by the write before it replaces a version in place (see
//     db/snapshot_list.h). So every write that was acknowledged, or whose effect anyone
//     saw, is <= announced_. A read point p is linearizable when, at one instant T inside the
//     reader's call, every write <= p is complete and announced_ <= p: the writes in effect at
//     T are then exactly those <= p, and the reader is linearized at T. The reader chooses p
//     covering announced_ (a write still being logged or inserted has been seen by nobody and
//     is ordered after the reader, which need not wait for it), waits for the writes <= p, and
//     checks announced_ <= p again (T is that load). Writes insert out of sequence order when
//     they overlap, so the check can fail: a write > p took effect while one <= p was still
//     being logged. The reader then tries again with a larger p; after a few failures it
//     closes the gate (gate_): writes above the gate's value wait before inserting and reads
//     before announcing, so only those already past it can fail the check again, and the loop
//     ends.
// Active is a fixed array of cache-line padded slots; a writer owns one slot for the duration
// of its write (at most kSlots writes are in flight; more wait for a slot).

#ifndef SLUICE_DB_SEQUENCE_ORACLE_H_
#define SLUICE_DB_SEQUENCE_ORACLE_H_

#include <atomic>
#include <cstdint>

#include "base/internal_key.h"
#include "sluice/slice.h"
#include "util/cpu.h"
#include "util/mutex.h"

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

  // A write calls PassGate(seq) before it inserts (it waits while a closed gate holds seq back),
  // and Announce(seq) once it has: its write takes effect then, if no one announced it before.
  void PassGate(SequenceNumber seq) const {
    // seq_cst: this load precedes the write's insertion and so every announcement of seq,
    // against a reader's closing store of the gate before its load of announced_ (a Dekker
    // pair: see CloseGate).
    if (seq > gate_.load(std::memory_order_seq_cst)) WaitAtGate(seq);
  }
  // announced_ = max(announced_, seq), without the gate: also for a thread that may hold locks
  // a gated reader's proposal waits for (a write replacing a version in place asks the
  // VersionKeeper under its bucket's lock, and a drain thread moves entries during a scan's
  // drain). It announces only the numbers of writes that have passed the gate (or inserted).
  // Usually free when seq is not new: each thread remembers the last announced_ it saw, so a
  // drain thread moving many versions does not load announced_'s line, which every write
  // takes, for each.
  void Announce(SequenceNumber seq) {
    SeenAnnounced& seen = Seen();
    if (seen.oracle == id_ && seq <= seen.announced) return;  // announced_ only grows
    AnnounceSlow(seq, &seen);
  }

  // The largest sequence number announced so far: every write that any reader may have seen,
  // or that was acknowledged, has a sequence number at or below it.
  SequenceNumber AnnouncedSequence() const { return announced_.load(std::memory_order_seq_cst); }
  // A point read is about to return what it found in a memory component: a version (or a
  // range tombstone) with sequence number seq, whose write may not have announced yet. Announces
  // seq if it is not already (waiting at a closed gate first, as a write does: the read holds no
  // lock). Usually free: each thread remembers the last announced_ it saw.
  void EnsureAnnounced(SequenceNumber seq) {
    SeenAnnounced& seen = Seen();
    if (seen.oracle == id_ && seq <= seen.announced) return;  // announced_ only grows
    EnsureAnnouncedSlow(seq, &seen);
  }

  // A sequence number for a snapshot: below every active sequence number, never below an earlier
  // snapshot. linearizable: a linearizable point (see the invariants), through LinearizablePoint.
  SequenceNumber SnapshotSequence(bool linearizable);

  // A linearizable read point. choose(cap, first) proposes one: it returns p after waiting for
  // every write <= p to complete (WaitForWritesUpTo), with p >= min(cap, the announced_ it
  // loads after the call began); first is true on the first proposal only (a proposal shared
  // with other readers, a FloDB piggyback, may only be taken then). Proposals repeat until one
  // passes the check, under the gate after kUngatedProposals failures (see the invariants).
  template <typename Choose>
  SequenceNumber LinearizablePoint(Choose choose);

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

  static constexpr int kUngatedProposals = 4;
  static constexpr SequenceNumber kGateOpen = ~SequenceNumber{0};

  // What a thread last saw of an oracle's announced_ (id_ tells oracles apart: addresses are
  // reused), in a seq_cst load or read-modify-write. Skipping an announcement because seq is
  // at or below it is as good as making it: that earlier seq_cst operation precedes, in program
  // order and so in the single total order, whatever the caller does next (a VersionKeeper's
  // load of the pending count, a read's return), and it read a value >= seq.
  struct SeenAnnounced {
    uint64_t oracle = 0;
    SequenceNumber announced = 0;
  };
  static SeenAnnounced& Seen() {
    thread_local SeenAnnounced seen;
    return seen;
  }
  void AnnounceSlow(SequenceNumber seq, SeenAnnounced* seen);
  void EnsureAnnouncedSlow(SequenceNumber seq, SeenAnnounced* seen);
  void WaitAtGate(SequenceNumber seq) const;
  // Closes the gate at the current announced_ and returns that value (REQUIRES gate_mu_).
  SequenceNumber CloseGate();
  // Raises a closed gate to g (writes <= g pass), or opens it (kGateOpen).
  void SetGate(SequenceNumber g) { gate_.store(g, std::memory_order_seq_cst); }

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

  const uint64_t id_;  // unique in the process, never 0
  std::atomic<SequenceNumber> counter_;
  alignas(kCacheLineSize) std::atomic<SequenceNumber> snap_time_{0};
  // Its own line: every write raises it, every scan reads it.
  alignas(kCacheLineSize) std::atomic<SequenceNumber> announced_;
  // Writes with a larger sequence number wait before announcing (kGateOpen: none do). Read by
  // every write, written only by a reader that closes it: its own line, shared by the cores.
  alignas(kCacheLineSize) std::atomic<SequenceNumber> gate_{kGateOpen};
  Mutex gate_mu_;  // one gate at a time
  alignas(kCacheLineSize) std::atomic<int64_t> batches_in_flight_{0};
  Slot slots_[kSlots];
};

template <typename Choose>
SequenceNumber SequenceOracle::LinearizablePoint(Choose choose) {
  // T, the instant the reader is linearized at, is the load of announced_ that passes the check.
  for (int i = 0; i < kUngatedProposals; i++) {
    const SequenceNumber p = choose(kMaxSequenceNumber, i == 0);
    if (announced_.load(std::memory_order_seq_cst) <= p) return p;
  }
  // Overlapping writes keep inserting above each proposal: hold new ones back. Writes at or
  // below the gate are never held, so the writes a proposal waits for all finish.
  MutexLock lock(&gate_mu_);
  SequenceNumber g = CloseGate();
  for (;;) {
    const SequenceNumber p = choose(g, false);
    const SequenceNumber announced = announced_.load(std::memory_order_seq_cst);
    if (announced <= p) {
      SetGate(kGateOpen);
      return p;
    }
    // Only a write or a point read that read the gate open before CloseGate announces above it
    // (at most one per thread): let the numbers up to it pass, and propose again.
    g = announced;
    SetGate(g);
  }
}

}  // namespace sluice

#endif  // SLUICE_DB_SEQUENCE_ORACLE_H_
