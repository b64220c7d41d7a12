// Many databases in one process: they add no threads of their own (their flushes, compactions
// and drains are tasks on the process-wide pools, util/task_scheduler.h); they open, write and
// close at once, each on its own (run under TSan by make test-tsan); closing one waits only for
// its own tasks; a flush is never queued behind compactions; an idle FloDB component queues no
// drain work; the pools are sized through Env::SetBackgroundThreads.

#include <dirent.h>
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "sluice/db.h"
#include "sluice/env.h"
#include "support/compaction_gate.h"
#include "support/db_test_util.h"
#include "support/sync_point_scope.h"
#include "support/test_util.h"
#include "util/epoch.h"
#include "util/task_scheduler.h"

namespace sluice::test {
namespace {

using Pool = TaskScheduler::Pool;

int ThreadsOfThisProcess() {
  int n = 0;
  DIR* d = opendir("/proc/self/task");
  if (d == nullptr) return -1;
  while (dirent* e = readdir(d)) {
    if (e->d_name[0] != '.') n++;
  }
  closedir(d);
  return n;
}

std::unique_ptr<DB> OpenOrDie(const Options& options, const std::string& path) {
  std::unique_ptr<DB> db;
  Status s = DB::Open(options, path, &db);
  EXPECT_TRUE(s.ok()) << path << ": " << s.ToString();
  return db;
}

void WriteKeys(DB* db, int n, int seed) {
  for (int i = 0; i < n; i++) {
    ASSERT_TRUE(db->Put(WriteOptions(), Key(i), Value(seed + i)).ok());
  }
}

// What a test changes of the process-wide pools it restores.
class PoolSizes {
 public:
  PoolSizes() {
    for (int p = 0; p < TaskScheduler::kPools; p++) {
      sizes_[static_cast<size_t>(p)] = TaskScheduler::Default().Threads(static_cast<Pool>(p));
    }
  }
  ~PoolSizes() {
    for (int p = 0; p < TaskScheduler::kPools; p++) {
      TaskScheduler::Default().SetThreads(static_cast<Pool>(p), sizes_[static_cast<size_t>(p)]);
    }
  }

