// Tests of util/arena: alignment, that allocations never overlap (also across threads), and
// that memory accounting covers what was handed out.

#include "util/arena.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <thread>
#include <vector>

#include "util/random.h"

namespace sluice {

TEST(ConcurrentArena, AllocationsAreAlignedAndDisjoint) {
  ConcurrentArena arena(64 << 10);
  Random rnd(301);
  std::vector<std::pair<char*, size_t>> allocs;
  size_t total = 0;
  for (int i = 0; i < 20000; i++) {
    size_t n = i % 100 == 0 ? rnd.Uniform(40000) + 1 : rnd.Uniform(200) + 1;
    char* p = arena.Allocate(n);
    ASSERT_EQ(0u, reinterpret_cast<uintptr_t>(p) % 8);
    std::memset(p, i % 256, n);
    allocs.emplace_back(p, n);
    total += n;
  }
  for (size_t i = 0; i < allocs.size(); i++) {
    for (size_t b = 0; b < allocs[i].second; b++) {
      ASSERT_EQ(static_cast<char>(i % 256), allocs[i].first[b]) << i;
    }
  }
  EXPECT_GE(arena.MemoryUsage(), total);
  EXPECT_LE(arena.MemoryUsage(), total * 2 + (1 << 20));
}

TEST(ConcurrentArena, ConcurrentAllocationsDoNotOverlap) {
  ConcurrentArena arena(256 << 10);
  constexpr int kThreads = 4, kPerThread = 20000;
  std::vector<std::vector<std::pair<char*, size_t>>> per_thread(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; t++) {
    threads.emplace_back([&, t] {
      Random rnd(t + 1);
      for (int i = 0; i < kPerThread; i++) {
        size_t n = rnd.Uniform(64) + 1;
        char* p = arena.Allocate(n);
        std::memset(p, t, n);
        per_thread[t].emplace_back(p, n);
      }
    });
  }
  for (auto& th : threads) th.join();
  std::vector<std::pair<char*, size_t>> all;
  for (int t = 0; t < kThreads; t++) {
    for (auto& a : per_thread[t]) {
      for (size_t b = 0; b < a.second; b++) ASSERT_EQ(static_cast<char>(t), a.first[b]);
      all.push_back(a);
    }
  }
  std::sort(all.begin(), all.end());
  for (size_t i = 1; i < all.size(); i++) {
    ASSERT_LE(all[i - 1].first + all[i - 1].second, all[i].first);
  }
}

}  // namespace sluice
