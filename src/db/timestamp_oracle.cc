// db/timestamp_oracle.cc — see timestamp_oracle.h for the protocol and its invariants.

#include "db/timestamp_oracle.h"

#include <thread>

namespace sluice {

TimestampOracle::TimestampOracle(SequenceNumber last_sequence)
    : counter_(last_sequence), snap_time_(0) {}

int TimestampOracle::ClaimSlot() {
  const int start = static_cast<int>(ThreadIndex() % kSlots);
  for (int round = 0;; round++) {
    for (int i = 0; i < kSlots; i++) {
      const int s = (start + i) % kSlots;
      uint64_t expected = kEmpty;
      // acquire: pairs with the release in Release(), so the previous owner is done with it.
      if (slots_[s].value.load(std::memory_order_relaxed) == kEmpty &&
          slots_[s].value.compare_exchange_strong(expected, kClaimed, std::memory_order_acquire)) {
        return s;
      }
    }
    if (round < 16) {
      CpuRelax();
    } else {
      std::this_thread::yield();
    }
  }
}

SequenceNumber TimestampOracle::AssignSequence(int slot, bool multi_entry) {
  if (multi_entry) {
    // seq_cst: raised before the slot shows the batch (see IsBatchInFlight).
    batches_in_flight_.fetch_add(1, std::memory_order_seq_cst);
  }
  for (;;) {
    const SequenceNumber seq = counter_.fetch_add(1, std::memory_order_seq_cst) + 1;
    // seq_cst store, then seq_cst load of snapTime: Active.add(ts) happens before the check,
    // in the single total order shared with SnapshotSequence (cLSM getTS).
    slots_[slot].value.store(seq | (multi_entry ? kBatchBit : 0), std::memory_order_seq_cst);
    if (seq > snap_time_.load(std::memory_order_seq_cst)) return seq;
    // A snapshot already covers seq: take a newer timestamp.
  }
}

void TimestampOracle::Release(int slot, bool multi_entry) {
  // release: the write's effects happen-before a reader that sees the slot empty, and before
  // the next owner of the slot.
  slots_[slot].value.store(kEmpty, std::memory_order_seq_cst);
  if (multi_entry) batches_in_flight_.fetch_sub(1, std::memory_order_seq_cst);
}

SequenceNumber TimestampOracle::MinActive() const {
  SequenceNumber min = kNoneActive;
  for (const Slot& s : slots_) {
    const uint64_t v = s.value.load(std::memory_order_seq_cst);
    if (v == kEmpty || v == kClaimed) continue;
    const SequenceNumber seq = v & kSeqMask;
    if (seq < min) min = seq;
  }
  return min;
}

SequenceNumber TimestampOracle::SerializableSnapshot() {
  // cLSM getSnap: below every active timestamp...
  SequenceNumber ts = counter_.load(std::memory_order_seq_cst);
  const SequenceNumber min_active = MinActive();
  if (min_active != kNoneActive && min_active - 1 < ts) ts = min_active - 1;
  // ...never moving snapTime backwards...
  SequenceNumber cur = snap_time_.load(std::memory_order_seq_cst);
  while (cur < ts && !snap_time_.compare_exchange_weak(cur, ts, std::memory_order_seq_cst)) {
  }
  const SequenceNumber snap = cur > ts ? cur : ts;
  // ...and waiting for writes at or below it that published before snapTime moved (they have
  // passed their check and will complete without retrying).
  for (int spins = 0; MinActive() <= snap; spins++) {
    if (spins < 64) {
      CpuRelax();
    } else {
      std::this_thread::yield();
    }
  }
  return snap;
}

SequenceNumber TimestampOracle::SnapshotSequence(bool linearizable) {
  if (!linearizable) return SerializableSnapshot();
  // Every write that started before this call has a timestamp <= target.
  const SequenceNumber target = counter_.load(std::memory_order_seq_cst);
  for (int spins = 0;; spins++) {
    const SequenceNumber snap = SerializableSnapshot();
    if (snap >= target) return snap;
    if (spins < 64) {
      CpuRelax();
    } else {
      std::this_thread::yield();
    }
  }
}

void TimestampOracle::WaitForWritesUpTo(SequenceNumber seq) const {
  for (int spins = 0; MinActive() <= seq; spins++) {
    if (spins < 64) {
      CpuRelax();
    } else {
      std::this_thread::yield();
    }
  }
}

bool TimestampOracle::IsBatchInFlight(SequenceNumber seq) const {
  // The version with this timestamp was found by the caller, so a batch that inserted it had
  // raised batches_in_flight_ before: seeing 0 means it has finished.
  if (batches_in_flight_.load(std::memory_order_seq_cst) == 0) return false;
  const uint64_t wanted = seq | kBatchBit;
  for (const Slot& s : slots_) {
    if (s.value.load(std::memory_order_seq_cst) == wanted) return true;
  }
  return false;
}

void TimestampOracle::AdvanceTo(SequenceNumber seq) {
  if (counter_.load(std::memory_order_relaxed) < seq) {
    counter_.store(seq, std::memory_order_seq_cst);
  }
  if (snap_time_.load(std::memory_order_relaxed) < seq) {
    snap_time_.store(seq, std::memory_order_seq_cst);
  }
}

}  // namespace sluice
