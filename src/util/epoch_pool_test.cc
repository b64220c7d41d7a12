// Tests of EpochPool: records of every size class and heap records, reuse of freed and retired
// records, and the guarantee the pool exists for: a retired record is not handed out again
// while a reader that was inside an epoch section at its retirement is still inside. The last
// test reads the record from that reader after the pool has churned through many batches; were
// the record recycled early (the grace period skipped), it would be poisoned under ASan and
// overwritten otherwise, and the test fails either way.

#include "util/epoch_pool.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <cstring>
#include <latch>
#include <set>
#include <thread>
#include <vector>

#include "util/epoch.h"
#include "util/huge_pages.h"

namespace sluice {

namespace {

constexpr size_t kBlock = 64 << 10;

}  // namespace

TEST(EpochPool, RecordsAreAlignedDistinctAndWritable) {
  EpochPool pool(kBlock);
  std::set<uintptr_t> seen;
  std::vector<std::pair<void*, size_t>> records;
  for (size_t size : {1u, 15u, 16u, 17u, 100u, 296u, 2047u, 2048u, 2049u, 100000u}) {
    for (int i = 0; i < 50; i++) {
      void* p = pool.Allocate(size);
      ASSERT_EQ(0u, reinterpret_cast<uintptr_t>(p) % EpochPool::kAlignment) << size;
      ASSERT_TRUE(seen.insert(reinterpret_cast<uintptr_t>(p)).second) << size;
      std::memset(p, 0xab, size);
      records.emplace_back(p, size);
    }
  }
  EXPECT_GE(pool.MemoryUsage(), 100000u * 50);  // heap records are counted
  for (auto [p, size] : records) pool.Free(p, size);
}

TEST(EpochPool, FreedRecordIsReusedAtOnce) {
  EpochPool pool(kBlock);
  void* p = pool.Allocate(300);
  pool.Free(p, 300);
  EXPECT_EQ(p, pool.Allocate(290));  // the same size class (304 bytes)
}

TEST(EpochPool, RetiredRecordsAreReusedAfterTheGracePeriod) {
  EpochPool pool(kBlock);
  std::set<void*> retired;
  for (size_t i = 0; i < 4 * EpochPool::kRetireBatch; i++) {
    void* p = pool.Allocate(300);
    retired.insert(p);
    pool.Retire(p, 300);
  }
  const size_t usage = pool.MemoryUsage();
  epoch::DrainAll();  // every full batch's grace period has passed and its records are free
  size_t reused = 0;
  for (size_t i = 0; i < 4 * EpochPool::kRetireBatch; i++) {
    if (retired.count(pool.Allocate(300)) != 0) reused++;
  }
  EXPECT_EQ(4 * EpochPool::kRetireBatch, reused);
  EXPECT_EQ(usage, pool.MemoryUsage());  // no new block was needed
}

// block_size: kBlock (blocks from operator new[]) or a multiple of 2 MB (blocks mapped on huge
// pages, util/huge_pages.h): the guarantee must not depend on where the blocks come from.
void CheckRecordIsNotReusedWhileAReaderThatSawItIsInside(size_t block_size) {
  EpochPool pool(block_size);
  constexpr size_t kSize = 300;
  auto* record = static_cast<char*>(pool.Allocate(kSize));
  std::memset(record, 'r', kSize);

  std::atomic<int> step{0};
  std::atomic<bool> intact{false};
  std::thread reader([&] {
    epoch::Guard section;  // entered before the record is retired
    step.store(1);
    while (step.load() != 2) std::this_thread::yield();
    // The record was retired long ago and the pool has recycled thousands of others since.
    bool same = true;
    for (size_t i = 0; i < kSize; i++) same = same && record[i] == 'r';
    intact.store(same);
  });
  while (step.load() != 1) std::this_thread::yield();

  pool.Retire(record, kSize);
  // Churn: many batches retired and handed back while the reader stays inside. The reader holds
  // the global epoch back, so none of them may come back either; every allocation must be a
  // fresh record, never the one the reader holds. (On failure the loop goes on, so that the
  // reader still reads: under ASan that read is the report.)
  bool handed_out = false;
  for (int round = 0; round < 20; round++) {
    std::vector<char*> batch;
    for (size_t i = 0; i < EpochPool::kRetireBatch; i++) {
      auto* p = static_cast<char*>(pool.Allocate(kSize));
      handed_out = handed_out || p == record;
      std::memset(p, 'x', kSize);
      batch.push_back(p);
    }
    for (char* p : batch) pool.Retire(p, kSize);
  }
  step.store(2);
  reader.join();
  EXPECT_FALSE(handed_out) << "a retired record was reused while a reader that saw it was inside";
  EXPECT_TRUE(intact.load());

  // Once the reader has left, the record comes back.
  epoch::DrainAll();
  bool reused = false;
  for (size_t i = 0; i < 40 * EpochPool::kRetireBatch && !reused; i++) {
    reused = pool.Allocate(kSize) == record;
  }
  EXPECT_TRUE(reused);
}

TEST(EpochPool, RecordIsNotReusedWhileAReaderThatSawItIsInside) {
  CheckRecordIsNotReusedWhileAReaderThatSawItIsInside(kBlock);
}

TEST(EpochPool, RecordOnHugePagesIsNotReusedWhileAReaderThatSawItIsInside) {
  CheckRecordIsNotReusedWhileAReaderThatSawItIsInside(kHugePageSize);
}

// threads threads, all alive at once, allocate and retire records of mixed sizes, each checking
// that nobody else wrote into a record it holds.
void AllocateAndRetireConcurrently(int threads, int records_per_thread) {
  EpochPool pool(kBlock);
  std::vector<std::thread> workers;
  std::atomic<int> errors{0};
  std::latch started(threads);
  for (int t = 0; t < threads; t++) {
    workers.emplace_back([&, t] {
      started.arrive_and_wait();
      std::vector<std::pair<uint64_t*, size_t>> mine;
      for (int i = 0; i < records_per_thread; i++) {
        const size_t size = 16 + static_cast<size_t>((i * 37 + t) % 600);
        auto* p = static_cast<uint64_t*>(pool.Allocate(size));
        p[0] = static_cast<uint64_t>(t) << 32 | static_cast<uint64_t>(i);
        mine.emplace_back(p, size);
        if (mine.size() > 64) {
          // Nobody else wrote into a record this thread owns.
          auto [q, qsize] = mine.front();
          const uint64_t tag = q[0];
          if ((tag >> 32) != static_cast<uint64_t>(t)) errors++;
          pool.Retire(q, qsize);
          mine.erase(mine.begin());
        }
      }
      for (auto [q, qsize] : mine) pool.Retire(q, qsize);
    });
  }
  for (auto& th : workers) th.join();
  EXPECT_EQ(0, errors.load());
  epoch::DrainAll();
}

TEST(EpochPool, ConcurrentAllocateAndRetire) { AllocateAndRetireConcurrently(4, 20000); }

// More threads than owned caches: some share the locked one.
TEST(EpochPool, MoreThreadsThanCachesShareTheLastOne) {
  AllocateAndRetireConcurrently(EpochPool::kCaches + 8, 5000);
}

}  // namespace sluice
