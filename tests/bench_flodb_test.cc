// tests/bench_flodb_test.cc — tests of sluice_bench's FloDB experiments that need no timing:
// binary keys (order and spread), the skewed and permuted key generators, the operation mixes
// of writeonly, readupdate_skewed and updatescan (through the runner and an in-memory engine),
// the FloDB counters read from "sluice.flodb-stats", and the drivers of sluice's internals
// (memcomponent against a small budget, persist).

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <shared_mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "memory/flodb/flodb_stats.h"
#include "sluice/options.h"
#include "sluice_bench/bench_flags.h"
#include "sluice_bench/benchmark_runner.h"
#include "sluice_bench/flodb_counters.h"
#include "sluice_bench/key_distribution.h"
#include "sluice_bench/key_format.h"
#include "sluice_bench/sluice_memcomponent_driver.h"
#include "sluice_bench/sluice_persist_job.h"
#include "support/map_engine.h"

namespace sluice_bench {
namespace {

// ------------------------------------------------------------------------------------------
// Binary keys

uint64_t Top64(std::string_view key) {
  uint64_t v = 0;
  for (int i = 0; i < kBinaryKeyBytes; ++i) v = (v << 8) | static_cast<unsigned char>(key[i]);
  return v;
}

TEST(BenchBinaryKeyTest, IsTheScaledNumberBigEndianPaddedWithZeros) {
  EXPECT_EQ(BinaryKeyStep(4), uint64_t{1} << 62);
  EXPECT_EQ(BinaryKeyStep(1), 0u);
  EXPECT_EQ(MakeKey(1, 8, KeyFormat::kBinary, 4), std::string("\x40\0\0\0\0\0\0\0", 8));
  EXPECT_EQ(MakeKey(3, 10, KeyFormat::kBinary, 4), std::string("\xc0\0\0\0\0\0\0\0\0\0", 10));
  EXPECT_EQ(MakeKey(0, 8, KeyFormat::kBinary, 1000), std::string(8, '\0'));
  const uint64_t num = 1000003;
  const std::string key = MakeKey(12345, 16, KeyFormat::kBinary, num);
  ASSERT_EQ(key.size(), 16u);
  EXPECT_EQ(Top64(key), 12345 * (~uint64_t{0} / num));  // floor(2^64/num) for non-powers of 2
  EXPECT_EQ(key.substr(8), std::string(8, '\0'));
  EXPECT_EQ(MinKeySizeFor(KeyFormat::kBinary, 10), 8);
  EXPECT_EQ(MinKeySizeFor(KeyFormat::kDecimal, 1000000), 6);
}

TEST(BenchBinaryKeyTest, PreservesOrderAndMissingKeysFallBetween) {
  for (uint64_t num : {2ull, 10ull, 1000ull, 16000000ull, 1ull << 40}) {
    KeyBuffer buf(8, KeyFormat::kBinary, num);
    for (uint64_t n : {uint64_t{0}, uint64_t{1}, num / 3, num / 2, num - 2}) {
      if (n + 1 >= num) continue;
      const std::string key(buf.Set(n));
      const std::string missing(buf.SetMissing(n));
      const std::string next(buf.Set(n + 1));
      EXPECT_EQ(missing, key + ".");
      EXPECT_LT(key, next) << num << " " << n;
      EXPECT_LT(key, missing);
      EXPECT_LT(missing, next);
    }
  }
}

TEST(BenchBinaryKeyTest, MostSignificantBitsSpreadOverTheKeySpace) {
  // FloDB partitions by the top bits: with 4 bits, 16 partitions should share the keys evenly,
  // where decimal keys all start with '0' bytes.
  const uint64_t num = 100000;
  KeyBuffer buf(8, KeyFormat::kBinary, num);
  std::vector<uint64_t> per_partition(16, 0);
  for (uint64_t n = 0; n < num; ++n) per_partition[Top64(buf.Set(n)) >> 60]++;
  for (uint64_t count : per_partition) EXPECT_NEAR(count, num / 16, 2);
  EXPECT_GE(Top64(buf.Set(num - 1)), ~uint64_t{0} - 2 * BinaryKeyStep(num));
}

TEST(BenchBinaryKeyTest, FlagNeedsEightByteKeys) {
  auto parse = [](std::vector<const char*> args) {
    BenchFlags flags = DefaultBenchFlags();
    args.insert(args.begin(), "sluice_bench");
    std::ostringstream out, err;
    const ParseOutcome o =
        ParseBenchFlags(static_cast<int>(args.size()), args.data(), &flags, out, err);
    return std::make_pair(o.proceed ? flags.key_format : KeyFormat::kDecimal, o.proceed);
  };
  EXPECT_FALSE(parse({"--key_format=binary", "--key_size=4"}).second);
  EXPECT_EQ(parse({"--key_format=binary", "--key_size=8", "--num=100000000"}).first,
            KeyFormat::kBinary);
  EXPECT_FALSE(parse({"--key_format=hex"}).second);
  EXPECT_FALSE(parse({"--membuffer_fraction=0"}).second);
  EXPECT_TRUE(parse({"--membuffer_fraction=0.5", "--flodb_multi_insert=0"}).second);
}

// ------------------------------------------------------------------------------------------
// Key distributions

TEST(BenchKeyDistributionTest, SkewSendsTheHotFractionToTheHotKeys) {
  const uint64_t num = 100000;
  const SkewedKeys skew(num, 0.02, 0.98);
  EXPECT_EQ(skew.hot_keys(), 2000u);
  EXPECT_EQ(skew.stride(), 50u);
  Random64 rnd(1);
  const int draws = 200000;
  int hot = 0;
  std::set<uint64_t> hot_seen;
  for (int i = 0; i < draws; ++i) {
    const uint64_t k = skew.Next(&rnd);
    ASSERT_LT(k, num);
    if (skew.IsHot(k)) {
      ++hot;
      hot_seen.insert(k);
    }
  }
  EXPECT_NEAR(static_cast<double>(hot) / draws, 0.98, 0.003);
  EXPECT_EQ(hot_seen.size(), 2000u);  // every hot key is used; they are 2% of the space
  EXPECT_EQ(*hot_seen.begin(), 0u);
  EXPECT_EQ(*hot_seen.rbegin(), 1999u * 50);  // spread over the whole key space
}

TEST(BenchKeyDistributionTest, PermutationVisitsEveryKeyOnce) {
  for (uint64_t num : {1ull, 7ull, 1000ull, 65536ull}) {
    const PermutedKeys order(num);
    std::vector<bool> seen(num, false);
    bool sorted = true;
    for (uint64_t i = 0; i < num; ++i) {
      const uint64_t k = order.At(i);
      ASSERT_LT(k, num);
      EXPECT_FALSE(seen[k]) << num << " " << k;
      seen[k] = true;
      if (i > 0 && k < order.At(i - 1)) sorted = false;
    }
    if (num > 7) {
      EXPECT_FALSE(sorted) << num;
    }
  }
}

// ------------------------------------------------------------------------------------------
// The mixed workloads, through the runner and an in-memory engine

// The shared in-memory engine, named "counting", that can also hand out sluice's memory
// component for memcomponent.
class CountingEngine : public MapEngine {
 public:
  std::string_view name() const override { return "counting"; }

