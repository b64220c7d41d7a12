// util/sharded_counter.h — a statistics counter that many threads bump without contending:
// each thread adds to one of a few cache-line-sized shards (by ThreadIndex), and readers sum
// them. Relaxed: counters order nothing, and a read is a consistent-enough total.

#ifndef SLUICE_UTIL_SHARDED_COUNTER_H_
#define SLUICE_UTIL_SHARDED_COUNTER_H_

#include <atomic>
#include <cstdint>

#include "util/cpu.h"

namespace sluice {

class ShardedCounter {
 public:
  void Add(uint64_t n = 1) {
    shards_[ThreadIndex() % kShards].value.fetch_add(n, std::memory_order_relaxed);
  }
  uint64_t Get() const {
    uint64_t sum = 0;
    for (const Shard& s : shards_) sum += s.value.load(std::memory_order_relaxed);
    return sum;
  }

 private:
  static constexpr int kShards = 8;
  struct alignas(kCacheLineSize) Shard {
    std::atomic<uint64_t> value{0};
  };
  Shard shards_[kShards];
};

}  // namespace sluice

#endif  // SLUICE_UTIL_SHARDED_COUNTER_H_
