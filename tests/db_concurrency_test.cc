// Multi-threaded engine tests, over every memory component: writers, readers and iterators at
// once (with memory components switching, flushing and compacting underneath), then a full
// verification; and atomic visibility of write batches to point reads, snapshots and iterators.

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <thread>

#include "memory/memory_component.h"
#include "support/db_test_util.h"
#include "support/test_util.h"
#include "util/coding.h"
#include "util/random.h"

namespace sluice::test {

namespace {

class DBConcurrencyTest : public DBTestBase, public ::testing::TestWithParam<std::string> {
 public:
  DBConcurrencyTest() : DBTestBase(GetParam()) {}

  Options SmallOptions() {
    Options o = DefaultOptions();
    o.write_buffer_size = 32 << 10;
    o.level0_file_num_compaction_trigger = 2;
    return o;
  }
};

std::string Counter(uint64_t n) {
  std::string s;
  PutFixed64(&s, n);
  s.append(40, 'p');  // some payload
  return s;
}
uint64_t ParseCounter(const std::string& s) { return s.size() >= 8 ? DecodeFixed64(s.data()) : 0; }

}  // namespace

// Each writer owns keys; values carry a counter that only grows. A reader must never see a
// key's counter go backwards (monotonic reads), and iterators must stay sorted.
TEST_P(DBConcurrencyTest, WritersReadersAndIteratorsThenVerify) {
  Open(SmallOptions());
  constexpr int kWriters = 3, kKeysPerWriter = 200, kRounds = 15;
  std::atomic<bool> stop{false};
  std::atomic<int> errors{0};
  std::vector<std::thread> threads;
  for (int w = 0; w < kWriters; w++) {
    threads.emplace_back([&, w] {
      Random rnd(w + 1);
      for (int round = 1; round <= kRounds; round++) {
        for (int i = 0; i < kKeysPerWriter; i++) {
          WriteOptions wo;
          wo.sync = rnd.OneIn(200);
          const std::string k = Key(w * kKeysPerWriter + i);
          if (!db()->Put(wo, k, Counter(static_cast<uint64_t>(round))).ok()) errors++;
        }
      }
    });
  }
  for (int r = 0; r < 2; r++) {
    threads.emplace_back([&, r] {
      Random rnd(100 + r);
      std::vector<uint64_t> last(kWriters * kKeysPerWriter, 0);
      while (!stop.load()) {
        const int k = static_cast<int>(rnd.Uniform(kWriters * kKeysPerWriter));
        std::string v;
        Status s = db()->Get(ReadOptions(), Key(k), &v);
        if (s.ok()) {
          const uint64_t c = ParseCounter(v);
          if (c < last[k]) errors++;
          last[k] = c;
        } else if (!s.IsNotFound() || last[k] != 0) {
          errors++;
        }
      }
    });
  }
  threads.emplace_back([&] {
    while (!stop.load()) {
      std::unique_ptr<Iterator> it = db()->NewIterator(ReadOptions());
      std::string prev;
      int n = 0;
      for (it->SeekToFirst(); it->Valid(); it->Next(), n++) {
        if (n > 0 && it->key().ToString() <= prev) errors++;
        prev = it->key().ToString();
      }
      if (!it->status().ok()) errors++;
    }
  });
  for (int w = 0; w < kWriters; w++) threads[w].join();
  stop.store(true);
  for (size_t t = kWriters; t < threads.size(); t++) threads[t].join();
  EXPECT_EQ(0, errors.load());
  for (int k = 0; k < kWriters * kKeysPerWriter; k++) {
    ASSERT_EQ(static_cast<uint64_t>(kRounds), ParseCounter(Get(Key(k)))) << k;
  }
  Reopen();
  for (int k = 0; k < kWriters * kKeysPerWriter; k++) {
    ASSERT_EQ(static_cast<uint64_t>(kRounds), ParseCounter(Get(Key(k)))) << k;
  }
}

// Batches write the same counter to a group of keys. Read in key order without a snapshot, a
// later key must never be older than an earlier one (the batch became visible at once); read
// through a snapshot or an iterator, all keys of the group agree.
TEST_P(DBConcurrencyTest, BatchesBecomeVisibleAtomically) {
  Open(SmallOptions());
  constexpr int kGroup = 8, kBatches = 3000;
  std::atomic<bool> stop{false};
  std::atomic<int> point_errors{0}, snapshot_errors{0}, iterator_errors{0};
  std::string first_torn_view;  // the iterator thread's, read after it is joined
  std::vector<std::thread> threads;
  // Two writers, each with its own group of keys ("a0".."a7", "b0".."b7") and its own counter,
  // so within a group counter order is sequence order.
  for (int w = 0; w < 2; w++) {
    threads.emplace_back([&, w] {
      const std::string group(1, static_cast<char>('a' + w));
      for (int b = 1; b <= kBatches; b++) {
        WriteBatch batch;
        for (int i = 0; i < kGroup; i++) {
          batch.Put(group + std::to_string(i), Counter(static_cast<uint64_t>(b)));
        }
        ASSERT_OK(db()->Write(WriteOptions(), &batch));
      }
    });
  }
  threads.emplace_back([&] {
    while (!stop.load()) {
      for (const char* group : {"a", "b"}) {
        uint64_t first = 0;
        for (int i = 0; i < kGroup; i++) {
          std::string v;
          if (!db()->Get(ReadOptions(), group + std::to_string(i), &v).ok()) continue;
          const uint64_t c = ParseCounter(v);
          if (i == 0) first = c;
          if (c < first) point_errors++;
        }
      }
    }
  });
  threads.emplace_back([&] {
    while (!stop.load()) {
      const Snapshot* snap = db()->GetSnapshot();
      ReadOptions ro;
      ro.snapshot = snap;
      for (const char* group : {"a", "b"}) {
        std::string v0, v;
        db()->Get(ro, std::string(group) + "0", &v0);
        for (int i = 1; i < kGroup; i++) {
          v.clear();
          db()->Get(ro, group + std::to_string(i), &v);
          if (v != v0) snapshot_errors++;
        }
      }
      db()->ReleaseSnapshot(snap);
      std::unique_ptr<Iterator> it = db()->NewIterator(ReadOptions());
      std::string seen, view;
      char seen_group = 0;
      bool torn = false;
      for (it->SeekToFirst(); it->Valid(); it->Next()) {
        view +=
            it->key().ToString() + "=" + std::to_string(ParseCounter(it->value().ToString())) + " ";
        if (it->key()[0] != seen_group) {
          seen_group = it->key()[0];
          seen = it->value().ToString();
        } else if (it->value() != Slice(seen)) {
          iterator_errors++;
          torn = true;
        }
      }
      if (torn && first_torn_view.empty()) first_torn_view = view;
    }
  });
  threads[0].join();
  threads[1].join();
  stop.store(true);
  threads[2].join();
  threads[3].join();
  EXPECT_EQ(0, point_errors.load());
  EXPECT_EQ(0, snapshot_errors.load());
  EXPECT_EQ(0, iterator_errors.load()) << "first torn view (key=counter): " << first_torn_view;
}

// Many threads writing while the memory component is switched every few writes: nothing is
// lost, whether writes are logged, synced or unlogged.
TEST_P(DBConcurrencyTest, NoWriteLostAcrossComponentSwitches) {
  Options o = SmallOptions();
  o.write_buffer_size = 8 << 10;
  Open(o);
  constexpr int kThreads = 4, kPerThread = 1500;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; t++) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kPerThread; i++) {
        WriteOptions wo;
        wo.disable_wal = (t == 3);
        wo.sync = (t == 2 && i % 50 == 0);
        ASSERT_OK(db()->Put(wo, Key(t * kPerThread + i), Value(i)));
      }
    });
  }
  for (auto& th : threads) th.join();
  for (int k = 0; k < kThreads * kPerThread; k++) {
    ASSERT_EQ(Value(k % kPerThread), Get(Key(k))) << k;
  }
  Reopen();
  EXPECT_EQ(static_cast<size_t>(kThreads * kPerThread), ContentsMap().size());
}

INSTANTIATE_TEST_SUITE_P(AllComponents, DBConcurrencyTest,
                         ::testing::ValuesIn(MemoryComponentNames()), [](const auto& info) {
                           std::string n = info.param;
                           std::replace(n.begin(), n.end(), '-', '_');
                           return n;
                         });

}  // namespace sluice::test
