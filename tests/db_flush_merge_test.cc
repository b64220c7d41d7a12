// tests/db_flush_merge_test.cc — Options::level0_backlog_flush_merge in a running DB: while an
// L0 compaction runs (held at a sync point) and L0 holds twice its trigger's files (a deep
// backlog), the flush of one immutable component waits for a second and writes both as one L0
// file, keeping the versions a snapshot needs and the range tombstones of both; in a shallow
// backlog, outside one, or with merge 1, each component is its own file; a caller of Flush()
// never waits for the held flush. Run with each memory component kind that matters here: the
// skiplist (plain) and FloDB (whose immutable components are drained at the flush).

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

class DBFlushMergeTest : public DBTestBase, public ::testing::TestWithParam<const char*> {
 public:
  DBFlushMergeTest() : DBTestBase(GetParam()) {}
  ~DBFlushMergeTest() override { Close(); }

  Options MergeOptions(int merge) const {
    Options o = DefaultOptions();  // 64 KiB components: a switch every few hundred writes
    o.level0_file_num_compaction_trigger = 2;
    o.level0_slowdown_writes_trigger = 100;  // no stall policy in the way
    o.level0_stop_writes_trigger = 100;
    o.soft_pending_compaction_bytes_limit = 0;
    o.hard_pending_compaction_bytes_limit = 0;
    o.level0_idle_compaction_ms = 0;
    o.max_write_buffer_number = 3;
    o.level0_backlog_flush_merge = merge;
    return o;
  }

  uint64_t Number(const std::string& name) {
    std::string v;
    EXPECT_TRUE(db()->GetProperty("sluice." + name, &v)) << name;
    return v.empty() ? 0 : std::stoull(v);
  }
  uint64_t Merged(const char* field) {
    std::string v;
    EXPECT_TRUE(db()->GetProperty("sluice.stats-json", &v));
    return nlohmann::json::parse(v)["flushes"][field].get<uint64_t>();
  }

  // The sync points armed and a gate on them, for as long as a test holds it.
  struct Held {
    SyncPointScope sync;
    CompactionGate gate{&sync};
  };
  // Opens with MergeOptions(merge) and writes two L0 files (the trigger): their compaction
  // starts and the gate holds it, so L0 stays in a backlog until held->gate.Release(). Then two
  // more files, each its own (L0 holds fewer than twice the trigger): the backlog is deep.
  void OpenWithAHeldLevel0Compaction(int merge, Held* held) {
    Open(MergeOptions(merge));
    for (int round = 0; round < 4; round++) {
      for (int i = 0; i < 10; i++) ASSERT_OK(Put("base" + std::to_string(i), Value(round)));
      ASSERT_OK(db()->Flush());
      if (round == 1) {
        ASSERT_TRUE(held->gate.WaitUntilHeld());
      }
    }
    ASSERT_EQ(NumFilesAtLevel(0), 4);
    ASSERT_EQ(Merged("merged"), 0u);
  }

  // Writes key{next_}, key{next_ + 1}, ... until done() (at most 100,000 writes).
  template <typename Done>
  void WriteUntil(const Done& done) {
    for (int n = 0; !done(); n++) {
      ASSERT_LT(n, 100000) << "the condition never came";
      ASSERT_OK(Put(Key(next_), Value(next_)));
      next_++;
    }
  }
  void ExpectEveryKeyWritten() {
    for (int i = 0; i < next_; i++) ASSERT_EQ(Get(Key(i)), Value(i)) << i;
  }

  int next_ = 0;
};

TEST_P(DBFlushMergeTest, ABacklogFlushWaitsForASecondComponentAndWritesBothAsOneFile) {
  SKIP_WITHOUT_SYNC_POINTS();
  Held held;
  OpenWithAHeldLevel0Compaction(2, &held);

  // A version of "dup" in the first component, seen by a snapshot, and a newer one in the
  // second: the merged flush must keep both.
  ASSERT_OK(Put("dup", "old"));
  const Snapshot* snapshot = db()->GetSnapshot();
  WriteUntil([&] { return Number("num-immutable-mem-table") == 1; });
  ASSERT_OK(Put("dup", "new"));
  // Held: a compaction runs, one component is ready of the two the flush merges.
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_EQ(Number("num-immutable-mem-table"), 1u);
  EXPECT_EQ(NumFilesAtLevel(0), 4);
  EXPECT_EQ(Merged("merged"), 0u);

  // The second switch: both go to one file.
  WriteUntil([&] { return NumFilesAtLevel(0) == 5; });
  EXPECT_EQ(Merged("merged"), 1u);
  EXPECT_EQ(Merged("merged_components"), 2u);
  EXPECT_EQ(Get("dup"), "new");
  EXPECT_EQ(Get("dup", snapshot), "old");
  ExpectEveryKeyWritten();

  held.gate.Release();
  db()->ReleaseSnapshot(snapshot);
  ASSERT_OK(db()->Flush());
  ExpectEveryKeyWritten();
  EXPECT_EQ(Get("dup"), "new");
  Reopen();  // the merged file and the log numbers its edit set recover
  ExpectEveryKeyWritten();
  EXPECT_EQ(Get("dup"), "new");
}