 private:
  std::array<int, TaskScheduler::kPools> sizes_{};
};

TEST(DBInstancesTest, TwentyDatabasesAddNoThreads) {
  TempDir dir;
  Options options;
  options.create_if_missing = true;
  {
    // Whatever the process starts once (the pools, the epoch reclaimer) is started here.
    auto first = OpenOrDie(options, dir.File("first"));
    WriteKeys(first.get(), 1000, 0);
    ASSERT_TRUE(first->Flush().ok());
  }
  const int before = ThreadsOfThisProcess();
  ASSERT_GT(before, 0);
  std::vector<std::unique_ptr<DB>> dbs;
  for (int i = 0; i < 20; i++) {
    Options o = options;
    o.memtable = i % 2 == 0 ? "flodb" : "skiplist";
    dbs.push_back(OpenOrDie(o, dir.File("db" + std::to_string(i))));
    WriteKeys(dbs.back().get(), 1000, i);
  }
  EXPECT_EQ(ThreadsOfThisProcess(), before);  // one thread each would be 20, three each 60
  for (auto& db : dbs) ASSERT_TRUE(db->Flush().ok());
  EXPECT_EQ(ThreadsOfThisProcess(), before);
  for (int i = 0; i < 20; i++) {
    std::string value;
    ASSERT_TRUE(dbs[static_cast<size_t>(i)]->Get(ReadOptions(), Key(999), &value).ok());
    EXPECT_EQ(value, Value(i + 999));
  }
  dbs.clear();
  EXPECT_EQ(ThreadsOfThisProcess(), before);
}

TEST(DBInstancesTest, DatabasesOpenWriteAndCloseAtOnce) {
  TempDir dir;
  constexpr int kThreads = 4;
  constexpr int kRounds = 4;
  constexpr int kKeys = 1500;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; t++) {
    threads.emplace_back([&, t] {
      Options options;
      options.create_if_missing = true;
      options.memtable = t % 2 == 0 ? "flodb" : "skiplist";
      // Small components and levels: each round flushes and compacts several times.
      options.write_buffer_size = 64 << 10;
      options.target_file_size_base = 64 << 10;
      options.max_bytes_for_level_base = 256 << 10;
      options.level0_file_num_compaction_trigger = 2;
      const std::string path = dir.File("db" + std::to_string(t));
      for (int round = 0; round < kRounds; round++) {
        auto db = OpenOrDie(options, path);
        if (db == nullptr) return;
        for (int i = 0; i < kKeys; i++) {
          ASSERT_TRUE(db->Put(WriteOptions(), Key(i), Value(round * kKeys + i)).ok());
        }
        std::string value;
        ASSERT_TRUE(db->Get(ReadOptions(), Key(kKeys / 2), &value).ok());
        EXPECT_EQ(value, Value(round * kKeys + kKeys / 2));
        if (round % 2 == 1) {
          ASSERT_TRUE(db->Flush().ok());
        }
        ASSERT_TRUE(db->Close().ok());
      }
    });
  }
  for (auto& th : threads) th.join();
  for (int t = 0; t < kThreads; t++) {
    Options options;
    options.memtable = t % 2 == 0 ? "flodb" : "skiplist";
    auto db = OpenOrDie(options, dir.File("db" + std::to_string(t)));
    ASSERT_NE(db, nullptr);
    int n = 0;
    auto it = db->NewIterator(ReadOptions());
    for (it->SeekToFirst(); it->Valid(); it->Next(), n++) {
      ASSERT_EQ(it->value().ToString(), Value((kRounds - 1) * kKeys + n)) << t << " " << n;
    }
    ASSERT_TRUE(it->status().ok());
    EXPECT_EQ(n, kKeys);
  }
}

// Database A's compaction is held on the low pool's only thread. B (another DB) still flushes
// (the high pool) and closes at once: its close drops its queued low-priority tasks and waits
// for none of A's.
TEST(DBInstancesTest, CloseWaitsOnlyForItsOwnTasksAndFlushesPassCompactions) {
  SKIP_WITHOUT_SYNC_POINTS();
  PoolSizes restore;
  TaskScheduler::Default().SetThreads(Pool::kLow, 1);
  TempDir dir;
  SyncPointScope sync;
  CompactionGate gate(&sync);
  Options options;
  options.create_if_missing = true;
  options.memtable = "skiplist";
  options.level0_file_num_compaction_trigger = 2;
  auto a = OpenOrDie(options, dir.File("a"));
  for (int f = 0; f < 2; f++) {
    WriteKeys(a.get(), 100, f);
    ASSERT_TRUE(a->Flush().ok());
  }
  ASSERT_TRUE(gate.WaitUntilHeld());
  {
    Options b_options = options;
    b_options.level0_file_num_compaction_trigger = 10;  // B never compacts
    auto b = OpenOrDie(b_options, dir.File("b"));
    WriteKeys(b.get(), 100, 7);
    ASSERT_TRUE(b->Flush().ok());  // the high pool: not behind A's compaction
    ASSERT_TRUE(b->Close().ok());
  }
  // A's compaction is still held (had B's close waited for it, it would have given up after
  // the gate's patience and finished): L0 still holds both files.
  std::string files;
  ASSERT_TRUE(a->GetProperty("sluice.num-files-at-level0", &files));
  EXPECT_EQ(files, "2");
  gate.Release();
  ASSERT_TRUE(a->Close().ok());
}

TEST(DBInstancesTest, AnIdleFloDBComponentQueuesNoDrainWork) {
  TempDir dir;
  Options options;
  options.create_if_missing = true;
  options.memtable = "flodb";
  auto db = OpenOrDie(options, dir.File("db"));
  WriteKeys(db.get(), 2000, 0);
  // The drain chain moves everything once writes stop, then ends: nothing queued, delayed or
  // running on the drain pool (this is the only DB of the process).
  EXPECT_TRUE(Eventually([] {
    const TaskScheduler::PoolCounts c = TaskScheduler::Default().Counts(Pool::kDrain);
    return c.queued == 0 && c.delayed == 0 && c.running == 0;
  }));
  std::string value;
  ASSERT_TRUE(db->Get(ReadOptions(), Key(1234), &value).ok());
  EXPECT_EQ(value, Value(1234));
  // A new write starts a chain again.
  const uint64_t completed = TaskScheduler::Default().Counts(Pool::kDrain).completed;
  WriteKeys(db.get(), 10, 5000);
  EXPECT_TRUE(Eventually(
      [&] { return TaskScheduler::Default().Counts(Pool::kDrain).completed > completed; }));
  ASSERT_TRUE(db->Get(ReadOptions(), Key(5), &value).ok());
  EXPECT_EQ(value, Value(5005));
}

TEST(DBInstancesTest, EnvSizesTheProcessWidePools) {
  PoolSizes restore;
  Env* env = Env::Default();
  env->SetBackgroundThreads(3, Env::Priority::kHigh);
  env->SetBackgroundThreads(5);  // kLow
  env->SetBackgroundThreads(2, Env::Priority::kDrain);
  EXPECT_EQ(env->GetBackgroundThreads(Env::Priority::kHigh), 3);
  EXPECT_EQ(env->GetBackgroundThreads(), 5);
  EXPECT_EQ(env->GetBackgroundThreads(Env::Priority::kDrain), 2);
  EXPECT_EQ(TaskScheduler::Default().Threads(Pool::kLow), 5);
  env->SetBackgroundThreads(0, Env::Priority::kHigh);  // clamped to 1
  EXPECT_EQ(env->GetBackgroundThreads(Env::Priority::kHigh), 1);
  // A DB that asks for more parallel compactions grows the low pool, never shrinks it.
  env->SetBackgroundThreads(1);
  TempDir dir;
  Options options;
  options.create_if_missing = true;
  options.max_background_jobs = 5;
  auto db = OpenOrDie(options, dir.File("db"));
  EXPECT_EQ(env->GetBackgroundThreads(), 4);
}

}  // namespace
}  // namespace sluice::test
