// Fault-injection tests through the Env seam: a failing WAL append (ENOSPC), a failing fsync,
// ENOSPC in a flush and in a compaction, a failing MANIFEST write and a failing rename of
// CURRENT. In each case the operation reports the error, the DB turns read-only where it must
// (later writes return the error, reads keep working), every acknowledged write survives, and
// the DB reopens cleanly once the fault is gone. Simulated crashes (the disk frozen at an
// instant, with or without losing unsynced data) keep every acknowledged (resp. synced) write.

#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "support/db_test_util.h"
#include "support/fault_env.h"

namespace sluice::test {

namespace {

class DBFaultTest : public DBTestBase, public ::testing::Test {
 public:
  DBFaultTest() : DBTestBase("skiplist") {}

  Options FaultOptions() {
    Options o = DefaultOptions();
    o.env = &env_;
    return o;
  }
  // Closes (errors expected), disarms, reopens with a healthy Env.
  void RecoverHealthy() {
    if (db_ != nullptr) {
      db_->Close();
      db_.reset();
    }
    env_.Disarm();
    Options o = DefaultOptions();
    o.env = Env::Default();
    Open(o);
  }

  FaultEnv env_;
};

}  // namespace

TEST_F(DBFaultTest, WalAppendFailureIsReturnedAndMakesTheDbReadOnly) {
  Open(FaultOptions());
  for (int i = 0; i < 100; i++) ASSERT_TRUE(Put(Key(i), Value(i)).ok());
  env_.Arm(FaultEnv::Op::kAppend, ".log");
  Status s = Put("fails", "x");
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("No space left"));
  EXPECT_NE(std::string::npos, s.ToString().find(".log"));
  env_.Disarm();
  s = Put("after", "x");
  EXPECT_TRUE(s.IsIOError()) << "writes after a WAL error must fail: " << s.ToString();
  EXPECT_EQ(Value(7), Get(Key(7)));  // reads still work
  RecoverHealthy();
  for (int i = 0; i < 100; i++) ASSERT_EQ(Value(i), Get(Key(i)));
  EXPECT_EQ("NOT_FOUND", Get("after"));
  EXPECT_TRUE(Put("healthy", "again").ok());
}

TEST_F(DBFaultTest, FsyncFailureFailsTheSyncedWrite) {
  Open(FaultOptions());
  ASSERT_TRUE(Put("before", "1", /*sync=*/true).ok());
  env_.Arm(FaultEnv::Op::kSync, ".log");
  Status s = Put("synced", "2", /*sync=*/true);
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
  EXPECT_TRUE(Put("next", "3").IsIOError());
  RecoverHealthy();
  EXPECT_EQ("1", Get("before"));
}

TEST_F(DBFaultTest, NoSpaceDuringFlushKeepsAcknowledgedWrites) {
  Open(FaultOptions());
  env_.Arm(FaultEnv::Op::kAppend, ".sst");
  Status s;
  int acknowledged = 0;
  for (int i = 0; i < 5000 && s.ok(); i++) {
    s = Put(Key(i), Value(i));
    if (s.ok()) acknowledged = i + 1;
  }
  // The background flush failed: writes now fail with its error (or wait and then fail).
  if (s.ok()) s = db()->Flush();
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
  EXPECT_TRUE(Put("x", "y").IsIOError());
  EXPECT_GT(env_.failures(), 0);
  EXPECT_EQ(Value(0), Get(Key(0)));
  RecoverHealthy();
  for (int i = 0; i < acknowledged; i++) ASSERT_EQ(Value(i), Get(Key(i))) << i;
  EXPECT_TRUE(FilesWithSuffix(dbname(), ".dbtmp").empty());
}

TEST_F(DBFaultTest, NoSpaceDuringCompactionKeepsEverything) {
  Options o = FaultOptions();
  o.level0_file_num_compaction_trigger = 100;  // compactions only when asked
  o.level0_slowdown_writes_trigger = 100;
  o.level0_stop_writes_trigger = 100;
  Open(o);
  for (int round = 0; round < 4; round++) {
    for (int i = 0; i < 500; i++) ASSERT_TRUE(Put(Key(i), Value(i + round)).ok());
    ASSERT_TRUE(db()->Flush().ok());
  }
  env_.Arm(FaultEnv::Op::kAppend, ".sst", /*after=*/3);
  Status s = db()->CompactRange(nullptr, nullptr);
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
  for (int i = 0; i < 500; i++) ASSERT_EQ(Value(i + 3), Get(Key(i)));
  RecoverHealthy();
  for (int i = 0; i < 500; i++) ASSERT_EQ(Value(i + 3), Get(Key(i)));
  ASSERT_TRUE(db()->CompactRange(nullptr, nullptr).ok());
  for (int i = 0; i < 500; i++) ASSERT_EQ(Value(i + 3), Get(Key(i)));
}