  // memcomponent: sluice's component with this budget, when set.
  EngineStatus NewMemoryComponentDriver(std::unique_ptr<KVMemoryComponentDriver>* driver) override {
    if (memcomponent_budget == 0) return KVEngine::NewMemoryComponentDriver(driver);
    sluice::Options options;
    options.write_buffer_size = memcomponent_budget;
    std::unique_ptr<SluiceMemoryComponentDriver> d;
    EngineStatus s = SluiceMemoryComponentDriver::Create(options, &d);
    if (s.ok()) *driver = std::move(d);
    return s;
  }

  size_t memcomponent_budget = 0;
};

class BenchFloDBRunnerTest : public testing::Test {
 protected:
  BenchFloDBRunnerTest() : out_(std::tmpfile()) {
    flags_ = DefaultBenchFlags();
    flags_.num = 4000;
    flags_.key_format = KeyFormat::kBinary;
    flags_.key_size = 8;
    flags_.value_size = 32;
    flags_.db = testing::TempDir() + "/bench_flodb_test";
  }
  ~BenchFloDBRunnerTest() override { std::fclose(out_); }

  std::vector<BenchResult> Run(std::vector<std::string> benchmarks) {
    flags_.benchmarks = std::move(benchmarks);
    return RunBenchmarks(flags_, &engine_, flags_.db + "/counting", out_);
  }

