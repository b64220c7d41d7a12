// Tests of util/cache: LRU eviction order, reference counting (a referenced entry is never
// freed; an erased or replaced one is freed on its last release), capacity edge cases, the
// hit/miss counters and concurrent use from several threads (also run under ThreadSanitizer).

#include "util/cache.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "util/coding.h"
#include "util/random.h"

namespace sluice {

namespace {

// Values are heap ints; every deletion is recorded (key -> value) so tests can check exactly
// which entries were freed and when.
class CacheTest : public ::testing::Test {
 protected:
  static CacheTest* current;

  CacheTest() { current = this; }
  ~CacheTest() override {
    cache_.reset();  // its deleters record into deleted_
    current = nullptr;
  }

  static void Deleter(const Slice& key, void* value) {
    auto* v = static_cast<int*>(value);
    current->deleted_.emplace_back(DecodeKey(key), *v);
    delete v;
  }

  static std::string EncodeKey(int k) {
    std::string s;
    PutFixed32(&s, static_cast<uint32_t>(k));
    return s;
  }
  static int DecodeKey(const Slice& k) {
    EXPECT_EQ(4u, k.size());
    return static_cast<int>(DecodeFixed32(k.data()));
  }

  // Value of key, or -1 if absent.
  int Lookup(int key) {
    Cache::Handle* h = cache_->Lookup(EncodeKey(key));
    if (h == nullptr) return -1;
    const int v = *static_cast<int*>(cache_->Value(h));
    cache_->Release(h);
    return v;
  }
  void Insert(int key, int value, size_t charge = 1) {
    cache_->Release(InsertAndHold(key, value, charge));
  }
  Cache::Handle* InsertAndHold(int key, int value, size_t charge = 1) {
    return cache_->Insert(EncodeKey(key), new int(value), charge, &CacheTest::Deleter);
  }
  void Erase(int key) { cache_->Erase(EncodeKey(key)); }
  bool WasDeleted(int key, int value) const {
    for (const auto& [k, v] : deleted_) {
      if (k == key && v == value) return true;
    }
    return false;
  }

