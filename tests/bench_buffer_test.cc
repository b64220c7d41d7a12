// Tests of sluice_bench's memory-buffer benchmarks (buffer_footprint, buffer_insert,
// buffer_point, buffer_range) through the runner, over sluice's memory components: what each
// counts, that the queries see only inserted keys, that every component scans exactly the
// same entries for the same queries, and that engines without the interface skip them. Also
// the database-level workload classes (buffer_mix_*: distinct inserts, queries at the asked
// ratio) and the parsing of sluice's I/O and adaptive-choice counters.

#include <gtest/gtest.h>

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "sluice/options.h"
#include "sluice_bench/bench_flags.h"
#include "sluice_bench/benchmark_runner.h"
#include "sluice_bench/sluice_buffer_probe.h"
#include "sluice_bench/sluice_db_counters.h"
#include "support/map_engine.h"

namespace sluice_bench {
namespace {

// The in-memory engine, handing out sluice's component `memtable` as the buffer probe (none
// when empty).
class ProbeEngine : public MapEngine {
 public:
  std::string_view name() const override { return "probe"; }
  EngineStatus NewBufferProbe(std::unique_ptr<KVBufferProbe>* probe) override {
    if (memtable.empty()) return KVEngine::NewBufferProbe(probe);
    sluice::Options options;
    options.memtable = memtable;
    options.prefix_length = 3;
    options.write_buffer_size = write_buffer_size;
    std::unique_ptr<SluiceBufferProbe> p;
    EngineStatus s = SluiceBufferProbe::Create(options, &p);
    if (s.ok()) *probe = std::move(p);
    return s;
  }
  std::string memtable;
  size_t write_buffer_size = 64 << 20;
};

class BenchBufferTest : public testing::Test {
 protected:
  BenchBufferTest() : out_(std::tmpfile()) {
    flags_ = DefaultBenchFlags();
    flags_.num = 6000;
    flags_.key_format = KeyFormat::kBinary;
    flags_.key_size = 16;
    flags_.value_size = 48;
    flags_.buffer_queries = 50;
    flags_.db = testing::TempDir() + "/bench_buffer_test";
  }
  ~BenchBufferTest() override { std::fclose(out_); }

  std::vector<BenchResult> Run(const std::string& memtable, std::vector<std::string> benchmarks) {
    engine_.memtable = memtable;
    flags_.benchmarks = std::move(benchmarks);
    return RunBenchmarks(flags_, &engine_, flags_.db + "/probe", out_);
  }