  BenchFlags flags_;
  CountingEngine engine_;
  std::FILE* out_;
};

TEST_F(BenchFloDBRunnerTest, WriteOnlyIsHalfPutsHalfDeletes) {
  flags_.num = 20000;
  flags_.threads = 2;
  const auto r = Run({"writeonly"});
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].ops, 40000u);
  EXPECT_EQ(engine_.puts + engine_.deletes, 40000u);
  EXPECT_NEAR(static_cast<double>(engine_.puts) / 40000.0, 0.5, 0.01);
  EXPECT_EQ(FindMetric(r[0].metrics, "puts").value_or(-1), static_cast<double>(engine_.puts));
  EXPECT_EQ(FindMetric(r[0].metrics, "deletes").value_or(-1), static_cast<double>(engine_.deletes));
  EXPECT_NE(r[0].message.find(" puts, "), std::string::npos) << r[0].message;
  // Bytes: a put moves key + value, a delete the key.
  EXPECT_EQ(r[0].bytes, engine_.puts * (8 + 32) + engine_.deletes * 8);
}

TEST_F(BenchFloDBRunnerTest, ReadUpdateSkewedMixesReadsAndUpdatesOnHotKeys) {
  const auto r = Run({"fillseq", "readupdate_skewed"});
  ASSERT_EQ(r.size(), 2u);
  const BenchResult& s = r[1];
  EXPECT_EQ(s.ops, 4000u);
  EXPECT_EQ(s.lookups + static_cast<uint64_t>(FindMetric(s.metrics, "updates").value_or(0)), 4000u);
  EXPECT_EQ(s.found, s.lookups);  // after fillseq every key exists
  EXPECT_NEAR(static_cast<double>(s.lookups) / 4000.0, 0.5, 0.03);
  EXPECT_NEAR(FindMetric(s.metrics, "hot_pct").value_or(0), 98.0, 1.0);
}

TEST_F(BenchFloDBRunnerTest, UpdateScanCountsKeysAccessed) {
  flags_.scan_length = 10;
  const auto r = Run({"fillseq", "updatescan"});
  ASSERT_EQ(r.size(), 2u);
  const BenchResult& u = r[1];
  const uint64_t updates = engine_.puts - 4000;  // after fillseq's puts
  // Every update is one key, every scan the entries it returned.
  EXPECT_EQ(u.ops, updates + engine_.scanned);
  EXPECT_GE(u.ops, 4000u);
  EXPECT_EQ(FindMetric(u.metrics, "scans").value_or(-1), static_cast<double>(engine_.scans));
  EXPECT_EQ(FindMetric(u.metrics, "scanned_keys").value_or(-1),
            static_cast<double>(engine_.scanned));
  EXPECT_LE(engine_.scanned, engine_.scans * 10);
  EXPECT_GE(engine_.scanned, engine_.scans * 9);  // a few start near the end of the key space
  const double scan_share =
      static_cast<double>(engine_.scans) / static_cast<double>(engine_.scans + updates);
  EXPECT_NEAR(scan_share, 0.05, 0.02);
  EXPECT_NE(u.message.find("keys accessed: "), std::string::npos) << u.message;
}

