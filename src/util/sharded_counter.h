// util/sharded_counter.h — a statistics counter that many threads bump without contending and
// without a locked instruction: each of the first kShards thread slots (util/thread_slot.h) owns
// a cache-line-sized shard and adds to it with a plain load and store; other threads share an
// overflow shard, with an atomic add. Readers sum the shards. Relaxed: counters order nothing,
// and a read is a consistent-enough total.
//
// Invariant: a shard below kShards is written only by the live owner of its thread slot (the
// slot's hand-over orders one owner's stores before the next one's), so no add is lost.

#ifndef SLUICE_UTIL_SHARDED_COUNTER_H_
#define SLUICE_UTIL_SHARDED_COUNTER_H_

#include <atomic>
#include <cstdint>

#include "util/cpu.h"
#include "util/thread_slot.h"

namespace sluice {

class ShardedCounter {
 public:
  void Add(uint64_t n = 1) {
    const uint32_t i = OwnedOrSharedIndex(kShards);
    AddToOwnedOrShared(&shards_[i].value, i, kShards, n, std::memory_order_relaxed);
  }
  uint64_t Get() const {
    uint64_t sum = 0;
    for (const Shard& s : shards_) sum += s.value.load(std::memory_order_relaxed);
    return sum;
  }

 private:
  static constexpr uint32_t kShards = 16;
  struct alignas(kCacheLineSize) Shard {
    std::atomic<uint64_t> value{0};
  };
  Shard shards_[kShards + 1];  // the last: threads without a shard of their own
};

}  // namespace sluice

#endif  // SLUICE_UTIL_SHARDED_COUNTER_H_