  BenchFlags flags_;
  ProbeEngine engine_;
  std::FILE* out_;
};

TEST_F(BenchBufferTest, EnginesWithoutComponentsSkipThem) {
  const auto r = Run("", {"buffer_footprint", "buffer_range"});
  ASSERT_EQ(r.size(), 2u);
  for (const BenchResult& b : r) {
    EXPECT_TRUE(b.skipped) << b.name;
    EXPECT_NE(b.skip_reason.find("probe has no such interface"), std::string::npos)
        << b.skip_reason;
  }
}

TEST_F(BenchBufferTest, FootprintCountsEveryEntryAndWhatFitsTheBudget) {
  // The runner compares with --write_buffer_size, the component sizes its arena by it.
  flags_.engine.write_buffer_size = engine_.write_buffer_size = 256 << 10;  // ~2K of 6K fit
  for (const char* memtable : {"skiplist", "hash-linklist", "vector"}) {
    SCOPED_TRACE(memtable);
    const auto r = Run(memtable, {"buffer_footprint", "buffer_insert"});
    ASSERT_EQ(r.size(), 2u);
    EXPECT_EQ(r[0].ops, 6000u);
    const double bytes = FindMetric(r[0].metrics, "footprint_bytes").value_or(0);
    EXPECT_GE(bytes, 6000.0 * 64);  // at least the keys and values
    const double fit = FindMetric(r[0].metrics, "entries_within_budget").value_or(0);
    EXPECT_GT(fit, 1000.0);
    EXPECT_LT(fit, 6000.0);
    EXPECT_FALSE(r[0].has_latency);
    // buffer_insert times every insert.
    ASSERT_TRUE(r[1].has_latency);
    EXPECT_EQ(r[1].latency.count(), 6000u);
  }
}

TEST_F(BenchBufferTest, PointQueriesFindOnlyInsertedKeys) {
  for (const char* memtable : {"skiplist", "hash-skiplist", "vector-prealloc", "flodb"}) {
    SCOPED_TRACE(memtable);
    const auto r = Run(memtable, {"buffer_point"});
    ASSERT_EQ(r.size(), 1u);
    EXPECT_EQ(r[0].ops, 50u);
    EXPECT_EQ(r[0].lookups, 50u);
    EXPECT_EQ(r[0].found, 50u);
    EXPECT_EQ(r[0].latency.count(), 50u);
  }
}

// The same seed gives the same inserts and scan starts, so every component must visit the
// same number of entries: a check of the hash components' merged iterators against the rest.
TEST_F(BenchBufferTest, EveryComponentScansTheSameEntries) {
  flags_.range_selectivity = 0.05;
  double expected = -1;
  for (const char* memtable :
       {"skiplist", "hash-skiplist", "hash-linklist", "vector", "vector-prealloc", "flodb"}) {
    SCOPED_TRACE(memtable);
    const auto r = Run(memtable, {"buffer_range"});
    ASSERT_EQ(r.size(), 1u);
    EXPECT_EQ(r[0].ops, 50u);
    const double scanned = FindMetric(r[0].metrics, "entries_scanned").value_or(-1);
    // 50 scans of 5% of 4500..6000 entries, some cut short by the end of the keys.
    EXPECT_GT(scanned, 50 * 0.05 * 4500 * 0.3);
    EXPECT_LE(scanned, 50 * 0.05 * 6000);
    if (expected < 0) expected = scanned;
    EXPECT_EQ(expected, scanned);
  }
}

// Every key inserted exactly once (also with two threads), queries at the asked ratio, each
// of an inserted key.
TEST_F(BenchBufferTest, MixClassesInsertDistinctKeysWithQueriesAtTheRatio) {
  flags_.mix_query_ratio = 0.01;
  flags_.short_scan_length = 5;
  for (int threads : {1, 2}) {
    SCOPED_TRACE(threads);
    flags_.threads = threads;
    const auto r = Run("", {"buffer_mix_insert", "buffer_mix_point", "buffer_mix_short_scan"});
    ASSERT_EQ(r.size(), 3u);
    EXPECT_EQ(r[0].ops, 6000u);
    EXPECT_EQ(FindMetric(r[0].metrics, "point_reads").value_or(-1), 0);
    EXPECT_EQ(r[1].ops, 6060u);
    EXPECT_EQ(FindMetric(r[1].metrics, "inserts").value_or(-1), 6000);
    EXPECT_EQ(FindMetric(r[1].metrics, "point_reads").value_or(-1), 60);
    EXPECT_NE(r[1].message.find("60 point reads (60 found)"), std::string::npos) << r[1].message;
    EXPECT_EQ(FindMetric(r[2].metrics, "scans").value_or(-1), 60);
    // Scans of 5 from inserted keys: only those near the end of the key space come up short.
    EXPECT_GT(FindMetric(r[2].metrics, "scanned_keys").value_or(-1), 250);
    EXPECT_LE(FindMetric(r[2].metrics, "scanned_keys").value_or(-1), 300);
    EXPECT_EQ(engine_.size(), 6000u);  // distinct keys, none twice
  }
}

TEST(SluiceDBCountersTest, ParsesAndDescribesIoAndChoices) {
  const Metrics io = ParseIoCountersText(
      "flushes=3 flush_bytes=1048576 compactions=1 compaction_bytes_read=2097152 "
      "compaction_bytes_written=2097152 wal_bytes=0 user_bytes=5 bogus=x");
  EXPECT_EQ(FindMetric(io, "io.flushes").value_or(-1), 3);
  EXPECT_EQ(FindMetric(io, "io.compaction_bytes_read").value_or(-1), 2097152);
  EXPECT_FALSE(FindMetric(io, "io.bogus").has_value());

  const Metrics choices = ParseMemtableChoicesText(
      "#1 skiplist: initial choice, nothing observed yet\n#2 vector: after 5 inserts, ...\n"
      "#3 vector: unchanged, ...\nnot a choice line\n");
  EXPECT_EQ(FindMetric(choices, "adaptive.skiplist").value_or(-1), 1);
  EXPECT_EQ(FindMetric(choices, "adaptive.vector").value_or(-1), 2);

  Metrics before = {{"io.flushes", 1}, {"adaptive.skiplist", 1}};
  Metrics after = io;
  after.insert(after.end(), choices.begin(), choices.end());
  Metrics derived;
  const std::string note = DescribeSluiceDBCounters(before, after, &derived);
  EXPECT_EQ(note,
            "[io: 2 flushes (1.0 MB), 1 compactions (read 2.0 MB, wrote 2.0 MB)] "
            "[adaptive: 2 vector]");
  EXPECT_EQ(FindMetric(derived, "flushes").value_or(-1), 2);
  EXPECT_EQ(FindMetric(derived, "adaptive_vector").value_or(-1), 2);
  EXPECT_FALSE(FindMetric(derived, "adaptive_skiplist").has_value());
  EXPECT_EQ(DescribeSluiceDBCounters({}, {}, &derived), "");
}

}  // namespace
}  // namespace sluice_bench
