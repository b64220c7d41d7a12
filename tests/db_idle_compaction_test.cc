// The idle L0 compaction (Options::level0_idle_compaction_ms): once no write has been applied
// for the delay, level 0 is compacted into level 1 below its file-count trigger; writes keep
// resetting the delay; "sluice.idle-compaction-pending" says whether it is still owed. Time
// comes from a manual clock (the Env's NowMicros), so which side of the delay each check falls
// on is decided by the test, never by the machine's speed.

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>

#include "sluice/db.h"
#include "sluice/env.h"
#include "support/db_test_util.h"
#include "support/manual_clock_env.h"
#include "support/test_util.h"

namespace sluice::test {
namespace {

constexpr int kDelayMs = 20;

class DBIdleCompactionTest : public DBTestBase, public ::testing::Test {
 public:
  DBIdleCompactionTest() : DBTestBase("flodb") {}
  ~DBIdleCompactionTest() override { Close(); }

  Options IdleOptions(int delay_ms) {
    Options o = DefaultOptions();
    o.env = &clock_;
    o.level0_idle_compaction_ms = delay_ms;
    o.write_buffer_size = 4 << 20;             // flushes only when asked
    o.level0_file_num_compaction_trigger = 4;  // two flushes stay below it
    o.level0_slowdown_writes_trigger = 20;
    o.level0_stop_writes_trigger = 36;
    return o;
  }

  // Two L0 files: keys 0..n-1, then every other key overwritten.
  void TwoLevel0Files(int n) {
    for (int i = 0; i < n; i++) ASSERT_OK(Put(Key(i), Value(i)));
    ASSERT_OK(db()->Flush());
    for (int i = 0; i < n; i += 2) ASSERT_OK(Put(Key(i), Value(i + n)));
    ASSERT_OK(db()->Flush());
  }

  uint64_t IdleCompactions() {
    std::string v;
    EXPECT_TRUE(db()->GetProperty("sluice.stats-json", &v));
    return nlohmann::json::parse(v)["compactions"]["idle_level0"].get<uint64_t>();
  }

  std::string IdleCompactionPending() {
    std::string v;
    EXPECT_TRUE(db()->GetProperty("sluice.idle-compaction-pending", &v));
    return v;
  }

  ManualClockEnv clock_;
};

TEST_F(DBIdleCompactionTest, WritesKeepResettingTheDelayThenIdleL0IsCompactedIntoL1) {
  Open(IdleOptions(kDelayMs));
  constexpr int kKeys = 400;
  TwoLevel0Files(kKeys);
  EXPECT_EQ(2, NumFilesAtLevel(0));
  // Below the trigger, so RocksDB's counters call the tree settled; the idle compaction is owed.
  std::string v;
  ASSERT_TRUE(db()->GetProperty("sluice.compaction-pending", &v));
  EXPECT_EQ("0", v);
  EXPECT_EQ("1", IdleCompactionPending());
  // A write every 3/4 of the delay: the background thread sees each sequence number for less
  // than the delay of manual time, however its looks interleave with the writes.
  for (int i = 0; i < 30; i++) {
    ASSERT_OK(Put("w" + std::to_string(i), "x"));
    clock_.AdvanceMillis(kDelayMs * 3 / 4);
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  EXPECT_EQ(2, NumFilesAtLevel(0)) << "compacted while writes went on";
  EXPECT_EQ(0u, IdleCompactions());

  // Writes stop: manual time passes the delay (advanced until the background thread has seen
  // the last sequence number long enough).
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (NumFilesAtLevel(0) != 0 && std::chrono::steady_clock::now() < deadline) {
    clock_.AdvanceMillis(kDelayMs * 2);
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  ASSERT_EQ(0, NumFilesAtLevel(0)) << "an idle DB kept its L0 files";
  EXPECT_GE(NumFilesAtLevel(1), 1);
  EXPECT_EQ(1u, IdleCompactions());
  EXPECT_EQ("0", IdleCompactionPending());
  std::string stats;
  ASSERT_TRUE(db()->GetProperty("sluice.stats", &stats));
  EXPECT_NE(std::string::npos, stats.find("(1 of L0 into L1 once writes stopped, 0 once scans"))
      << stats;

  for (int i = 0; i < kKeys; i++) {
    ASSERT_EQ(i % 2 == 0 ? Value(i + kKeys) : Value(i), Get(Key(i))) << i;
  }
  Reopen();
  EXPECT_EQ(static_cast<size_t>(kKeys + 30), ContentsMap().size());
}

TEST_F(DBIdleCompactionTest, ZeroDelayNeverCompactsBelowTheTrigger) {
  Open(IdleOptions(0));
  TwoLevel0Files(200);
  for (int i = 0; i < 20; i++) {
    clock_.AdvanceMillis(60 * 1000);
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  EXPECT_EQ(2, NumFilesAtLevel(0));
  EXPECT_EQ(0u, IdleCompactions());
  EXPECT_EQ("0", IdleCompactionPending()) << "owed a compaction that never runs";
}

}  // namespace
}  // namespace sluice::test
