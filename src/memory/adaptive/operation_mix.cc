// memory/adaptive/operation_mix.cc — the adaptive component's observations (see operation_mix.h).

#include "memory/adaptive/operation_mix.h"

#include <algorithm>

#include "util/hash.h"

namespace sluice {

void OperationMix::RecordInsert(uint64_t seq, const Slice& user_key) {
  inserts_.Add();
  // Relaxed load first: the line is written only on an insert that follows a read.
  if (!dirty_.load(std::memory_order_relaxed)) dirty_.store(true, std::memory_order_relaxed);
  if (seq % kPrefixSampleEvery != 0) return;
  prefix_samples_.fetch_add(1, std::memory_order_relaxed);
  if (distinct_prefixes_.load(std::memory_order_relaxed) >= kMaxDistinct) return;
  const Slice prefix(user_key.data(), std::min(user_key.size(), prefix_length_));
  // 0 marks an empty slot, so a prefix hashing to 0 is recorded as 1.
  const uint64_t h = std::max<uint64_t>(Hash64(prefix), 1);
  for (size_t i = 0; i < kPrefixSlots; i++) {
    std::atomic<uint64_t>& slot = prefix_set_[(h + i) % kPrefixSlots];
    uint64_t seen = slot.load(std::memory_order_relaxed);
    if (seen == 0) {
      // The CAS decides which of two samplers of different prefixes takes the slot; the loser
      // re-reads it (it may hold the loser's own prefix).
      if (slot.compare_exchange_strong(seen, h, std::memory_order_relaxed)) {
        distinct_prefixes_.fetch_add(1, std::memory_order_relaxed);
        return;
      }
    }
    if (seen == h) return;
  }
}

MixSnapshot OperationMix::Snapshot() const {
  MixSnapshot m;
  m.inserts = inserts_.Get();
  m.point_reads = point_reads_.Get();
  m.scans = scans_.load(std::memory_order_relaxed);
  m.scan_steps = scan_steps_.load(std::memory_order_relaxed);
  m.reads_after_insert = reads_after_insert_.load(std::memory_order_relaxed);
  m.prefix_samples = prefix_samples_.load(std::memory_order_relaxed);
  m.distinct_prefixes = distinct_prefixes_.load(std::memory_order_relaxed);
  m.prefix_sample_full = m.distinct_prefixes >= kMaxDistinct;
  return m;
}

}  // namespace sluice