TEST_F(DBFaultTest, ManifestWriteFailureDuringFlush) {
  Open(FaultOptions());
  for (int i = 0; i < 200; i++) ASSERT_TRUE(Put(Key(i), Value(i)).ok());
  env_.Arm(FaultEnv::Op::kAppend, "MANIFEST");
  Status s = db()->Flush();
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("MANIFEST"));
  RecoverHealthy();
  for (int i = 0; i < 200; i++) ASSERT_EQ(Value(i), Get(Key(i)));
}

TEST_F(DBFaultTest, FailedRenameOfCurrentFailsOpenThenReopenWorks) {
  Open(FaultOptions());
  ASSERT_TRUE(Put("k", "v").ok());
  Close();
  env_.Arm(FaultEnv::Op::kRename, "");
  Status s = TryOpen(FaultOptions());
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
  RecoverHealthy();
  EXPECT_EQ("v", Get("k"));
}

// The disk freezes at a random instant under concurrent writers (a crash of the process):
// every write acknowledged before the freeze is recovered.
TEST_F(DBFaultTest, CrashUnderConcurrentWritersKeepsAcknowledgedWrites) {
  Options o = FaultOptions();
  o.write_buffer_size = 32 << 10;  // switches, flushes and compactions happen during the run
  o.level0_file_num_compaction_trigger = 2;
  Open(o);
  constexpr int kThreads = 3;
  std::vector<std::atomic<int>> acked(kThreads);
  std::atomic<bool> stop{false};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; t++) {
    threads.emplace_back([&, t] {
      for (int i = 0; !stop.load(); i++) {
        if (!Put(Key(t * 1000000 + i), Value(i)).ok()) break;
        acked[t].store(i + 1);
      }
    });
  }
  while (acked[0].load() + acked[1].load() + acked[2].load() < 6000) std::this_thread::yield();
  std::vector<int> before(kThreads);
  for (int t = 0; t < kThreads; t++) before[t] = acked[t].load();
  env_.Freeze();
  std::vector<int> at_freeze(kThreads);
  for (int t = 0; t < kThreads; t++) at_freeze[t] = acked[t].load();
  stop.store(true);
  for (auto& th : threads) th.join();
  RecoverHealthy();
  for (int t = 0; t < kThreads; t++) {
    // Every write acknowledged before the freeze is there; per writer the recovered writes form
    // a prefix (sequence order follows each writer's program order).
    for (int i = 0; i < at_freeze[t]; i++) {
      ASSERT_EQ(Value(i), Get(Key(t * 1000000 + i))) << "writer " << t << " write " << i;
    }
    int n = 0;
    while (Get(Key(t * 1000000 + n)) == Value(n)) n++;
    for (int i = n; i < n + 50; i++) ASSERT_EQ("NOT_FOUND", Get(Key(t * 1000000 + i)));
    EXPECT_GE(n, before[t]);
  }
}

// A power loss: only synced data survives. Every write acknowledged with sync=true is there.
TEST_F(DBFaultTest, PowerLossKeepsSyncedWrites) {
  Options o = FaultOptions();
  o.write_buffer_size = 32 << 10;
  Open(o);
  for (int i = 0; i < 3000; i++) {
    ASSERT_TRUE(Put(Key(i), Value(i), /*sync=*/i % 10 == 0).ok());
  }
  env_.Freeze();
  env_.DropUnsyncedData();
  RecoverHealthy();
  int n = 0;
  while (n < 3000 && Get(Key(n)) == Value(n)) n++;
  EXPECT_GE(n, 2991) << "the last synced write (2990) and everything before it survive";
  for (int i = n; i < 3000; i++) ASSERT_EQ("NOT_FOUND", Get(Key(i))) << "a hole at " << n;
}

}  // namespace sluice::test
