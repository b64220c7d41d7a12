// DB::DeleteRange, for every memory component: keys in [begin, end) vanish for Get, MultiGet,
// iterators (both ways) and read-modify-write, wherever their versions are (memory, L0, deeper
// levels) and wherever the tombstone is; later writes stay visible; snapshots taken before keep
// seeing the keys through flushes and compactions; the tombstone survives reopen (WAL, then
// SST) and RepairDB; a compaction at the last level drops the keys and the tombstone; batches apply
// range deletions in order; bad input is InvalidArgument and applies nothing.

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "memory/memory_component.h"
#include "sluice/db.h"
#include "support/db_test_util.h"
#include "support/test_util.h"

namespace sluice::test {
namespace {

class DBDeleteRangeTest : public DBTestBase, public ::testing::TestWithParam<std::string> {
 public:
  DBDeleteRangeTest() : DBTestBase(GetParam()) {}
  ~DBDeleteRangeTest() override { Close(); }

  static std::string V(int i) { return "v" + std::to_string(i) + std::string(100, '.'); }
  Status DeleteRange(int begin, int end) {
    return db()->DeleteRange(WriteOptions(), Key(begin), Key(end));
  }
  // Keys 0..n-1 present as V(i), except those in the listed [begin, end) ranges.
  std::map<std::string, std::string> Expected(int n, const std::vector<std::pair<int, int>>& gone) {
    std::map<std::string, std::string> m;
    for (int i = 0; i < n; i++) {
      const bool deleted = std::any_of(gone.begin(), gone.end(),
                                       [i](const auto& r) { return r.first <= i && i < r.second; });
      if (!deleted) m[Key(i)] = V(i);
    }
    return m;
  }
  // Gets, MultiGet and the iterator (forward and backward) all agree with `want`.
  void CheckAll(const std::map<std::string, std::string>& want, int n,
                const Snapshot* snapshot = nullptr) {
    ASSERT_EQ(want, ContentsMap(snapshot));
    std::vector<std::string> keys;
    for (int i = 0; i < n; i++) keys.push_back(Key(i));
    std::vector<Slice> slices(keys.begin(), keys.end());
    std::vector<std::string> values;
    ReadOptions ro;
    ro.snapshot = snapshot;
    std::vector<Status> st = db()->MultiGet(ro, slices, &values);
    for (int i = 0; i < n; i++) {
      auto it = want.find(keys[i]);
      ASSERT_EQ(it == want.end() ? "NOT_FOUND" : it->second, Get(keys[i], snapshot)) << keys[i];
      ASSERT_EQ(it != want.end(), st[i].ok()) << keys[i];
    }
    std::unique_ptr<Iterator> iter = db()->NewIterator(ro);
    auto rit = want.rbegin();
    for (iter->SeekToLast(); iter->Valid(); iter->Prev(), ++rit) {
      ASSERT_NE(rit, want.rend());
      ASSERT_EQ(rit->first, iter->key().ToString());
    }
    ASSERT_EQ(rit, want.rend());
    ASSERT_OK(iter->status());
  }
  void PutAll(int n) {
    for (int i = 0; i < n; i++) ASSERT_OK(Put(Key(i), V(i)));
  }
};

TEST_P(DBDeleteRangeTest, HidesKeysInMemoryAndInEveryLevel) {
  Options o = DefaultOptions();
  o.level0_idle_compaction_ms = 0;
  Open(o);
  PutAll(300);
  ASSERT_OK(db()->CompactRange(nullptr, nullptr));  // versions in the last level
  ASSERT_OK(DeleteRange(10, 20));                   // tombstone in memory over SST keys
  CheckAll(Expected(300, {{10, 20}}), 300);
  ASSERT_OK(db()->Flush());  // tombstone in L0 over deeper keys
  CheckAll(Expected(300, {{10, 20}}), 300);
  ASSERT_OK(DeleteRange(100, 150));
  ASSERT_OK(db()->Flush());
  ASSERT_OK(DeleteRange(140, 160));  // overlapping ones, in memory and in L0
  CheckAll(Expected(300, {{10, 20}, {100, 160}}), 300);
  Reopen();  // from the WAL and the SSTs
  CheckAll(Expected(300, {{10, 20}, {100, 160}}), 300);
  ASSERT_OK(db()->CompactRange(nullptr, nullptr));
  CheckAll(Expected(300, {{10, 20}, {100, 160}}), 300);
}

TEST_P(DBDeleteRangeTest, LaterWritesStayVisible) {
  Open();
  PutAll(50);
  ASSERT_OK(DeleteRange(0, 50));
  ASSERT_OK(Put(Key(7), "again"));
  ASSERT_OK(db()->Flush());
  ASSERT_OK(Put(Key(8), "again8"));
  ASSERT_EQ("again", Get(Key(7)));
  ASSERT_EQ("again8", Get(Key(8)));
  ASSERT_EQ("NOT_FOUND", Get(Key(9)));
  ASSERT_OK(db()->CompactRange(nullptr, nullptr));
  ASSERT_EQ((std::map<std::string, std::string>{{Key(7), "again"}, {Key(8), "again8"}}),
            ContentsMap());
  int64_t n = 0;
  ASSERT_OK(db()->Increment(WriteOptions(), Key(3), 5, &n));  // RMW reads the key as absent
  ASSERT_EQ(5, n);
}

TEST_P(DBDeleteRangeTest, SnapshotsKeepSeeingDeletedKeys) {
  Open();
  PutAll(100);
  const Snapshot* before = db()->GetSnapshot();
  ASSERT_OK(DeleteRange(20, 80));
  const Snapshot* after = db()->GetSnapshot();
  for (int round = 0; round < 2; round++) {
    CheckAll(Expected(100, {}), 100, before);
    CheckAll(Expected(100, {{20, 80}}), 100, after);
    CheckAll(Expected(100, {{20, 80}}), 100);
    ASSERT_OK(db()->Flush());
    ASSERT_OK(db()->CompactRange(nullptr, nullptr));  // must keep the keys for `before`
  }
  db()->ReleaseSnapshot(before);
  db()->ReleaseSnapshot(after);
}

TEST_P(DBDeleteRangeTest, CompactionDropsCoveredKeysAndTheTombstone) {
  Open();
  PutAll(400);
  ASSERT_OK(db()->Flush());
  ASSERT_OK(db()->CompactRange(nullptr, nullptr));
  ASSERT_GT(TotalFiles(), 0);
  ASSERT_OK(db()->DeleteRange(WriteOptions(), "", "\xff"));  // everything
  ASSERT_TRUE(ContentsMap().empty());
  ASSERT_OK(db()->Flush());
  ASSERT_OK(db()->CompactRange(nullptr, nullptr));
  // Nothing is left to write: the keys were hidden, and the tombstone hid nothing below.
  ASSERT_EQ(0, TotalFiles());
  ASSERT_TRUE(ContentsMap().empty());
}

TEST_P(DBDeleteRangeTest, TombstonesSpanningManyOutputFiles) {
  Options o = DefaultOptions();
  o.target_file_size_base = 8 << 10;  // many small output files: tombstones are cut between them
  o.max_subcompactions = 2;
  Open(o);
  PutAll(2000);
  ASSERT_OK(db()->CompactRange(nullptr, nullptr));
  const Snapshot* snap = db()->GetSnapshot();  // keeps covered keys in the outputs
  ASSERT_OK(DeleteRange(100, 1900));
  ASSERT_OK(Put(Key(1000), "new"));  // a key inside, written later
  ASSERT_OK(db()->Flush());
  ASSERT_OK(db()->CompactRange(nullptr, nullptr));
  ASSERT_GT(TotalFiles(), 3);
  std::map<std::string, std::string> want = Expected(2000, {{100, 1900}});
  want[Key(1000)] = "new";
  CheckAll(want, 2000);
  CheckAll(Expected(2000, {}), 2000, snap);
  Reopen();
  CheckAll(want, 2000);
  db()->ReleaseSnapshot(snap);
}

// A tombstone cut between two output files ends the first at the second's first key (an end
// bound at kMaxSequenceNumber); that key, written after the tombstone, must stay visible to
// every read at the latest sequence, whose lookup key compares equal to the bound (found by
// the crash test's sequential writes: Get searched the first file only; MultiGet looks up at
// the last sequence number, below the bound, and was not affected).
TEST_P(DBDeleteRangeTest, KeysWhereATombstoneIsCutBetweenFilesStayVisible) {
  Options o = DefaultOptions();
  o.target_file_size_base = 8 << 10;
  Open(o);
  PutAll(2000);
  const Snapshot* snap = db()->GetSnapshot();  // keeps the tombstone and what it covers
  ASSERT_OK(DeleteRange(0, 2000));
  PutAll(2000);  // every key again, after the tombstone
  ASSERT_OK(db()->Flush());
  ASSERT_OK(db()->CompactRange(nullptr, nullptr));
  ASSERT_GT(TotalFiles(), 3);
  CheckAll(Expected(2000, {}), 2000);
  CheckAll(Expected(2000, {}), 2000, snap);
  Reopen();
  CheckAll(Expected(2000, {}), 2000);
  db()->ReleaseSnapshot(snap);
}

TEST_P(DBDeleteRangeTest, RepairKeepsTombstonesOfTablesAndLogs) {
  Open();
  PutAll(200);
  ASSERT_OK(db()->Flush());
  ASSERT_OK(DeleteRange(10, 30));
  ASSERT_OK(db()->Flush());        // a table holding only a tombstone
  ASSERT_OK(DeleteRange(50, 60));  // in the WAL only
  const std::map<std::string, std::string> want = Expected(200, {{10, 30}, {50, 60}});
  ASSERT_EQ(want, ContentsMap());
  Options o = options();
  Close();
  ASSERT_OK(RepairDB(dbname(), o));
  Open(o);
  ASSERT_EQ(want, ContentsMap());
}

TEST_P(DBDeleteRangeTest, BatchesApplyRangeDeletionsInOrder) {
  Open();
  PutAll(30);
  WriteBatch batch;
  batch.Put(Key(5), "new5");  // then deleted by the range below
  batch.DeleteRange(Key(0), Key(10));
  batch.Put(Key(6), "new6");  // after the range: stays
  batch.Put(Key(40), "v40");
  ASSERT_OK(db()->Write(WriteOptions(), &batch));
  std::map<std::string, std::string> want = Expected(30, {{0, 10}});
  want[Key(6)] = "new6";
  want[Key(40)] = "v40";
  ASSERT_EQ(want, ContentsMap());
  Reopen();  // the WAL replays it the same way
  ASSERT_EQ(want, ContentsMap());
}

TEST_P(DBDeleteRangeTest, BadInputIsInvalidArgumentAndAppliesNothing) {
  Open();
  PutAll(10);
  Status s = db()->DeleteRange(WriteOptions(), Key(5), Key(2));
  ASSERT_TRUE(s.IsInvalidArgument()) << s.ToString();
  ASSERT_NE(std::string::npos, s.ToString().find("begin")) << s.ToString();
  ASSERT_OK(db()->DeleteRange(WriteOptions(), Key(3), Key(3)));  // empty: nothing
  WriteBatch batch;
  batch.Put(Key(100), "x");
  batch.DeleteRange(Key(9), Key(1));
  s = db()->Write(WriteOptions(), &batch);
  ASSERT_TRUE(s.IsInvalidArgument()) << s.ToString();
  ASSERT_NE(std::string::npos, s.ToString().find("update 1")) << s.ToString();
  ASSERT_EQ(Expected(10, {}), ContentsMap());

  ForeignColumnFamilyHandle foreign;
  s = db()->DeleteRange(WriteOptions(), &foreign, Key(0), Key(5));
  ASSERT_TRUE(s.IsInvalidArgument()) << s.ToString();
  ASSERT_NE(std::string::npos, s.ToString().find("column family")) << s.ToString();
  ASSERT_EQ(Expected(10, {}), ContentsMap());
}

// Range deletions racing writers, point reads, iterators and read-modify-writes (run under
// ThreadSanitizer by make test-tsan). Each writer owns a key range and keeps, for each of its
// keys, whether its last write happened after the deleter's last deletion of that key's range
// was acknowledged; once everyone stops, exactly those keys must be present.
TEST_P(DBDeleteRangeTest, ConcurrentRangeDeletionsWritesAndReads) {
  Options o = DefaultOptions();
  o.write_buffer_size = 32 << 10;  // switches and flushes while the threads run
  Open(o);
  constexpr int kWriters = 2, kKeysPerWriter = 200, kRounds = 3000;
  std::atomic<bool> stop{false};
  std::atomic<int> epoch_acked{0};  // the deleter's rounds acknowledged so far
  std::vector<std::thread> threads;
  std::vector<std::vector<int>> written_after(kWriters, std::vector<int>(kKeysPerWriter, -1));
  for (int w = 0; w < kWriters; w++) {
    threads.emplace_back([&, w] {
      for (int i = 0; i < kRounds; i++) {
        const int k = (i * 7919) % kKeysPerWriter;
        const int seen = epoch_acked.load();  // deletions acknowledged before this write began
        ASSERT_OK(Put(Key(w * kKeysPerWriter + k), V(k)));
        written_after[w][k] = seen;
      }
    });
  }
  // At least one round, however late this thread starts (the writers may be done by then):
  // the counter it creates is the one key left at the end.
  threads.emplace_back([&] {
    for (int round = 1; round == 1 || !stop.load(); round++) {
      ASSERT_OK(db()->DeleteRange(WriteOptions(), Key(0), Key(kWriters * kKeysPerWriter)));
      epoch_acked.store(round);
      int64_t n = 0;
      ASSERT_OK(db()->Increment(WriteOptions(), "counter", 1, &n));
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  });
  threads.emplace_back([&] {
    while (!stop.load()) {
      std::unique_ptr<Iterator> it = db()->NewIterator(ReadOptions());
      std::string last;
      for (it->SeekToFirst(); it->Valid(); it->Next()) {
        ASSERT_LT(last, it->key().ToString());
        last = it->key().ToString();
      }
      ASSERT_OK(it->status());
      Get(Key(17));
    }
  });
  for (int w = 0; w < kWriters; w++) threads[static_cast<size_t>(w)].join();
  stop.store(true);
  for (size_t i = kWriters; i < threads.size(); i++) threads[i].join();
  // A key written after the last deletion was acknowledged must be there; one whose last write
  // began before it may or may not be (the write and the deletion raced): check the first kind.
  const int last = epoch_acked.load();
  const std::map<std::string, std::string> contents = ContentsMap();
  for (int w = 0; w < kWriters; w++) {
    for (int k = 0; k < kKeysPerWriter; k++) {
      if (written_after[w][k] == last) {
        ASSERT_EQ(1u, contents.count(Key(w * kKeysPerWriter + k))) << w << " " << k;
      }
    }
  }
  ASSERT_OK(db()->DeleteRange(WriteOptions(), Key(0), Key(kWriters * kKeysPerWriter)));
  ASSERT_EQ(1u, ContentsMap().size());  // the counter only
}

INSTANTIATE_TEST_SUITE_P(AllComponents, DBDeleteRangeTest,
                         ::testing::ValuesIn(MemoryComponentNames()), [](const auto& info) {
                           std::string n = info.param;
                           std::replace(n.begin(), n.end(), '-', '_');
                           return n;
                         });

}  // namespace
}  // namespace sluice::test