TEST_F(BenchFloDBRunnerTest, InternalBenchmarksAreSkippedByOtherEngines) {
  const auto r = Run({"memcomponent", "persist"});
  ASSERT_EQ(r.size(), 2u);
  EXPECT_TRUE(r[0].skipped);
  EXPECT_NE(r[0].skip_reason.find("counting has no such interface"), std::string::npos);
  EXPECT_TRUE(r[1].skipped);
}

TEST_F(BenchFloDBRunnerTest, MemComponentWritesEveryOperationAndDropsFullComponents) {
  engine_.memcomponent_budget = 256 << 10;
  flags_.threads = 2;
  flags_.num = 5000;
  flags_.value_size = 100;
  const auto r = Run({"memcomponent"});
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].ops, 10000u);
  // ~1.1 MB written into 256 KiB components.
  EXPECT_GE(FindMetric(r[0].metrics, "components_dropped").value_or(0), 2.0);
  EXPECT_EQ(FindMetric(r[0].metrics, "flodb_writes").value_or(0), 10000.0);
  EXPECT_TRUE(FindMetric(r[0].metrics, "membuffer_pct").has_value());
  EXPECT_NE(r[0].message.find("in the Membuffer"), std::string::npos) << r[0].message;
}

// ------------------------------------------------------------------------------------------
// The drivers of sluice's internals

TEST(BenchMemComponentDriverTest, EveryWriteLandsInSomeComponent) {
  for (const char* memtable : {"flodb", "skiplist"}) {
    sluice::Options options;
    options.memtable = memtable;
    options.write_buffer_size = 128 << 10;
    std::unique_ptr<SluiceMemoryComponentDriver> driver;
    ASSERT_TRUE(SluiceMemoryComponentDriver::Create(options, &driver).ok());
    constexpr int kThreads = 2;
    constexpr uint64_t kPerThread = 6000;
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
      threads.emplace_back([&, t] {
        KeyBuffer keys(8, KeyFormat::kBinary, kThreads * kPerThread);
        const std::string value(64, 'v');
        // Distinct keys: no version is replaced in place, so every write stays countable.
        for (uint64_t i = 0; i < kPerThread; ++i) driver->Put(keys.Set(t * kPerThread + i), value);
      });
    }
    for (auto& t : threads) t.join();
    EXPECT_EQ(driver->writes(), kThreads * kPerThread) << memtable;
    EXPECT_GE(driver->components_dropped(), 3u) << memtable;  // ~1 MB into 128 KiB budgets
    EXPECT_EQ(driver->VersionsHeld(), kThreads * kPerThread) << memtable;
    Metrics metrics;
    const std::string note = driver->Describe(&metrics);
    EXPECT_EQ(FindMetric(metrics, "components_dropped").value_or(-1),
              static_cast<double>(driver->components_dropped()));
    if (std::string(memtable) == "flodb") {
      EXPECT_EQ(FindMetric(metrics, "flodb_writes").value_or(0), kThreads * kPerThread);
      EXPECT_NE(note.find("% of 12000 writes in the Membuffer"), std::string::npos) << note;
    } else {
      EXPECT_FALSE(FindMetric(metrics, "membuffer_pct").has_value());
    }
  }
}

TEST(BenchPersistJobTest, WritesEveryEntryOfAFullComponentToAnSstFile) {
  const std::string dir = testing::TempDir() + "/bench_flodb_persist";
  sluice::Options options;
  options.write_buffer_size = 256 << 10;
  {
    std::unique_ptr<SluicePersistJob> job;
    ASSERT_TRUE(SluicePersistJob::Create(options, dir, &job).ok());
    KeyBuffer keys(8, KeyFormat::kBinary, 100000);
    const std::string value(100, 'x');
    uint64_t added = 0;
    while (!job->Full()) {
      job->Add(keys.Set(PermutedKeys(100000).At(added)), value);
      ++added;
    }
    EXPECT_GT(added, 500u);
    KVPersistJob::Round round;
    ASSERT_TRUE(job->Persist(&round).ok());
    EXPECT_EQ(round.entries, added);
    EXPECT_EQ(round.user_bytes, added * 108);
    EXPECT_EQ(round.files, 1);
    EXPECT_GT(round.file_bytes, 0u);
    EXPECT_GT(round.seconds, 0.0);
    EXPECT_FALSE(job->Full());  // a fresh component
    EXPECT_TRUE(std::filesystem::exists(dir));
  }
  EXPECT_FALSE(std::filesystem::exists(dir));
}

