// Read-modify-write (ReadModifyWrite, PutIfAbsent, CompareAndSwap, Increment) over every memory
// component: semantics and errors; exact counters under concurrency, across component switches
// and recovery; one winner per PutIfAbsent; and the deliberately broken mode (no conflict
// detection) losing updates, so the exactness checks are shown able to fail. Also the bank
// test: concurrent transfers (atomic batches) while every snapshot and iterator must see the
// same total.

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <thread>

#include "db/db_impl.h"
#include "memory/memory_component.h"
#include "support/db_test_util.h"
#include "support/test_util.h"
#include "util/coding.h"
#include "util/random.h"

namespace sluice::test {

namespace {

class DBRmwTest : public DBTestBase, public ::testing::TestWithParam<std::string> {
 public:
  DBRmwTest() : DBTestBase(GetParam()) {}

  // Tiny memory components: switches, flushes and compactions happen during the test.
  Options SmallOptions() {
    Options o = DefaultOptions();
    o.write_buffer_size = 16 << 10;
    o.level0_file_num_compaction_trigger = 2;
    return o;
  }

  int64_t Counter(const std::string& key) {
    const std::string v = Get(key);
    if (v == "NOT_FOUND") return 0;
    EXPECT_EQ(8u, v.size()) << key;
    return static_cast<int64_t>(DecodeFixed64(v.data()));
  }

  // threads x per_thread increments of 1, spread over `keys` hot keys, while one more thread
  // writes filler to force component switches. Returns the sum of the counters.
  int64_t RunIncrements(int threads, int per_thread, int keys) {
    std::vector<std::thread> workers;
    std::atomic<bool> stop{false};
    std::atomic<int> errors{0};
    for (int t = 0; t < threads; t++) {
      workers.emplace_back([&, t] {
        Random rnd(t + 7);
        for (int i = 0; i < per_thread; i++) {
          const std::string k = "hot" + std::to_string(rnd.Uniform(keys));
          if (!db()->Increment(WriteOptions(), k, 1, nullptr).ok()) errors++;
        }
      });
    }
    std::thread filler([&] {
      for (int i = 0; !stop.load(); i++) {
        if (!db()->Put(WriteOptions(), Key(i % 5000), Value(i, 200)).ok()) errors++;
      }
    });
    for (auto& w : workers) w.join();
    stop.store(true);
    filler.join();
    EXPECT_EQ(0, errors.load());
    int64_t sum = 0;
    for (int k = 0; k < keys; k++) sum += Counter("hot" + std::to_string(k));
    return sum;
  }
};

std::string Fixed(int64_t n) {
  std::string s;
  PutFixed64(&s, static_cast<uint64_t>(n));
  return s;
}

}  // namespace

TEST_P(DBRmwTest, Semantics) {
  Open();
  bool done = false;
  ASSERT_OK(db()->PutIfAbsent(WriteOptions(), "a", "1", &done));
  EXPECT_TRUE(done);
  ASSERT_OK(db()->PutIfAbsent(WriteOptions(), "a", "2", &done));
  EXPECT_FALSE(done);
  EXPECT_EQ("1", Get("a"));

  const std::string one = "1", two = "2";
  ASSERT_OK(db()->CompareAndSwap(WriteOptions(), "a", &two, "3", &done));
  EXPECT_FALSE(done);
  ASSERT_OK(db()->CompareAndSwap(WriteOptions(), "a", &one, "3", &done));
  EXPECT_TRUE(done);
  EXPECT_EQ("3", Get("a"));
  ASSERT_OK(db()->CompareAndSwap(WriteOptions(), "a", nullptr, "4", &done));
  EXPECT_FALSE(done);
  ASSERT_OK(db()->CompareAndSwap(WriteOptions(), "b", nullptr, "4", &done));
  EXPECT_TRUE(done);
  EXPECT_EQ("4", Get("b"));

  int64_t n = 0;
  ASSERT_OK(db()->Increment(WriteOptions(), "c", 5, &n));
  EXPECT_EQ(5, n);
  ASSERT_OK(db()->Increment(WriteOptions(), "c", -7, &n));
  EXPECT_EQ(-2, n);
  EXPECT_EQ(Fixed(-2), Get("c"));
  ASSERT_OK(db()->Increment(WriteOptions(), "c", 0, &n));  // a read
  EXPECT_EQ(-2, n);

  std::string result;
  ASSERT_OK(db()->ReadModifyWrite(
      WriteOptions(), "a",
      [](const std::string* cur) -> std::optional<std::string> {
        return cur == nullptr ? std::string("none") : *cur + "+";
      },
      &result));
  EXPECT_EQ("3+", result);
  EXPECT_EQ("3+", Get("a"));
  ASSERT_OK(db()->ReadModifyWrite(
      WriteOptions(), "a",
      [](const std::string*) -> std::optional<std::string> { return std::nullopt; }, &result));
  EXPECT_EQ("", result);
  EXPECT_EQ("NOT_FOUND", Get("a"));
  // Deleting a missing key, or writing the value a key already has, writes nothing.
  ASSERT_OK(db()->ReadModifyWrite(
      WriteOptions(), "zz",
      [](const std::string*) -> std::optional<std::string> { return std::nullopt; }, nullptr));
  ASSERT_OK(db()->ReadModifyWrite(
      WriteOptions(), "b",
      [](const std::string* cur) -> std::optional<std::string> { return *cur; }, &result));
  EXPECT_EQ("4", result);
  std::string stats;
  ASSERT_TRUE(db()->GetProperty("sluice.stats", &stats));
  EXPECT_NE(std::string::npos, stats.find("Read-modify-writes: 13 (6 no-ops), 0 conflicts"))
      << stats;

  // Values survive flush and recovery, and read-modify-writes see values on disk.
  ASSERT_OK(db()->Flush());
  ASSERT_OK(db()->Increment(WriteOptions(), "c", 3, &n));
  EXPECT_EQ(1, n);
  Reopen();
  EXPECT_EQ(Fixed(1), Get("c"));
  EXPECT_EQ("4", Get("b"));
  EXPECT_EQ("NOT_FOUND", Get("a"));
}

TEST_P(DBRmwTest, BadInputIsAnErrorAndWritesNothing) {
  Options o = DefaultOptions();
  o.max_key_size = 16;
  o.max_value_size = 32;
  Open(o);
  ASSERT_OK(Put("text", "hello"));
  Status s = db()->Increment(WriteOptions(), "text", 1, nullptr);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("\"text\"")) << s.ToString();
  EXPECT_EQ("hello", Get("text"));
  s = db()->PutIfAbsent(WriteOptions(), std::string(17, 'k'), "v", nullptr);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("max_key_size")) << s.ToString();
  s = db()->CompareAndSwap(WriteOptions(), "k", nullptr, std::string(33, 'v'), nullptr);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("max_value_size")) << s.ToString();
  EXPECT_EQ("NOT_FOUND", Get("k"));
  s = db()->ReadModifyWrite(WriteOptions(), "k", DB::ModifyFunction(), nullptr);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  ASSERT_OK(db()->Close());
  bool inserted = true;
  s = db()->PutIfAbsent(WriteOptions(), "k", "v", &inserted);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_FALSE(inserted);
}

