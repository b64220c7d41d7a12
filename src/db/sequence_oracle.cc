// db/sequence_oracle.cc — see sequence_oracle.h for the protocol and its invariants.

#include "db/sequence_oracle.h"

#include <algorithm>
#include <cassert>

#include "util/hash.h"
#include "util/spin_wait.h"
#include "util/sync_point.h"

namespace sluice {

namespace {

uint64_t NextId() {
  static std::atomic<uint64_t> next{1};
  return next.fetch_add(1, std::memory_order_relaxed);
}

}  // namespace

SequenceOracle::SequenceOracle(SequenceNumber last_sequence)
    : id_(NextId()), counter_(last_sequence), snap_time_(0), announced_(last_sequence) {}

void SequenceOracle::EnsureAnnouncedSlow(SequenceNumber seq, SeenAnnounced* seen) {
  // seq_cst: the reader's load (or its announcement) precedes its return, so a read point taken
  // after the read returned loads at least seq.
  const SequenceNumber announced = announced_.load(std::memory_order_seq_cst);
  if (seq <= announced) {
    *seen = {id_, announced};
    return;
  }
  PassGate(seq);
  AnnounceSlow(seq, seen);
}

int SequenceOracle::ClaimSlot() {
  const int start = static_cast<int>(ThreadIndex() % kSlots);
  for (SpinBackoff backoff;; backoff.Pause()) {
    for (int i = 0; i < kSlots; i++) {
      const int s = (start + i) % kSlots;
      uint64_t expected = kEmpty;
      // acquire: pairs with the release in Release(), so the previous owner is done with it.
      if (slots_[s].value.load(std::memory_order_relaxed) == kEmpty &&
          slots_[s].value.compare_exchange_strong(expected, kClaimed, std::memory_order_acquire)) {
        return s;
      }
    }
  }
}

uint64_t SequenceOracle::KeyTag(const Slice& key) { return Hash64(key) | 1; }

SequenceNumber SequenceOracle::AssignSequence(int slot, bool multi_entry, uint64_t key_tag) {
  // The caller owns the slot (ClaimSlot) and has not published a sequence number in it yet.
  assert(slot >= 0 && slot < kSlots);
  assert(slots_[slot].value.load(std::memory_order_relaxed) == kClaimed);
  // release: FenceBelow reads the tag (acquire) after the sequence number published below. If the
  // slot was reused meanwhile, the tag it reads is a later owner's, and this release/acquire
  // pair then carries the previous owner's Release (which the later owner's claim acquired),
  // so the previous write's effects (its write stamps) are visible to the fence.
  slots_[slot].key_tag.store(key_tag, std::memory_order_release);
  if (multi_entry) {
    // seq_cst: raised before the slot shows the batch (see IsBatchInFlight).
    batches_in_flight_.fetch_add(1, std::memory_order_seq_cst);
  }
  for (;;) {
    const SequenceNumber seq = counter_.fetch_add(1, std::memory_order_seq_cst) + 1;
    assert((seq & ~kSeqMask) == 0);  // the write path refuses writes long before 2^56
    // seq_cst store, then seq_cst load of snapTime: Active.add(ts) happens before the check,
    // in the single total order shared with SnapshotSequence (cLSM getTS).
    slots_[slot].value.store(seq | (multi_entry ? kBatchBit : 0), std::memory_order_seq_cst);
    if (seq > snap_time_.load(std::memory_order_seq_cst)) return seq;
    // A snapshot already covers seq: take a newer sequence number.
  }
}

void SequenceOracle::Release(int slot, bool multi_entry) {
  assert(slot >= 0 && slot < kSlots);
  // A multi-entry write was published as a batch (and only then counted in flight).
  assert(!multi_entry || (slots_[slot].value.load(std::memory_order_relaxed) & kBatchBit) != 0);
  assert(slots_[slot].value.load(std::memory_order_relaxed) != kEmpty);
  // release: the write's effects happen-before a reader that sees the slot empty, and before
  // the next owner of the slot.
  slots_[slot].value.store(kEmpty, std::memory_order_seq_cst);
  if (multi_entry) batches_in_flight_.fetch_sub(1, std::memory_order_seq_cst);
}

void SequenceOracle::AnnounceSlow(SequenceNumber seq, SeenAnnounced* seen) {
  // seq_cst CAS to the maximum: a read point taken after it (seq_cst load) is at least seq. And
  // a write w below a value a reader loads is found in Active by that reader's slot scan
  // (WaitForWritesUpTo): w claimed its slot before drawing its number; its draw precedes, in
  // counter_'s order of read-modify-writes, the draw of the write whose number was announced
  // (or is it); that draw happens before the CAS here (the write's own, or that of a thread
  // that found its version, published with release and read with acquire), and the reader's
  // load reads from this CAS.
  // (The first load is seq_cst too: if it finds seq covered already, it stands for the
  // announcement: see SeenAnnounced.)
  SequenceNumber cur = announced_.load(std::memory_order_seq_cst);
  while (cur < seq && !announced_.compare_exchange_weak(cur, seq, std::memory_order_seq_cst)) {
  }
  *seen = {id_, std::max(cur, seq)};
}

void SequenceOracle::WaitAtGate(SequenceNumber seq) const {
  // The reader that closed the gate waits only for writes at or below it, never for this one.
  SpinWait([&] { return seq <= gate_.load(std::memory_order_seq_cst); });
}

SequenceNumber SequenceOracle::CloseGate() {
  // Closed for every write first (0), then set to the announced_ read after: a write that loads
  // the gate after the first store (seq_cst, so in the single total order) waits unless it is
  // <= g, and one that loaded it before may announce at any time (LinearizablePoint allows for
  // it). A write <= g held by the 0 meanwhile passes once g is stored, a moment later.
  SetGate(0);
  const SequenceNumber g = announced_.load(std::memory_order_seq_cst);
  SetGate(g);
  return g;
}

SequenceNumber SequenceOracle::MinActive() const {
  SequenceNumber min = kNoneActive;
  for (const Slot& s : slots_) {
    const uint64_t v = s.value.load(std::memory_order_seq_cst);
    if (v == kEmpty || v == kClaimed) continue;
    const SequenceNumber seq = v & kSeqMask;
    if (seq < min) min = seq;
  }
  return min;
}

void SequenceOracle::RaiseSnapTime(SequenceNumber ts) {
  SequenceNumber cur = snap_time_.load(std::memory_order_seq_cst);
  // seq_cst CAS: ordered against every writer's publish-then-check in AssignSequence.
  while (cur < ts && !snap_time_.compare_exchange_weak(cur, ts, std::memory_order_seq_cst)) {
  }
}

SequenceNumber SequenceOracle::SerializableSnapshot() {
  // cLSM getSnap: below every active sequence number...
  SequenceNumber ts = counter_.load(std::memory_order_seq_cst);
  const SequenceNumber min_active = MinActive();
  if (min_active != kNoneActive && min_active - 1 < ts) ts = min_active - 1;
  // ...never moving snapTime backwards...
  RaiseSnapTime(ts);
  const SequenceNumber cur = snap_time_.load(std::memory_order_seq_cst);
  const SequenceNumber snap = cur > ts ? cur : ts;
  // Snapshots never go backwards, and never past what was handed out.
  assert(snap >= ts && snap <= counter_.load(std::memory_order_seq_cst));
  // ...and waiting for writes at or below it that published before snapTime moved (they have
  // passed their check and will complete without retrying).
  WaitForWritesUpTo(snap);
  return snap;
}

SequenceNumber SequenceOracle::SnapshotSequence(bool linearizable) {
  if (!linearizable) return SerializableSnapshot();
  return LinearizablePoint([this](SequenceNumber cap, bool) {
    // Every write announced before now is <= target; a serializable snapshot has waited for
    // the writes at or below it, and one >= target is a proposal.
    const SequenceNumber target = std::min(cap, announced_.load(std::memory_order_seq_cst));
    for (SpinBackoff backoff;; backoff.Pause()) {
      const SequenceNumber snap = SerializableSnapshot();
      if (snap >= target) return snap;
    }
  });
}

template <typename Awaits>
void SequenceOracle::WaitForSlots(Awaits awaits) const {
  for (const Slot& s : slots_) {
    uint64_t v = s.value.load(std::memory_order_seq_cst);
    // A claimed slot may be about to show a sequence number drawn before the caller's (every
    // writer draws before it shows; one that skips the WAL does so without the log's lock):
    // wait until it shows one, or is given back. The wait is short: a claimed slot is either
    // drawing its number or waiting for a log's mutex, never for anything the caller holds.
    if (v == kClaimed) {
      SpinWait([&] { return (v = s.value.load(std::memory_order_seq_cst)) != kClaimed; });
    }
    if (v == kEmpty || !awaits(s, v)) continue;
    // Sequence numbers are unique, so a changed value means that write has left the slot.
    SpinWait([&] { return s.value.load(std::memory_order_seq_cst) != v; });
  }
}

void SequenceOracle::WaitForWritesUpTo(SequenceNumber seq) const {
  // Slot by slot, claimed slots included: a writer draws its number before it shows it, so a
  // write <= seq may still be claiming when we look. A scan's read point (DBImpl::PrepareScan)
  // has no snapTime handshake to push such a write above it; skipping its slot let an
  // iterator miss half of a batch that was inserted later below its read point.
  WaitForSlots([&](const Slot&, uint64_t v) { return (v & kSeqMask) <= seq; });
}

void SequenceOracle::FenceBelow(SequenceNumber ts, uint64_t key_tag) const {
  assert(ts > 0 && ts <= LastSequence());
  assert(key_tag != kAnyKey);  // a read-modify-write fences one key
  // Every write with a sequence number below ts is in Active when the scan reaches its slot: it
  // claimed the slot (seq_cst) before it drew the number, and drew it before our ts was drawn,
  // so the scan sees the slot claimed (and waits for the number to show, WaitForSlots) or
  // published. So, unlike a snapshot, the fence needs no snapTime handshake: scanning the
  // slots finds every write with a smaller sequence number still in flight.
  TEST_SYNC_POINT("SequenceOracle::FenceBelow:Begin");
  WaitForSlots([&](const Slot& s, uint64_t v) {
    if ((v & kSeqMask) >= ts) return false;
    // The tag read after v belongs to v's write unless the slot changed meanwhile: then that
    // write has finished, and waiting for the value to change returns at once.
    const uint64_t tag = s.key_tag.load(std::memory_order_acquire);
    return tag == kAnyKey || tag == key_tag;
  });
}

// Batches and linearizability. Reads hide the versions of a batch in flight, so a batch takes
// effect at its Release. A write with a larger sequence number that became visible before an
// earlier batch on the same key is released would contradict that: readers could see the newer
// write on that key, then the batch's absence on its other keys, although in sequence number order
// (which is the order of versions of a key) the batch comes first. Found by the linearizability
// test (tests/linearizability). So every write waits, before inserting, for the batches with
// smaller sequence numbers (their keys are not tracked, so all of them). A batch raises
// batches_in_flight_ before it draws its number, and the waiting write loads it after drawing
// its own (all seq_cst), so the load sees it raised; the batch's slot is then claimed or
// published, and WaitForSlots waits for the number to show.
void SequenceOracle::WaitForBatchesBelow(SequenceNumber ts) const {
  assert(ts > 0 && ts <= LastSequence());
  if (batches_in_flight_.load(std::memory_order_seq_cst) == 0) return;
  WaitForSlots(
      [&](const Slot&, uint64_t v) { return (v & kBatchBit) != 0 && (v & kSeqMask) < ts; });
}

bool SequenceOracle::IsBatchInFlight(SequenceNumber seq) const {
  // The version with this sequence number was found by the caller, so a batch that inserted it had
  // raised batches_in_flight_ before: seeing 0 means it has finished.
  if (batches_in_flight_.load(std::memory_order_seq_cst) == 0) return false;
  const uint64_t wanted = seq | kBatchBit;
  for (const Slot& s : slots_) {
    if (s.value.load(std::memory_order_seq_cst) == wanted) return true;
  }
  return false;
}

void SequenceOracle::WaitWhileBatchInFlight(SequenceNumber seq) const {
  SpinWait([&] { return !IsBatchInFlight(seq); });
}

void SequenceOracle::AdvanceTo(SequenceNumber seq) {
  // Recovery only: no write holds a slot.
  assert(MinActive() == kNoneActive);
  if (counter_.load(std::memory_order_relaxed) < seq) {
    counter_.store(seq, std::memory_order_seq_cst);
  }
  if (snap_time_.load(std::memory_order_relaxed) < seq) {
    snap_time_.store(seq, std::memory_order_seq_cst);
  }
  if (announced_.load(std::memory_order_relaxed) < seq) {
    announced_.store(seq, std::memory_order_seq_cst);
  }
}

}  // namespace sluice
