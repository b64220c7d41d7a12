// memory/adaptive/operation_mix.h — what the "adaptive" memory component observes about the
// operations reaching one memory component while it is the mutable one: how many point reads and
// scans, how long the scans were, how many reads came right after an insert (what a vector buffer
// would have had to sort for), and how varied the keys' prefixes are (how well a hash buffer
// would spread them over its buckets). adaptive_policy.h turns a snapshot of it into the
// representation of the next component.
//
// Every counter is a statistic that orders nothing: relaxed atomics, sharded where each
// operation bumps one (ShardedCounter), so observing does not make writers or readers contend.
// A Snapshot taken while operations run is approximate, which a choice of data structure
// tolerates.

#ifndef SLUICE_MEMORY_ADAPTIVE_OPERATION_MIX_H_
#define SLUICE_MEMORY_ADAPTIVE_OPERATION_MIX_H_

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>

#include "sluice/slice.h"
#include "util/sharded_counter.h"

namespace sluice {

// The counts a policy decides from (plain values).
struct MixSnapshot {
  uint64_t inserts = 0;             // versions added
  uint64_t point_reads = 0;         // Get calls
  uint64_t scans = 0;               // iterator positionings (Seek, SeekToFirst, ...)
  uint64_t scan_steps = 0;          // Next/Prev calls on those iterators
  uint64_t reads_after_insert = 0;  // reads (point or scan) with an insert since the last read
  uint64_t prefix_samples = 0;      // inserts whose prefix was sampled
  uint64_t distinct_prefixes = 0;   // distinct prefixes among the samples (capped)
  bool prefix_sample_full = false;  // the sample set filled up: at least that many prefixes
};

class OperationMix {
 public:
  // One insert in kPrefixSampleEvery (chosen by sequence number) has its prefix sampled.
  static constexpr uint64_t kPrefixSampleEvery = 64;
  // Slots of the distinct-prefix set; sampling stops adding once kMaxDistinct are in it.
  static constexpr size_t kPrefixSlots = 1024;
  static constexpr uint64_t kMaxDistinct = kPrefixSlots * 3 / 4;

  explicit OperationMix(size_t prefix_length) : prefix_length_(prefix_length) {}
  OperationMix(const OperationMix&) = delete;
  OperationMix& operator=(const OperationMix&) = delete;

  void RecordInsert(uint64_t seq, const Slice& user_key);
  void RecordPointRead() {
    point_reads_.Add();
    NoteRead();
  }
  // One iterator's work, recorded once when it is destroyed.
  void RecordScans(uint64_t positionings, uint64_t steps) {
    if (positionings == 0 && steps == 0) return;
    scans_.fetch_add(positionings, std::memory_order_relaxed);
    scan_steps_.fetch_add(steps, std::memory_order_relaxed);
  }
  // An iterator positioned itself: a read (it sees what was inserted before it).
  void NoteRead() {
    // Writers set dirty_ only when it is clear, so readers and writers share the line mostly
    // for reading; the exchange makes one reader count each insert-then-read transition.
    if (dirty_.load(std::memory_order_relaxed) &&
        dirty_.exchange(false, std::memory_order_relaxed)) {
      reads_after_insert_.fetch_add(1, std::memory_order_relaxed);
    }
  }

  MixSnapshot Snapshot() const;

  // How full the component is (its bytes over its budget), as last noted by the component;
  // 0 if never noted. A policy scales a partly filled component's counts up to a full one.
  void NoteFill(double fraction) {
    fill_permille_.store(static_cast<uint32_t>(fraction * 1000), std::memory_order_relaxed);
  }
  double Fill() const {
    return static_cast<double>(fill_permille_.load(std::memory_order_relaxed)) / 1000;
  }

 private:
  const size_t prefix_length_;
  ShardedCounter inserts_;
  ShardedCounter point_reads_;
  std::atomic<uint64_t> scans_{0};
  std::atomic<uint64_t> scan_steps_{0};
  std::atomic<uint64_t> reads_after_insert_{0};
  alignas(64) std::atomic<bool> dirty_{false};
  std::atomic<uint32_t> fill_permille_{0};
  std::atomic<uint64_t> prefix_samples_{0};
  std::atomic<uint64_t> distinct_prefixes_{0};
  // Hashes of sampled prefixes (0: empty slot), open addressing.
  std::array<std::atomic<uint64_t>, kPrefixSlots> prefix_set_{};
};

}  // namespace sluice

#endif  // SLUICE_MEMORY_ADAPTIVE_OPERATION_MIX_H_