TEST_P(DBFlushMergeTest, AMergedFlushKeepsTheRangeTombstonesOfBothComponents) {
  SKIP_WITHOUT_SYNC_POINTS();
  Held held;
  OpenWithAHeldLevel0Compaction(2, &held);
  const WriteOptions wo;

  // First component: a tombstone over keys of the held L0 files (base3..base5) and over two
  // writes of its own.
  ASSERT_OK(Put("r1a", "x"));
  ASSERT_OK(Put("r1b", "x"));
  ASSERT_OK(db()->DeleteRange(wo, "base3", "base6"));
  ASSERT_OK(db()->DeleteRange(wo, "r1", "r2"));
  const Snapshot* snapshot = db()->GetSnapshot();
  WriteUntil([&] { return Number("num-immutable-mem-table") == 1; });
  // Second component: a tombstone the snapshot must not see, and a write over the first one.
  ASSERT_OK(db()->DeleteRange(wo, "base0", "base2"));
  ASSERT_OK(Put("r1a", "back"));
  WriteUntil([&] { return NumFilesAtLevel(0) == 5; });
  ASSERT_EQ(Merged("merged"), 1u);

  const auto expect = [&](bool with_snapshot) {
    for (int i = 0; i < 10; i++) {
      const std::string k = "base" + std::to_string(i);
      const bool deleted = (i >= 3 && i < 6) || i < 2;
      EXPECT_EQ(Get(k), deleted ? "NOT_FOUND" : Value(3)) << k;
      if (with_snapshot) {
        EXPECT_EQ(Get(k, snapshot), i >= 3 && i < 6 ? "NOT_FOUND" : Value(3)) << k;
      }
    }
    EXPECT_EQ(Get("r1a"), "back");
    EXPECT_EQ(Get("r1b"), "NOT_FOUND");
    ExpectEveryKeyWritten();
  };
  expect(true);
  held.gate.Release();
  ASSERT_OK(db()->CompactRange(nullptr, nullptr));
  expect(true);
  db()->ReleaseSnapshot(snapshot);
  Reopen();  // the tombstones live in the merged file (and after it, in compaction outputs)
  expect(false);
}

TEST_P(DBFlushMergeTest, FlushDoesNotWaitForTheHeldFlush) {
  SKIP_WITHOUT_SYNC_POINTS();
  Held held;
  OpenWithAHeldLevel0Compaction(2, &held);
  ASSERT_OK(Put("a", "1"));  // in the mutable component: Flush switches it, one is ready

  std::atomic<bool> done{false};
  Status flush_status;
  std::thread flusher([&] {
    flush_status = db()->Flush();
    done = true;
  });
  // Half the gate's patience: a broken engine's Flush returns only once the held compaction
  // gives up, a correct one's as soon as its flush is written, however busy the machine.
  const auto deadline = std::chrono::steady_clock::now() + CompactionGate::kPatience / 2;
  while (!done && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  EXPECT_TRUE(done.load()) << "Flush waited for a second component";
  held.gate.Release();  // let a broken engine finish
  flusher.join();
  ASSERT_OK(flush_status);
  EXPECT_EQ(Number("num-immutable-mem-table"), 0u);
  EXPECT_EQ(NumFilesAtLevel(0), 5);  // the four of the setup and the flushed one
  EXPECT_EQ(Merged("merged"), 0u);
  EXPECT_EQ(Get("a"), "1");
}

TEST_P(DBFlushMergeTest, WithMergeOneEachComponentIsItsOwnFile) {
  SKIP_WITHOUT_SYNC_POINTS();
  Held held;
  OpenWithAHeldLevel0Compaction(1, &held);
  // The first component flushed alone while the compaction is held, then the second.
  WriteUntil([&] { return NumFilesAtLevel(0) == 5; });
  WriteUntil([&] { return NumFilesAtLevel(0) == 6; });
  EXPECT_EQ(Merged("merged"), 0u);
  ExpectEveryKeyWritten();
  held.gate.Release();
}

TEST_P(DBFlushMergeTest, InAShallowBacklogEachComponentIsItsOwnFile) {
  SKIP_WITHOUT_SYNC_POINTS();
  Held held;
  Open(MergeOptions(2));
  for (int round = 0; round < 2; round++) {
    ASSERT_OK(Put("base", Value(round)));
    ASSERT_OK(db()->Flush());
  }
  ASSERT_TRUE(held.gate.WaitUntilHeld());
  // A compaction runs and L0 is at its trigger, but holds fewer than twice its files: the
  // writes' own switches flush one component per file, nobody waiting for a second. Under load
  // two flushes may land between two looks (two immutable components wait), so the check
  // counts what the files allow: files 3 and 4 hold one component each, and only a flush that
  // started with 4 files or more may merge. The count is read before the files: a flush
  // landing in between only adds a file.
  WriteUntil([&] { return NumFilesAtLevel(0) >= 4; });
  const uint64_t merged = Merged("merged");
  const int files = NumFilesAtLevel(0);
  EXPECT_LE(merged, static_cast<uint64_t>(files - 4)) << files << " L0 files";
  // Now twice the trigger: the next flushes wait for two components each.
  WriteUntil([&] { return NumFilesAtLevel(0) > files; });
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (Merged("merged") == 0 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  EXPECT_GE(Merged("merged"), 1u);
  ExpectEveryKeyWritten();
  held.gate.Release();
}

TEST_P(DBFlushMergeTest, OutsideABacklogEachComponentIsItsOwnFile) {
  Options o = MergeOptions(2);
  o.level0_file_num_compaction_trigger = 100;  // L0 never reaches it: no backlog
  o.level0_slowdown_writes_trigger = 100;
  Open(o);
  WriteUntil([&] { return NumFilesAtLevel(0) == 1; });
  WriteUntil([&] { return NumFilesAtLevel(0) == 2; });
  EXPECT_EQ(Merged("merged"), 0u);
  ExpectEveryKeyWritten();
}

INSTANTIATE_TEST_SUITE_P(Components, DBFlushMergeTest, ::testing::Values("skiplist", "flodb"),
                         [](const auto& info) { return std::string(info.param); });

}  // namespace
}  // namespace sluice::test