// N threads x M increments on a few hot keys end at exactly N x M, with the memory component
// switching underneath; and after recovery (conflicting attempts left aborted WAL records,
// which replay must skip).
TEST_P(DBRmwTest, ConcurrentIncrementsAreExact) {
  Open(SmallOptions());
  constexpr int kThreads = 4, kPerThread = 3000, kKeys = 3;
  EXPECT_EQ(int64_t{kThreads} * kPerThread, RunIncrements(kThreads, kPerThread, kKeys));
  Reopen();
  int64_t sum = 0;
  for (int k = 0; k < kKeys; k++) sum += Counter("hot" + std::to_string(k));
  EXPECT_EQ(int64_t{kThreads} * kPerThread, sum);
}

// The exactness check above can fail: with conflict detection off, increments are lost.
TEST_P(DBRmwTest, WithoutConflictDetectionUpdatesAreLost) {
  Open(SmallOptions());
  static_cast<DBImpl*>(db())->SetRmwConflictDetectionForTesting(false);
  constexpr int kThreads = 4, kPerThread = 3000;
  int64_t expected = 0, sum = 0;
  for (int round = 0; round < 20 && sum == expected; round++) {
    expected += int64_t{kThreads} * kPerThread;
    sum = RunIncrements(kThreads, kPerThread, 1);
  }
  EXPECT_LT(sum, expected);
}