  std::shared_ptr<Cache> cache_ = NewLRUCache(100, 0);  // one shard: exact LRU order
  std::vector<std::pair<int, int>> deleted_;
};

CacheTest* CacheTest::current = nullptr;

}  // namespace

TEST_F(CacheTest, LookupFindsInsertedValuesAndMissesOthers) {
  EXPECT_EQ(-1, Lookup(100));
  Insert(100, 101);
  EXPECT_EQ(101, Lookup(100));
  EXPECT_EQ(-1, Lookup(200));
  Insert(200, 201);
  EXPECT_EQ(101, Lookup(100));
  EXPECT_EQ(201, Lookup(200));
  EXPECT_TRUE(deleted_.empty());
}

TEST_F(CacheTest, InsertReplacesExistingEntryAndDeletesOldValue) {
  Insert(1, 10);
  Insert(1, 11);
  EXPECT_EQ(11, Lookup(1));
  ASSERT_EQ(1u, deleted_.size());
  EXPECT_TRUE(WasDeleted(1, 10));
  EXPECT_EQ(1u, cache_->TotalCharge());
}

TEST_F(CacheTest, ReplacedEntryStaysAliveWhileReferenced) {
  Cache::Handle* old = InsertAndHold(1, 10);
  Insert(1, 11);
  EXPECT_TRUE(deleted_.empty());
  EXPECT_EQ(10, *static_cast<int*>(cache_->Value(old)));
  EXPECT_EQ(11, Lookup(1));
  cache_->Release(old);
  ASSERT_EQ(1u, deleted_.size());
  EXPECT_TRUE(WasDeleted(1, 10));
}

TEST_F(CacheTest, EraseRemovesEntry) {
  Erase(7);  // absent: no effect
  Insert(7, 70);
  Insert(8, 80);
  Erase(7);
  EXPECT_EQ(-1, Lookup(7));
  EXPECT_EQ(80, Lookup(8));
  ASSERT_EQ(1u, deleted_.size());
  EXPECT_TRUE(WasDeleted(7, 70));
  EXPECT_EQ(1u, cache_->TotalCharge());
}

TEST_F(CacheTest, EraseWhileReferencedDefersDeletionToLastRelease) {
  Cache::Handle* h1 = InsertAndHold(5, 50);
  Cache::Handle* h2 = cache_->Lookup(EncodeKey(5));
  ASSERT_NE(nullptr, h2);
  Erase(5);
  EXPECT_EQ(-1, Lookup(5));
  EXPECT_EQ(0u, cache_->TotalCharge());
  EXPECT_TRUE(deleted_.empty());
  cache_->Release(h1);
  EXPECT_TRUE(deleted_.empty());
  EXPECT_EQ(50, *static_cast<int*>(cache_->Value(h2)));
  cache_->Release(h2);
  ASSERT_EQ(1u, deleted_.size());
  EXPECT_TRUE(WasDeleted(5, 50));
}

TEST_F(CacheTest, EvictsLeastRecentlyUsedFirst) {
  for (int i = 0; i < 100; i++) Insert(i, i * 10);  // exactly full
  EXPECT_EQ(100u, cache_->TotalCharge());
  EXPECT_EQ(0, Lookup(0));  // 0 becomes the most recently used
  Insert(1000, 1);          // evicts 1, the oldest unused
  EXPECT_EQ(-1, Lookup(1));
  EXPECT_EQ(0, Lookup(0));
  EXPECT_EQ(20, Lookup(2));
  Insert(1001, 2);  // evicts 3
  EXPECT_EQ(-1, Lookup(3));
  EXPECT_EQ(40, Lookup(4));
  ASSERT_EQ(2u, deleted_.size());
  EXPECT_TRUE(WasDeleted(1, 10));
  EXPECT_TRUE(WasDeleted(3, 30));
  EXPECT_EQ(100u, cache_->TotalCharge());
}

TEST_F(CacheTest, ReferencedEntriesAreNeverEvicted) {
  Cache::Handle* pinned = InsertAndHold(1, 11);
  for (int i = 100; i < 1000; i++) Insert(i, i);
  EXPECT_EQ(11, *static_cast<int*>(cache_->Value(pinned)));
  EXPECT_EQ(11, Lookup(1));
  EXPECT_FALSE(WasDeleted(1, 11));
  cache_->Release(pinned);
  EXPECT_LE(cache_->TotalCharge(), 100u);
}

TEST_F(CacheTest, ChargesAreAccountedAgainstCapacity) {
  Insert(1, 1, 60);
  Insert(2, 2, 30);
  EXPECT_EQ(90u, cache_->TotalCharge());
  Insert(3, 3, 20);  // 110 > 100: evicts 1
  EXPECT_EQ(-1, Lookup(1));
  EXPECT_EQ(2, Lookup(2));
  EXPECT_EQ(3, Lookup(3));
  EXPECT_EQ(50u, cache_->TotalCharge());
  EXPECT_EQ(100u, cache_->Capacity());
}

TEST_F(CacheTest, EntryLargerThanCapacityIsUsableThenEvictedOnRelease) {
  Insert(1, 1);
  Cache::Handle* big = InsertAndHold(2, 22, 500);
  EXPECT_EQ(22, *static_cast<int*>(cache_->Value(big)));
  EXPECT_TRUE(WasDeleted(1, 1));  // everything unreferenced was evicted to make room
  EXPECT_FALSE(WasDeleted(2, 22));
  cache_->Release(big);
  EXPECT_TRUE(WasDeleted(2, 22));
  EXPECT_EQ(-1, Lookup(2));
  EXPECT_EQ(0u, cache_->TotalCharge());
}

TEST_F(CacheTest, ZeroCapacityCachesNothingButHandlesWork) {
  cache_ = NewLRUCache(0, 0);
  Cache::Handle* h = InsertAndHold(1, 10);
  EXPECT_EQ(10, *static_cast<int*>(cache_->Value(h)));
  EXPECT_EQ(-1, Lookup(1));
  EXPECT_EQ(0u, cache_->TotalCharge());
  EXPECT_TRUE(deleted_.empty());
  cache_->Release(h);
  EXPECT_TRUE(WasDeleted(1, 10));
}

TEST_F(CacheTest, HitAndMissCountersCountLookups) {
  EXPECT_EQ(0u, cache_->Hits());
  EXPECT_EQ(0u, cache_->Misses());
  Lookup(1);
  Insert(1, 1);
  Lookup(1);
  Lookup(1);
  Lookup(2);
  EXPECT_EQ(2u, cache_->Hits());
  EXPECT_EQ(2u, cache_->Misses());
}

TEST_F(CacheTest, NewIdReturnsDistinctNonZeroIds) {
  std::vector<uint64_t> ids;
  for (int i = 0; i < 1000; i++) ids.push_back(cache_->NewId());
  std::sort(ids.begin(), ids.end());
  EXPECT_NE(0u, ids.front());
  EXPECT_EQ(ids.end(), std::adjacent_find(ids.begin(), ids.end()));
}

TEST_F(CacheTest, DestroyingCacheDeletesEveryRemainingValue) {
  for (int i = 0; i < 50; i++) Insert(i, i);
  cache_.reset();
  EXPECT_EQ(50u, deleted_.size());
}

TEST_F(CacheTest, ShardedCacheKeepsEverythingThatFits) {
  cache_ = NewLRUCache(1 << 20, 4);  // 16 shards
  for (int i = 0; i < 1000; i++) Insert(i, i + 1);
  for (int i = 0; i < 1000; i++) ASSERT_EQ(i + 1, Lookup(i)) << i;
  EXPECT_EQ(1000u, cache_->TotalCharge());
  EXPECT_TRUE(deleted_.empty());
}

// One shard holding thousands of entries: its hash table grows many times, and erasing,
// replacing and looking up keys through long-lived chains keeps every entry findable.
TEST_F(CacheTest, OneShardFindsEveryKeyAcrossGrowthEraseAndReplace) {
  constexpr int kKeys = 5000;
  cache_ = NewLRUCache(1 << 20, 0);
  for (int i = 0; i < kKeys; i++) Insert(i, i);
  size_t erased = 0, replaced = 0;
  for (int i = 0; i < kKeys; i += 3, erased++) Erase(i);
  for (int i = 1; i < kKeys; i += 3, replaced++) Insert(i, -i);
  for (int i = 0; i < kKeys; i++) {
    const int want = i % 3 == 0 ? -1 : (i % 3 == 1 ? -i : i);
    ASSERT_EQ(want, Lookup(i)) << i;
  }
  EXPECT_EQ(kKeys - erased, cache_->TotalCharge());
  EXPECT_EQ(erased + replaced, deleted_.size());  // the erased and the replaced values
  cache_.reset();
  EXPECT_EQ(kKeys + replaced, deleted_.size());  // every value inserted, each once
}

// Eviction finds the oldest entry's link in its hash chain by identity: a full shard evicting
// thousands of entries, interleaved with lookups that reorder it, evicts exactly the oldest.
TEST_F(CacheTest, OneFullShardEvictsExactlyTheLeastRecentlyUsed) {
  cache_ = NewLRUCache(1000, 0);
  for (int i = 0; i < 1000; i++) Insert(i, i);
  for (int i = 0; i < 1000; i += 2) ASSERT_EQ(i, Lookup(i));  // evens now newer than odds
  for (int i = 1000; i < 1500; i++) Insert(i, i);             // evicts the 500 odd keys
  for (int i = 0; i < 1000; i++) EXPECT_EQ(i % 2 == 0 ? i : -1, Lookup(i)) << i;
  for (int i = 1000; i < 1500; i++) EXPECT_EQ(i, Lookup(i)) << i;
  EXPECT_EQ(1000u, cache_->TotalCharge());
  EXPECT_EQ(500u, deleted_.size());
}

TEST(BlockCacheShardBits, KeepsShardsOfAtLeastHalfAMebibyteUpTo64) {
  EXPECT_EQ(0, BlockCacheShardBits(0));
  EXPECT_EQ(0, BlockCacheShardBits((512 << 10) + 1));
  EXPECT_EQ(1, BlockCacheShardBits(1 << 20));
  EXPECT_EQ(4, BlockCacheShardBits(8 << 20));
  EXPECT_EQ(6, BlockCacheShardBits(32 << 20));
  EXPECT_EQ(6, BlockCacheShardBits(size_t{1} << 40));
}

TEST_F(CacheTest, ShardedCacheStaysWithinCapacity) {
  cache_ = NewLRUCache(256, 3);  // 8 shards of 32
  for (int i = 0; i < 5000; i++) Insert(i, i);
  EXPECT_LE(cache_->TotalCharge(), 256u);
  EXPECT_EQ(5000u, deleted_.size() + cache_->TotalCharge());
}

// Values of the concurrency test carry their key so readers can check they got the right one.
namespace {

struct Tagged {
  uint32_t key;
  uint32_t version;
};
std::atomic<int> live_tagged{0};
void DeleteTagged(const Slice&, void* value) {
  delete static_cast<Tagged*>(value);
  live_tagged.fetch_sub(1);
}

}  // namespace

TEST(CacheConcurrency, ManyThreadsInsertLookupEraseAndRelease) {
  live_tagged.store(0);
  {
    std::shared_ptr<Cache> cache = NewLRUCache(500, 2);
    constexpr int kThreads = 8;
    constexpr int kOps = 20000;
    std::atomic<bool> wrong{false};
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; t++) {
      threads.emplace_back([&, t] {
        Random rnd(1000 + t);
        std::vector<Cache::Handle*> held;
        for (int i = 0; i < kOps; i++) {
          const uint32_t k = static_cast<uint32_t>(rnd.Uniform(2000));
          std::string key;
          PutFixed32(&key, k);
          const uint64_t op = rnd.Uniform(10);
          if (op < 3) {
            live_tagged.fetch_add(1);
            Cache::Handle* h = cache->Insert(key, new Tagged{k, static_cast<uint32_t>(i)},
                                             1 + rnd.Uniform(3), &DeleteTagged);
            held.push_back(h);
          } else if (op < 8) {
            Cache::Handle* h = cache->Lookup(key);
            if (h != nullptr) {
              if (static_cast<Tagged*>(cache->Value(h))->key != k) wrong.store(true);
              held.push_back(h);
            }
          } else if (op < 9) {
            cache->Erase(key);
          } else {
            (void)cache->NewId();
          }
          // Hold a few handles for a while so releases interleave with evictions.
          while (held.size() > 4) {
            const size_t victim = rnd.Uniform(held.size());
            if (static_cast<Tagged*>(cache->Value(held[victim]))->key > 2000) {
              wrong.store(true);
            }
            cache->Release(held[victim]);
            held.erase(held.begin() + static_cast<std::ptrdiff_t>(victim));
          }
        }
        for (Cache::Handle* h : held) cache->Release(h);
      });
    }
    for (auto& th : threads) th.join();
    EXPECT_FALSE(wrong.load());
    EXPECT_LE(cache->TotalCharge(), cache->Capacity());  // 4 shards of exactly 125
    EXPECT_GT(cache->Hits() + cache->Misses(), 0u);
  }
  EXPECT_EQ(0, live_tagged.load());  // every value deleted exactly once
}

}  // namespace sluice
