// tests/db_write_stall_test.cc — the stall policy in a running DB (db/write_controller.h):
// compactions are held at a sync point so L0 (and with it the compaction debt) stays where the
// test put it. At the slowdown trigger writes are paced to the rate (they take at least the
// time their bytes cost) and counted; at the stop trigger, or the hard pending-bytes limit, a
// write waits until the held compaction is let go, then completes; once compaction has caught
// up writes run freely again. The properties report each state.

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>

#include "support/compaction_gate.h"
#include "support/db_test_util.h"
#include "support/sync_point_scope.h"
#include "support/test_util.h"

namespace sluice::test {
namespace {

constexpr auto kPatience = CompactionGate::kPatience;

class DBWriteStallTest : public DBTestBase, public ::testing::Test {
 public:
  DBWriteStallTest() : DBTestBase("flodb") {}
  ~DBWriteStallTest() override { Close(); }

  Options StallOptions() const {
    Options o = DefaultOptions();
    o.write_buffer_size = 4 << 20;  // flushes only when asked
    o.level0_file_num_compaction_trigger = 2;
    o.level0_slowdown_writes_trigger = 2;
    o.level0_stop_writes_trigger = 3;
    o.level0_idle_compaction_ms = 0;
    o.soft_pending_compaction_bytes_limit = 0;
    o.hard_pending_compaction_bytes_limit = 0;
    o.delayed_write_rate = 64 << 20;
    return o;
  }

  // One L0 file of kKeys keys.
  static constexpr int kKeys = 100;
  void FlushOneFile(int round) {
    for (int i = 0; i < kKeys; i++) ASSERT_OK(Put(Key(i), Value(round)));
    ASSERT_OK(db()->Flush());
  }

  std::string Property(const std::string& name) {
    std::string v;
    EXPECT_TRUE(db()->GetProperty("sluice." + name, &v)) << name;
    return v;
  }
  uint64_t Stall(const std::string& field) {
    return nlohmann::json::parse(Property("stats-json"))["stalls"][field].get<uint64_t>();
  }
  // A Put from another thread is still waiting 100 ms later; it completes once the gate
  // lets the held compaction go.
  void ExpectAWriteWaitsUntilReleased(CompactionGate* gate) {
    std::atomic<bool> returned{false};
    Status put_status;
    std::thread writer([&] {
      put_status = Put("blocked", "value");
      returned = true;
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    EXPECT_FALSE(returned.load());  // waiting for compaction
    gate->Release();
    writer.join();
    ASSERT_OK(put_status);
    EXPECT_EQ(Get("blocked"), "value");
  }

  // Waits until compaction has nothing left to do (bounded by kPatience).
  void WaitForCompactions() {
    const auto deadline = std::chrono::steady_clock::now() + kPatience;
    while (Property("compaction-pending") != "0" || Property("num-running-compactions") != "0") {
      ASSERT_LT(std::chrono::steady_clock::now(), deadline);
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
  }
};

TEST_F(DBWriteStallTest, TheSlowdownTriggerPacesWritesToTheRate) {
  SKIP_WITHOUT_SYNC_POINTS();
  SyncPointScope sync;
  CompactionGate gate(&sync);
  Options o = StallOptions();
  o.level0_stop_writes_trigger = 100;
  o.delayed_write_rate = 256 << 10;  // 256 KiB/s: 100 writes of ~120 bytes take >= 45 ms
  Open(o);
  EXPECT_EQ(Property("actual-delayed-write-rate"), "0");
  FlushOneFile(0);
  FlushOneFile(1);  // L0 = 2: the slowdown trigger
  ASSERT_TRUE(gate.WaitUntilHeld());
  EXPECT_EQ(Property("actual-delayed-write-rate"), std::to_string(256 << 10));
  EXPECT_EQ(Property("is-write-stopped"), "0");

  const uint64_t slowdowns = Stall("slowdowns");
  const auto start = std::chrono::steady_clock::now();
  uint64_t bytes = 0;
  for (int i = 0; i < kKeys; i++) {
    const std::string v = Value(i);
    ASSERT_OK(Put(Key(i), v));
    bytes += Key(i).size() + v.size();
  }
  const double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(Stall("slowdowns"), slowdowns + kKeys);
  // Paced: the writes took at least what their bytes cost at the rate, less the one slice a
  // clock may run ahead without sleeping (sleeping can only make them slower).
  EXPECT_GE(elapsed, static_cast<double>(bytes) / (256 << 10) - 0.002);

  gate.Release();
  WaitForCompactions();
  EXPECT_EQ(Property("actual-delayed-write-rate"), "0");
  const uint64_t after = Stall("slowdowns");
  for (int i = 0; i < kKeys; i++) ASSERT_OK(Put(Key(i), Value(i)));
  EXPECT_EQ(Stall("slowdowns"), after);  // caught up: no more pacing
}

TEST_F(DBWriteStallTest, TheStopTriggerHoldsWritesUntilCompactionCatchesUp) {
  SKIP_WITHOUT_SYNC_POINTS();
  SyncPointScope sync;
  CompactionGate gate(&sync);
  Open(StallOptions());
  FlushOneFile(0);
  FlushOneFile(1);
  ASSERT_TRUE(gate.WaitUntilHeld());
  FlushOneFile(2);  // L0 = 3: the stop trigger (the held compaction took the first two)
  EXPECT_EQ(Property("is-write-stopped"), "1");

  ExpectAWriteWaitsUntilReleased(&gate);
  EXPECT_GE(Stall("stops"), 1u);
  WaitForCompactions();
  EXPECT_EQ(Property("is-write-stopped"), "0");
}

TEST_F(DBWriteStallTest, TheHardPendingBytesLimitStopsWrites) {
  SKIP_WITHOUT_SYNC_POINTS();
  SyncPointScope sync;
  CompactionGate gate(&sync);
  Options o = StallOptions();
  o.level0_slowdown_writes_trigger = 100;  // only the debt decides
  o.level0_stop_writes_trigger = 100;
  o.hard_pending_compaction_bytes_limit = 1;  // any debt stops writes
  Open(o);
  FlushOneFile(0);
  EXPECT_EQ(Property("estimate-pending-compaction-bytes"), "0");  // below L0's trigger
  FlushOneFile(1);
  ASSERT_TRUE(gate.WaitUntilHeld());
  EXPECT_GT(std::stoull(Property("estimate-pending-compaction-bytes")), 0u);
  EXPECT_EQ(Property("is-write-stopped"), "1");

  ExpectAWriteWaitsUntilReleased(&gate);
  WaitForCompactions();
  EXPECT_EQ(Property("estimate-pending-compaction-bytes"), "0");
  EXPECT_EQ(Property("is-write-stopped"), "0");
}

}  // namespace
}  // namespace sluice::test