// Many threads race to PutIfAbsent the same keys, and to CAS-increment a shared value: exactly
// one insert wins per key, and no CAS increment is lost.
TEST_P(DBRmwTest, PutIfAbsentHasOneWinnerAndCasLoopsAreExact) {
  Open(SmallOptions());
  constexpr int kThreads = 4, kKeys = 400, kCasPerThread = 1000;
  std::atomic<int> wins{0}, errors{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; t++) {
    threads.emplace_back([&, t] {
      for (int k = 0; k < kKeys; k++) {
        bool inserted = false;
        if (!db()->PutIfAbsent(WriteOptions(), Key(k), "t" + std::to_string(t), &inserted).ok()) {
          errors++;
        }
        if (inserted) wins++;
      }
      for (int i = 0; i < kCasPerThread; i++) {
        for (;;) {
          std::string cur;
          Status s = db()->Get(ReadOptions(), "cas", &cur);
          const std::string* expected = s.ok() ? &cur : nullptr;
          const int64_t next = (s.ok() ? static_cast<int64_t>(DecodeFixed64(cur.data())) : 0) + 1;
          bool swapped = false;
          if (!db()->CompareAndSwap(WriteOptions(), "cas", expected, Fixed(next), &swapped).ok()) {
            errors++;
            break;
          }
          if (swapped) break;
        }
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(0, errors.load());
  EXPECT_EQ(kKeys, wins.load());
  EXPECT_EQ(int64_t{kThreads} * kCasPerThread, Counter("cas"));
}

// Transfers between accounts, each an atomic batch (the total is constant), run while other
// threads take snapshots and iterators: every one of them sums to the constant.
TEST_P(DBRmwTest, SnapshotsAndIteratorsSeeConstantTotalDuringTransfers) {
  Open(SmallOptions());
  constexpr int kAccounts = 40, kWriters = 2, kTransfers = 4000;
  constexpr int64_t kInitial = 1000;
  {
    WriteBatch init;
    for (int a = 0; a < kAccounts; a++) init.Put(Key(a), Fixed(kInitial));
    ASSERT_OK(db()->Write(WriteOptions(), &init));
  }
  const int64_t total = kAccounts * kInitial;
  std::atomic<bool> stop{false};
  std::atomic<int> errors{0}, snapshot_errors{0}, iterator_errors{0}, checks{0};
  std::vector<std::thread> threads;
  for (int w = 0; w < kWriters; w++) {
    threads.emplace_back([&, w] {
      // Writer w owns the accounts a with a % kWriters == w: only it changes them, so its reads
      // of them are current when it writes its batch.
      Random rnd(w + 1);
      for (int i = 0; i < kTransfers; i++) {
        const int from = static_cast<int>(rnd.Uniform(kAccounts / kWriters)) * kWriters + w;
        const int to = static_cast<int>(rnd.Uniform(kAccounts / kWriters)) * kWriters + w;
        const int64_t amount = static_cast<int64_t>(rnd.Uniform(50));
        std::string fv, tv;
        if (!db()->Get(ReadOptions(), Key(from), &fv).ok() ||
            !db()->Get(ReadOptions(), Key(to), &tv).ok()) {
          errors++;
          continue;
        }
        if (from == to) continue;
        WriteBatch batch;
        batch.Put(Key(from), Fixed(static_cast<int64_t>(DecodeFixed64(fv.data())) - amount));
        batch.Put(Key(to), Fixed(static_cast<int64_t>(DecodeFixed64(tv.data())) + amount));
        if (!db()->Write(WriteOptions(), &batch).ok()) errors++;
      }
    });
  }
  // At least one check, however late this thread starts: the writers may be done by then.
  threads.emplace_back([&] {
    do {
      const Snapshot* snap = db()->GetSnapshot();
      ReadOptions ro;
      ro.snapshot = snap;
      int64_t sum = 0;
      for (int a = 0; a < kAccounts; a++) {
        std::string v;
        if (db()->Get(ro, Key(a), &v).ok()) sum += static_cast<int64_t>(DecodeFixed64(v.data()));
      }
      if (sum != total) snapshot_errors++;
      db()->ReleaseSnapshot(snap);
      std::unique_ptr<Iterator> it = db()->NewIterator(ReadOptions());
      int64_t it_sum = 0;
      for (it->SeekToFirst(); it->Valid(); it->Next()) {
        if (it->key().starts_with("key")) {
          it_sum += static_cast<int64_t>(DecodeFixed64(it->value().data()));
        }
      }
      if (it_sum != total) iterator_errors++;
      checks++;
    } while (!stop.load());
  });
  threads[0].join();
  threads[1].join();
  stop.store(true);
  threads[2].join();
  EXPECT_EQ(0, errors.load());
  EXPECT_GT(checks.load(), 0);
  EXPECT_EQ(0, snapshot_errors.load());
  EXPECT_EQ(0, iterator_errors.load());
  int64_t sum = 0;
  for (int a = 0; a < kAccounts; a++) sum += Counter(Key(a));
  EXPECT_EQ(total, sum);
}

INSTANTIATE_TEST_SUITE_P(AllComponents, DBRmwTest, ::testing::ValuesIn(MemoryComponentNames()),
                         [](const auto& info) {
                           std::string n = info.param;
                           std::replace(n.begin(), n.end(), '-', '_');
                           return n;
                         });

}  // namespace sluice::test
