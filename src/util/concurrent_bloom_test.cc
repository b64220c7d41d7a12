// Tests of util/concurrent_bloom: no false negatives (also while threads add and probe at once,
// under ThreadSanitizer), a false-positive rate near a blocked Bloom filter's at 16 bits per
// key, and the zero-byte filter that answers "maybe" to everything.

#include "util/concurrent_bloom.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

#include "util/hash.h"

namespace sluice {

namespace {

uint64_t HashOf(uint64_t i) {
  char buf[8];
  for (int b = 0; b < 8; b++) buf[b] = static_cast<char>(i >> (8 * b));
  return Hash64(buf, sizeof(buf));
}

}  // namespace

TEST(ConcurrentBloom, EveryAddedHashIsFoundAndFewOthersAre) {
  constexpr uint64_t kKeys = 100000;
  ConcurrentBloom bloom(kKeys * 2);  // 16 bits per key
  for (uint64_t i = 0; i < kKeys; i++) bloom.Add(HashOf(i));
  for (uint64_t i = 0; i < kKeys; i++) ASSERT_TRUE(bloom.MayContain(HashOf(i))) << i;
  uint64_t false_positives = 0;
  for (uint64_t i = kKeys; i < 2 * kKeys; i++) false_positives += bloom.MayContain(HashOf(i));
  // A blocked filter with 6 probes at 16 bits per key: about 0.1% (a flat one: 0.05%).
  EXPECT_LT(false_positives, kKeys / 200) << false_positives;
  EXPECT_GT(bloom.MemoryUsage(), 0u);
}

TEST(ConcurrentBloom, AnEmptyFilterFindsNothingAndAZeroByteOneFindsEverything) {
  ConcurrentBloom empty(1 << 16);
  ConcurrentBloom none(0);
  int found = 0;
  for (uint64_t i = 0; i < 1000; i++) {
    found += empty.MayContain(HashOf(i));
    EXPECT_TRUE(none.MayContain(HashOf(i)));
  }
  EXPECT_EQ(0, found);
  none.Add(HashOf(1));  // does nothing, safely
  EXPECT_EQ(0u, none.MemoryUsage());
}

TEST(ConcurrentBloom, OneLineFilterStillHasNoFalseNegatives) {
  ConcurrentBloom tiny(1);  // rounded up to one 64-byte line
  EXPECT_EQ(64u, tiny.MemoryUsage());
  for (uint64_t i = 0; i < 20; i++) tiny.Add(HashOf(i));
  for (uint64_t i = 0; i < 20; i++) EXPECT_TRUE(tiny.MayContain(HashOf(i)));
}

// Writers add disjoint ranges and publish how far they got with a release store; readers
// acquire that and probe everything below it: never a false negative.
TEST(ConcurrentBloom, ConcurrentAddersAndProbersSeeNoFalseNegatives) {
  constexpr int kWriters = 2;
  constexpr uint64_t kPerWriter = 50000;
  ConcurrentBloom bloom(1 << 16);  // small: writers share lines and words
  std::atomic<uint64_t> done[kWriters] = {};
  std::atomic<bool> stop{false};
  std::atomic<uint64_t> misses{0};
  std::vector<std::thread> threads;
  for (int w = 0; w < kWriters; w++) {
    threads.emplace_back([&, w] {
      for (uint64_t i = 0; i < kPerWriter; i++) {
        bloom.Add(HashOf(w * kPerWriter + i));
        done[w].store(i + 1, std::memory_order_release);
      }
    });
  }
  threads.emplace_back([&] {
    uint64_t rounds = 0;
    while (!stop.load(std::memory_order_relaxed) || rounds++ < 2) {
      for (int w = 0; w < kWriters; w++) {
        const uint64_t n = done[w].load(std::memory_order_acquire);
        for (uint64_t i = n > 500 ? n - 500 : 0; i < n; i++) {
          if (!bloom.MayContain(HashOf(w * kPerWriter + i))) misses.fetch_add(1);
        }
      }
    }
  });
  for (int w = 0; w < kWriters; w++) threads[w].join();
  stop.store(true);
  threads.back().join();
  EXPECT_EQ(0u, misses.load());
  for (uint64_t i = 0; i < kWriters * kPerWriter; i++) ASSERT_TRUE(bloom.MayContain(HashOf(i)));
}

}  // namespace sluice
