// Memory components that grow with the writes they absorb: a family's first component is
// Options::initial_write_buffer_size bytes; each switch of a full one sizes the next for ten
// seconds of writes at the rate it filled, at least doubling it, up to write_buffer_size; a
// forced switch (Flush) keeps the size; an idle database holds a small component; a bad
// initial size is refused naming the option. Time comes from a manual clock (the Env's
// NowMicros), so the rate each component fills at is the test's, never the machine's.

#include <gtest/gtest.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "sluice/db.h"
#include "sluice/env.h"
#include "support/manual_clock_env.h"
#include "support/test_util.h"

namespace sluice::test {
namespace {

nlohmann::json Memory(DB* db) {
  std::string v;
  EXPECT_TRUE(db->GetProperty("sluice.stats-json", &v));
  return nlohmann::json::parse(v)["memory"];
}

size_t MutableSize(DB* db) { return Memory(db)["mutable_size"].get<size_t>(); }

class DBWriteBufferGrowthTest : public ::testing::TestWithParam<std::string> {
 protected:
  Options GrowingOptions() {
    Options o;
    o.create_if_missing = true;
    o.env = &clock_;
    o.memtable = GetParam();
    o.write_buffer_size = 1 << 20;
    o.initial_write_buffer_size = 64 << 10;
    o.level0_file_num_compaction_trigger = 100;  // the flushed files stay in L0
    o.level0_slowdown_writes_trigger = 100;
    o.level0_stop_writes_trigger = 100;
    o.level0_idle_compaction_ms = 0;
    return o;
  }
  // Puts 100-byte values under Key(*keys), Key(*keys + 1), ... (advancing the clock by
  // millis_per_write before each) until the mutable component is full-size; returns each size
  // the mutable component had, in order.
  std::vector<size_t> FillUntilFullSize(DB* db, uint64_t millis_per_write, int* keys) {
    std::vector<size_t> sizes = {MutableSize(db)};
    for (int n = 0; n < 200000 && sizes.back() < (1u << 20); n++, (*keys)++) {
      clock_.AdvanceMillis(millis_per_write);
      EXPECT_OK(db->Put(WriteOptions(), Key(*keys), kValue));
      const size_t size = MutableSize(db);
      if (size != sizes.back()) sizes.push_back(size);
    }
    return sizes;
  }
  const std::string kValue = std::string(100, 'v');
  ManualClockEnv clock_;
  TempDir dir_;
};

// Written slowly (a second per write: each component fills in minutes), every component is
// twice the one before.
TEST_P(DBWriteBufferGrowthTest, SlowlyFilledComponentsDoubleUpToWriteBufferSize) {
  std::unique_ptr<DB> db;
  ASSERT_OK(DB::Open(GrowingOptions(), dir_.File("db"), &db));
  int keys = 0;
  const std::vector<size_t> expected = {64 << 10, 128 << 10, 256 << 10, 512 << 10, 1 << 20};
  EXPECT_EQ(expected, FillUntilFullSize(db.get(), /*millis_per_write=*/1000, &keys));
  // Full size stays full size.
  for (int i = 0; i < 20000; i++, keys++) ASSERT_OK(db->Put(WriteOptions(), Key(keys), kValue));
  EXPECT_EQ(size_t{1} << 20, MutableSize(db.get()));
  std::string got;
  for (int i = 0; i < keys; i += 997) {
    ASSERT_OK(db->Get(ReadOptions(), Key(i), &got));
    EXPECT_EQ(kValue, got);
  }
}

// Written fast (the clock stands still: a component fills at once), the component after the
// first is already full-size: no run of small components, each a small L0 file.
TEST_P(DBWriteBufferGrowthTest, AFastFilledComponentIsFollowedByAFullSizeOne) {
  std::unique_ptr<DB> db;
  ASSERT_OK(DB::Open(GrowingOptions(), dir_.File("db"), &db));
  int keys = 0;
  const std::vector<size_t> expected = {64 << 10, 1 << 20};
  EXPECT_EQ(expected, FillUntilFullSize(db.get(), /*millis_per_write=*/0, &keys));
}

// A small component that filled up is not flushed alone: it waits for the next one, and both
// go into one L0 file (no small file to bring the L0 compaction one flush earlier).
TEST_P(DBWriteBufferGrowthTest, ASmallFullComponentIsFlushedWithTheNext) {
  std::unique_ptr<DB> db;
  ASSERT_OK(DB::Open(GrowingOptions(), dir_.File("db"), &db));
  int keys = 0;
  FillUntilFullSize(db.get(), /*millis_per_write=*/0, &keys);
  std::string v;
  ASSERT_TRUE(db->GetProperty("sluice.num-immutable-mem-table", &v));
  EXPECT_EQ("1", v) << "the small component was flushed alone";
  ASSERT_TRUE(db->GetProperty("sluice.num-files-at-level0", &v));
  EXPECT_EQ("0", v);
  // Flush switches the full-size one too; the pair becomes one file.
  for (int i = 0; i < 100; i++, keys++) ASSERT_OK(db->Put(WriteOptions(), Key(keys), kValue));
  ASSERT_OK(db->Flush());
  ASSERT_TRUE(db->GetProperty("sluice.num-files-at-level0", &v));
  EXPECT_EQ("1", v);
  ASSERT_TRUE(db->GetProperty("sluice.num-immutable-mem-table", &v));
  EXPECT_EQ("0", v);
  for (int i = 0; i < keys; i += 101) {
    ASSERT_OK(db->Get(ReadOptions(), Key(i), &v));
    EXPECT_EQ(kValue, v);
  }
}

TEST_P(DBWriteBufferGrowthTest, AForcedSwitchKeepsTheSize) {
  std::unique_ptr<DB> db;
  ASSERT_OK(DB::Open(GrowingOptions(), dir_.File("db"), &db));
  for (int round = 0; round < 3; round++) {
    ASSERT_OK(db->Put(WriteOptions(), Key(round), "v"));
    ASSERT_OK(db->Flush());
    EXPECT_EQ(size_t{64} << 10, MutableSize(db.get())) << "round " << round;
  }
}

TEST_P(DBWriteBufferGrowthTest, AnIdleDatabaseHoldsASmallComponent) {
  Options o;  // defaults: write_buffer_size 64 MiB, the first component 1 MiB
  o.create_if_missing = true;
  o.memtable = GetParam();
  std::unique_ptr<DB> db;
  ASSERT_OK(DB::Open(o, dir_.File("db"), &db));
  for (int i = 0; i < 1000; i++) ASSERT_OK(db->Put(WriteOptions(), Key(i), std::string(100, 'v')));
  const nlohmann::json m = Memory(db.get());
  EXPECT_EQ(size_t{1} << 20, m["mutable_size"].get<size_t>());
  EXPECT_LT(m["mutable_bytes"].get<size_t>(), size_t{1} << 20);
  // Sizing it for the full 64 MiB instead costs several MiB before the first write (FloDB).
  o.initial_write_buffer_size = o.write_buffer_size;
  std::unique_ptr<DB> full;
  ASSERT_OK(DB::Open(o, dir_.File("full"), &full));
  EXPECT_EQ(o.write_buffer_size, MutableSize(full.get()));
}

TEST_P(DBWriteBufferGrowthTest, AnInitialSizeAboveWriteBufferSizeIsRefused) {
  Options o = GrowingOptions();
  o.initial_write_buffer_size = 2 << 20;
  std::unique_ptr<DB> db;
  const Status s = DB::Open(o, dir_.File("db"), &db);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("initial_write_buffer_size")) << s.ToString();
}

INSTANTIATE_TEST_SUITE_P(Components, DBWriteBufferGrowthTest,
                         ::testing::Values("flodb", "skiplist", "hash-skiplist", "vector",
                                           "adaptive"),
                         [](const auto& info) {
                           std::string name = info.param;
                           for (char& c : name) {
                             if (c == '-') c = '_';
                           }
                           return name;
                         });

}  // namespace
}  // namespace sluice::test
