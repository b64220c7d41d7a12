// Tests of ThreadSlot and of the counters and caches built on it: live threads never share a
// slot, slots of exited threads are handed out again, and a ShardedCounter bumped by more
// threads than it has owned shards (some on the shared overflow shard), in waves whose threads
// inherit the slots of the previous wave, loses no add.

#include "util/thread_slot.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <latch>
#include <set>
#include <thread>
#include <vector>

#include "util/sharded_counter.h"

namespace sluice {

namespace {

// Runs fn(i) on n threads that are all alive at once while fn runs (each waits for the others
// before calling it, and none exits before all have called it).
template <typename Fn>
void RunTogether(int n, Fn fn) {
  std::latch started(n), finished(n);
  std::vector<std::thread> threads;
  for (int i = 0; i < n; i++) {
    threads.emplace_back([&, i] {
      started.arrive_and_wait();
      fn(i);
      finished.arrive_and_wait();
    });
  }
  for (auto& t : threads) t.join();
}

}  // namespace

TEST(ThreadSlot, LiveThreadsHoldDistinctSlots) {
  constexpr int kThreads = 40;
  std::vector<uint32_t> slots(kThreads);
  RunTogether(kThreads, [&](int i) {
    slots[i] = ThreadSlot();
    EXPECT_EQ(slots[i], ThreadSlot());  // stable for the thread's life
  });
  EXPECT_EQ(static_cast<size_t>(kThreads), std::set<uint32_t>(slots.begin(), slots.end()).size());
  for (uint32_t s : slots) EXPECT_LT(s, kMaxThreadSlots);
}

TEST(ThreadSlot, SlotsOfExitedThreadsAreReused) {
  constexpr int kThreads = 24;
  std::vector<uint32_t> first(kThreads);
  RunTogether(kThreads, [&](int i) { first[i] = ThreadSlot(); });
  // All of those have exited: the next thread gets one of the returned slots (lowest first),
  // not a new one above them.
  uint32_t next = kNoThreadSlot;
  std::thread([&] { next = ThreadSlot(); }).join();
  EXPECT_LE(next, *std::max_element(first.begin(), first.end()));
}

TEST(ShardedCounter, ManyThreadsInWavesLoseNoAdd) {
  ShardedCounter counter;
  constexpr int kWaves = 3, kThreads = 40, kAdds = 200000;
  for (int wave = 0; wave < kWaves; wave++) {
    RunTogether(kThreads, [&](int i) {
      for (int a = 0; a < kAdds; a++) counter.Add(static_cast<uint64_t>(1 + (i % 3)));
    });
  }
  uint64_t expected = 0;
  for (int i = 0; i < kThreads; i++) expected += static_cast<uint64_t>(kAdds) * (1 + (i % 3));
  EXPECT_EQ(expected * kWaves, counter.Get());
}

}  // namespace sluice