// ------------------------------------------------------------------------------------------
// FloDB counters

TEST(BenchFloDBCountersTest, ReadsTheCountersOfTheStatsProperty) {
  sluice::FloDBStats stats;
  stats.memtable_full.Add(50);  // writes: 900 + 50 + 50 = 1000
  stats.membuffer_adds.Add(900);
  stats.membuffer_in_place.Add(50);
  stats.in_place_updates.Add(7);
  stats.drained_entries.Add(800);
  stats.multi_insert_keys.Add(800);
  stats.multi_insert_hops.Add(2000);
  stats.scans.Add(10);
  stats.scan_restarts.Add(3);
  stats.drain_windows.Add(40);
  stats.hold_windows.Add(10);
  const Metrics m = ParseFloDBStatsText(stats.ToString());
  EXPECT_EQ(FindMetric(m, kFloDBWrites).value_or(-1), 1000);
  EXPECT_EQ(FindMetric(m, kFloDBInMembuffer).value_or(-1), 950);
  EXPECT_EQ(FindMetric(m, kFloDBMembufferInPlace).value_or(-1), 50);
  EXPECT_EQ(FindMetric(m, kSortedLevelInPlace).value_or(-1), 7);
  EXPECT_EQ(FindMetric(m, kFloDBDrained).value_or(-1), 800);
  EXPECT_EQ(FindMetric(m, kFloDBMultiInsertHops).value_or(-1), 2000);
  EXPECT_EQ(FindMetric(m, kFloDBScans).value_or(-1), 10);
  EXPECT_EQ(FindMetric(m, kFloDBScanRestarts).value_or(-1), 3);
  EXPECT_EQ(FindMetric(m, kFloDBHoldWindows).value_or(-1), 10);
  EXPECT_EQ(FindMetric(m, kFloDBDrainWindows).value_or(-1), 40);

  Metrics before = {{std::string(kFloDBWrites), 600}, {std::string(kFloDBInMembuffer), 550}};
  Metrics derived;
  const std::string note = DescribeFloDBCounters(before, m, &derived);
  EXPECT_NE(note.find("[flodb: 100.0% of 400 writes in the Membuffer (12.5% in place there), "
                      "800 drained, 7 replaced in place in the Memtable"),
            std::string::npos)
      << note;
  EXPECT_DOUBLE_EQ(FindMetric(derived, "membuffer_in_place").value_or(0), 50);
  EXPECT_DOUBLE_EQ(FindMetric(derived, "memtable_in_place").value_or(0), 7);
  EXPECT_DOUBLE_EQ(FindMetric(derived, "in_place_updates").value_or(0), 57);
  EXPECT_NE(note.find("10 scans, 3 restarts"), std::string::npos) << note;
  EXPECT_NE(note.find("entries held in 25% of the drain policy's windows"), std::string::npos)
      << note;
  EXPECT_DOUBLE_EQ(FindMetric(derived, "hold_windows").value_or(0), 10);
  EXPECT_DOUBLE_EQ(FindMetric(derived, "membuffer_pct").value_or(0), 100.0);
  EXPECT_TRUE(ParseFloDBStatsText("no such lines").empty());
  EXPECT_EQ(DescribeFloDBCounters({}, {}, &derived), "");
}

}  // namespace
}  // namespace sluice_bench
