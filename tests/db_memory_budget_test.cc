// One memory budget (WriteBufferManager) shared by many databases, and one block cache shared
// by many: ten DBs filled at once hold their memory components under the budget's cap (with
// stalls allowed); the budget flushes the largest component of whichever DB holds it, an idle
// one too; db_write_buffer_size bounds the families of one DB; the budget's figures are in the
// stats; a shared block cache bounds the blocks of all its DBs and outlives them.

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "db/memory_budget.h"
#include "sluice/cache.h"
#include "sluice/db.h"
#include "sluice/write_buffer_manager.h"
#include "support/db_test_util.h"
#include "support/test_util.h"

namespace sluice::test {
namespace {

constexpr size_t kKiB = 1 << 10;
constexpr size_t kMiB = 1 << 20;

std::unique_ptr<DB> OpenOrDie(const Options& options, const std::string& path) {
  std::unique_ptr<DB> db;
  Status s = DB::Open(options, path, &db);
  EXPECT_TRUE(s.ok()) << path << ": " << s.ToString();
  return db;
}

uint64_t MemoryUsage(DB* db, ColumnFamilyHandle* family = nullptr) {
  std::string v;
  EXPECT_TRUE(db->GetProperty(family != nullptr ? family : db->DefaultColumnFamily(),
                              "sluice.memory-usage", &v));
  return std::stoull(v);
}

nlohmann::json Stats(DB* db) {
  std::string v;
  EXPECT_TRUE(db->GetProperty("sluice.stats-json", &v));
  return nlohmann::json::parse(v);
}

// Ten DBs of default options but the budget, written at once by a thread each, while another
// samples the budget's count of all their memory components: the peak stays under the cap (the
// soft limit keeps each mutable component's headroom free). That count follows what the DBs
// report: once the writers are done the two differ by less than a step per mutable component
// (a charge runs behind its component by less than a step). (Summing the DBs' own figures
// while they write is no peak: a pass over ten DBs can count bytes one DB has released and
// another has taken since.)
TEST(DBMemoryBudgetTest, TenDatabasesFilledAtOnceStayUnderTheCap) {
  TempDir dir;
  constexpr int kDatabases = 10;
  constexpr int kKeys = 30000;  // ~4 MiB of user data each, ~40 MiB in all: many flushes
  constexpr size_t kCap = 8 * kMiB;
  auto manager = std::make_shared<WriteBufferManager>(kCap, /*allow_stall=*/true);
  Options options;
  options.create_if_missing = true;
  options.write_buffer_manager = manager;
  std::vector<std::unique_ptr<DB>> dbs;
  for (int d = 0; d < kDatabases; d++) {
    dbs.push_back(OpenOrDie(options, dir.File("db" + std::to_string(d))));
    ASSERT_NE(dbs.back(), nullptr);
  }
  std::atomic<bool> done{false};
  uint64_t peak_charged = 0;
  std::thread sampler([&] {
    while (!done.load()) {
      peak_charged = std::max<uint64_t>(peak_charged, manager->memory_usage());
      std::this_thread::sleep_for(std::chrono::microseconds(100));
    }
  });
  std::vector<std::thread> writers;
  for (int d = 0; d < kDatabases; d++) {
    writers.emplace_back([&, d] {
      for (int i = 0; i < kKeys; i++) {
        ASSERT_TRUE(dbs[static_cast<size_t>(d)]->Put(WriteOptions(), Key(i), Value(d + i)).ok());
      }
    });
  }
  for (auto& w : writers) w.join();
  done.store(true);
  sampler.join();

  EXPECT_LE(peak_charged, kCap) << "soft limit at the end " << manager->budget().soft_limit();
  EXPECT_GT(peak_charged, kCap / 2);  // the budget was used, not just never reached
  for (auto& db : dbs) ASSERT_TRUE(db->Flush().ok());  // (flushes settle, nothing is written)
  uint64_t reported = 0;
  for (auto& db : dbs) reported += MemoryUsage(db.get());
  const uint64_t charged = manager->memory_usage();
  EXPECT_LE(charged, reported);
  EXPECT_LT(reported, charged + kDatabases * manager->budget().step());
  uint64_t budget_flushes = 0;
  for (auto& db : dbs) {
    budget_flushes += Stats(db.get())["memory"]["budget"]["flushes"].get<uint64_t>();
  }
  EXPECT_GT(budget_flushes, 0u);
  EXPECT_GT(manager->flushes_requested(), 0u);
  // Nothing was lost on the way.
  for (int d = 0; d < kDatabases; d++) {
    std::string value;
    for (int i = 0; i < kKeys; i += 997) {
      ASSERT_TRUE(dbs[static_cast<size_t>(d)]->Get(ReadOptions(), Key(i), &value).ok());
      ASSERT_EQ(value, Value(d + i));
    }
  }
  dbs.clear();
  EXPECT_EQ(manager->memory_usage(), 0u);  // closed DBs leave nothing charged
}

// A holds most of the budget in four families and has stopped writing; B's writes pass the
// budget's flush threshold, and the budget flushes one of A's components, not B's: A's have
// taken the most writes. (Under a 4 MiB budget shared by five components each is at most
// 1 MiB, and the soft limit, the cap less their headroom, is about 2.5 MiB.)
TEST(DBMemoryBudgetTest, TheFullestComponentsAreFlushedEvenInAnIdleDatabase) {
  TempDir dir;
  auto manager = std::make_shared<WriteBufferManager>(4 * kMiB);
  Options options;
  options.create_if_missing = true;
  options.write_buffer_manager = manager;
  auto a = OpenOrDie(options, dir.File("a"));
  auto b = OpenOrDie(options, dir.File("b"));
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  std::vector<ColumnFamilyHandle*> families{a->DefaultColumnFamily()};
  for (int f = 1; f < 4; f++) {
    ColumnFamilyHandle* h = nullptr;
    ASSERT_TRUE(a->CreateColumnFamily(options, "f" + std::to_string(f), &h).ok());
    families.push_back(h);
  }
  auto a_files = [&] {
    uint64_t n = 0;
    for (ColumnFamilyHandle* h : families) {
      std::string v;
      EXPECT_TRUE(a->GetProperty(h, "sluice.num-files-at-level0", &v));
      n += std::stoull(v);
    }
    return n;
  };
  int i = 0;
  for (ColumnFamilyHandle* h : families) {
    while (MemoryUsage(a.get(), h) < 500 * kKiB) {
      ASSERT_TRUE(a->Put(WriteOptions(), h, Key(i), Value(i)).ok());
      i++;
    }
  }
  ASSERT_EQ(a_files(), 0u);  // nothing flushed yet: 2 MiB, under the soft limit
  ASSERT_LT(manager->memory_usage(), manager->budget().soft_limit());
  for (int j = 0; j < 20000 && a_files() == 0; j++) {
    ASSERT_TRUE(b->Put(WriteOptions(), Key(j), Value(j)).ok());
  }
  EXPECT_TRUE(Eventually([&] { return a_files() > 0; }));
  EXPECT_GE(Stats(a.get())["memory"]["budget"]["flushes"].get<uint64_t>(), 1u);
  EXPECT_EQ(Stats(b.get())["memory"]["budget"]["flushes"].get<uint64_t>(), 0u);
  std::string value;
  ASSERT_TRUE(a->Get(ReadOptions(), families[0], Key(0), &value).ok());
  EXPECT_EQ(value, Value(0));
}

// db_write_buffer_size: a budget of the DB's own over its families. Eight families written in
// turn (~5 MiB of data) hold about the cap, where without it they hold all of it and more.
TEST(DBMemoryBudgetTest, DbWriteBufferSizeBoundsTheFamiliesOfOneDatabase) {
  constexpr size_t kCap = 4 * kMiB;
  auto peak_with = [](size_t db_write_buffer_size, DB** keep, std::unique_ptr<DB>* db,
                      std::vector<ColumnFamilyHandle*>* families, const std::string& path) {
    Options options;
    options.create_if_missing = true;
    options.db_write_buffer_size = db_write_buffer_size;
    *db = OpenOrDie(options, path);
    EXPECT_NE(*db, nullptr);
    for (int f = 0; f < 8; f++) {
      ColumnFamilyHandle* h = nullptr;
      EXPECT_TRUE((*db)->CreateColumnFamily(options, "f" + std::to_string(f), &h).ok());
      families->push_back(h);
    }
    uint64_t peak = 0;
    for (int i = 0; i < 40000; i++) {
      ColumnFamilyHandle* h = (*families)[static_cast<size_t>(i % 8)];
      EXPECT_TRUE((*db)->Put(WriteOptions(), h, Key(i), Value(i)).ok());
      if (i % 500 == 0) {
        uint64_t total = 0;
        for (ColumnFamilyHandle* f : *families) total += MemoryUsage(db->get(), f);
        peak = std::max(peak, total);
      }
    }
    *keep = db->get();
    return peak;
  };
  TempDir dir;
  std::unique_ptr<DB> unbounded;
  std::unique_ptr<DB> db;
  std::vector<ColumnFamilyHandle*> unbounded_families;
  std::vector<ColumnFamilyHandle*> families;
  DB* raw = nullptr;
  const uint64_t without = peak_with(0, &raw, &unbounded, &unbounded_families, dir.File("none"));
  const uint64_t with = peak_with(kCap, &raw, &db, &families, dir.File("db"));
  // Without stalls the budget is a flush trigger: the writer runs ahead of the flushes (one at
  // a time per DB), and eight empty components take a share of the cap, hence twice the cap.
  // Without it the families' components grow with the write rate (DBImpl's switch): to ~100 MB
  // at full speed, to ~13 MB under ThreadSanitizer, where they only double. Either is beyond
  // what the budget allows.
  EXPECT_LE(with, 2 * kCap) << "without a budget: " << without;
  EXPECT_GT(without, 2 * kCap);
  const auto budget = Stats(db.get())["memory"]["budget"];
  EXPECT_EQ(budget["cap_bytes"].get<uint64_t>(), kCap);
  EXPECT_FALSE(budget["allow_stall"].get<bool>());
  EXPECT_GT(budget["flushes"].get<uint64_t>(), 0u);
  EXPECT_FALSE(Stats(unbounded.get())["memory"].contains("budget"));
  std::string text;
  ASSERT_TRUE(db->GetProperty("sluice.stats", &text));
  EXPECT_NE(text.find("Memory budget (shared)"), std::string::npos) << text;
  std::string value;
  for (int i = 0; i < 40000; i += 1001) {
    ASSERT_TRUE(db->Get(ReadOptions(), families[static_cast<size_t>(i % 8)], Key(i), &value).ok());
    EXPECT_EQ(value, Value(i));
  }
}

// Two DBs with one small block cache: reading all of both keeps its charge within the
// capacity, both DBs report that same cache, and it outlives them.
TEST(DBMemoryBudgetTest, OneBlockCacheServesManyDatabases) {
  TempDir dir;
  constexpr size_t kCapacity = 1 * kMiB;
  std::shared_ptr<Cache> cache = NewLRUCache(kCapacity);
  Options options;
  options.create_if_missing = true;
  options.block_cache = cache;
  options.block_cache_size = 64 * kMiB;  // ignored: the shared cache is used
  std::vector<std::unique_ptr<DB>> dbs;
  constexpr int kKeys = 20000;  // ~2.4 MiB of blocks each: more than the cache holds
  for (int d = 0; d < 2; d++) {
    dbs.push_back(OpenOrDie(options, dir.File("db" + std::to_string(d))));
    ASSERT_NE(dbs.back(), nullptr);
    for (int i = 0; i < kKeys; i++) {
      ASSERT_TRUE(dbs.back()->Put(WriteOptions(), Key(i), Value(d * kKeys + i)).ok());
    }
    ASSERT_TRUE(dbs.back()->Flush().ok());
  }
  for (int d = 0; d < 2; d++) {
    auto it = dbs[static_cast<size_t>(d)]->NewIterator(ReadOptions());
    int n = 0;
    for (it->SeekToFirst(); it->Valid(); it->Next(), n++) {
      ASSERT_EQ(it->value().ToString(), Value(d * kKeys + n));
    }
    ASSERT_TRUE(it->status().ok());
    EXPECT_EQ(n, kKeys);
  }
  EXPECT_GT(cache->TotalCharge(), kCapacity / 2);
  EXPECT_LE(cache->TotalCharge(), kCapacity);
  for (auto& db : dbs) {
    const auto stats = Stats(db.get());
    EXPECT_EQ(stats["block_cache"]["capacity_bytes"].get<uint64_t>(), kCapacity);
  }
  const uint64_t misses = cache->Misses();
  std::string value;
  ASSERT_TRUE(dbs[1]->Get(ReadOptions(), Key(kKeys - 1), &value).ok());  // just read: cached
  EXPECT_EQ(value, Value(2 * kKeys - 1));
  EXPECT_EQ(cache->Misses(), misses);
  dbs.clear();
  // The cache outlives the DBs; their blocks are plain values evicted in their turn.
  EXPECT_LE(cache->TotalCharge(), kCapacity);
  auto again = OpenOrDie(options, dir.File("db0"));
  ASSERT_NE(again, nullptr);
  ASSERT_TRUE(again->Get(ReadOptions(), Key(7), &value).ok());
  EXPECT_EQ(value, Value(7));
}

}  // namespace
}  // namespace sluice::test
