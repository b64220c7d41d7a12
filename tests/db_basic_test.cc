// Engine tests run over every memory component: the API's behaviour end to end (reads, writes,
// batches, iterators, snapshots, flush, compaction, reopen, properties, bad input).

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>

#include "memory/memory_component.h"
#include "sluice/db.h"
#include "sluice/env.h"
#include "support/db_test_util.h"
#include "support/test_util.h"

namespace sluice::test {

class DBBasicTest : public DBTestBase, public ::testing::TestWithParam<std::string> {
 public:
  DBBasicTest() : DBTestBase(GetParam()) {}
};

TEST_P(DBBasicTest, PutGetDeleteOverwrite) {
  Open();
  ASSERT_OK(Put("foo", "v1"));
  EXPECT_EQ("v1", Get("foo"));
  ASSERT_OK(Put("foo", "v2"));
  EXPECT_EQ("v2", Get("foo"));
  ASSERT_OK(Delete("foo"));
  EXPECT_EQ("NOT_FOUND", Get("foo"));
  EXPECT_OK(Delete("never-existed"));
  EXPECT_EQ("NOT_FOUND", Get("never-existed"));
}

TEST_P(DBBasicTest, EmptyKeyAndEmptyValueAreOrdinary) {
  Open();
  ASSERT_OK(Put("", "empty-key"));
  ASSERT_OK(Put("k", ""));
  EXPECT_EQ("empty-key", Get(""));
  EXPECT_EQ("", Get("k"));
  EXPECT_EQ("->empty-key, k->", Contents());
  ASSERT_OK(db()->Flush());
  Reopen();
  EXPECT_EQ("empty-key", Get(""));
  EXPECT_EQ("", Get("k"));
  ASSERT_OK(Delete(""));
  EXPECT_EQ("NOT_FOUND", Get(""));
}

TEST_P(DBBasicTest, BinaryKeysAndValues) {
  Open();
  const std::string k("a\0b\xff", 4), v("\0\0\x01", 3);
  ASSERT_OK(Put(k, v));
  EXPECT_EQ(v, Get(k));
  EXPECT_EQ("NOT_FOUND", Get(std::string("a\0b", 3)));
  ASSERT_OK(db()->Flush());
  EXPECT_EQ(v, Get(k));
}

TEST_P(DBBasicTest, WriteBatchIsAtomicAndLastUpdateWins) {
  Open();
  ASSERT_OK(Put("a", "old"));
  WriteBatch batch;
  batch.Put("a", "1");
  batch.Put("b", "2");
  batch.Delete("a");
  batch.Put("c", "3");
  batch.Put("c", "4");
  EXPECT_EQ(5u, batch.Count());
  ASSERT_OK(db()->Write(WriteOptions(), &batch));
  EXPECT_EQ("b->2, c->4", Contents());
  ASSERT_OK(db()->Flush());
  Reopen();
  EXPECT_EQ("b->2, c->4", Contents());
  WriteBatch empty;
  EXPECT_OK(db()->Write(WriteOptions(), &empty));
}

TEST_P(DBBasicTest, IteratorForwardBackwardSeek) {
  Open();
  for (int i = 0; i < 100; i += 2) ASSERT_OK(Put(Key(i), Value(i)));
  ASSERT_OK(db()->Flush());
  for (int i = 1; i < 100; i += 4) ASSERT_OK(Put(Key(i), Value(i)));
  ASSERT_OK(Delete(Key(10)));
  std::vector<int> expected;
  for (int i = 0; i < 100; i++) {
    if ((i % 2 == 0 || i % 4 == 1) && i != 10) expected.push_back(i);
  }
  std::unique_ptr<Iterator> it = db()->NewIterator(ReadOptions());
  size_t n = 0;
  for (it->SeekToFirst(); it->Valid(); it->Next(), n++) {
    ASSERT_EQ(Key(expected[n]), it->key().ToString());
    ASSERT_EQ(Value(expected[n]), it->value().ToString());
  }
  EXPECT_EQ(expected.size(), n);
  for (it->SeekToLast(); it->Valid(); it->Prev()) {
    ASSERT_GT(n, 0u);
    ASSERT_EQ(Key(expected[--n]), it->key().ToString());
  }
  EXPECT_EQ(0u, n);

  it->Seek(Key(10));  // deleted: lands on the next key
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ(Key(12), it->key().ToString());
  it->Prev();
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ(Key(9), it->key().ToString());
  it->Next();
  it->Next();
  EXPECT_EQ(Key(13), it->key().ToString());
  it->SeekForPrev(Key(10));
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ(Key(9), it->key().ToString());
  it->SeekForPrev(Key(12));
  EXPECT_EQ(Key(12), it->key().ToString());
  it->Seek("zzz");
  EXPECT_FALSE(it->Valid());
  it->SeekForPrev("a");
  EXPECT_FALSE(it->Valid());
  it->SeekForPrev("zzz");
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ(Key(98), it->key().ToString());
  EXPECT_OK(it->status());
}

TEST_P(DBBasicTest, IteratorBoundsLimitEveryMove) {
  Open();
  for (int i = 0; i < 50; i++) ASSERT_OK(Put(Key(i), Value(i)));
  ASSERT_OK(db()->Flush());
  // Deletions just outside and just inside both bounds, in the memory component.
  for (int i : {9, 10, 29, 30}) ASSERT_OK(Delete(Key(i)));
  ReadOptions ro;
  std::unique_ptr<Iterator> it;
  {
    // The bounds are copied: these strings are gone before the iterator is used.
    const std::string lower = Key(10), upper = Key(30);
    const Slice lower_slice(lower), upper_slice(upper);
    ro.iterate_lower_bound = &lower_slice;
    ro.iterate_upper_bound = &upper_slice;
    it = db()->NewIterator(ro);
  }
  int n = 11;
  for (it->SeekToFirst(); it->Valid(); it->Next(), n++) ASSERT_EQ(Key(n), it->key().ToString());
  EXPECT_EQ(29, n);
  n = 28;
  for (it->SeekToLast(); it->Valid(); it->Prev(), n--) ASSERT_EQ(Key(n), it->key().ToString());
  EXPECT_EQ(10, n);
  it->Seek(Key(3));  // below the lower bound: at the first key in bounds
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ(Key(11), it->key().ToString());
  it->Prev();
  EXPECT_FALSE(it->Valid());
  it->Seek(Key(30));
  EXPECT_FALSE(it->Valid());
  it->SeekForPrev(Key(45));  // above the upper bound: at the last key in bounds
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ(Key(28), it->key().ToString());
  it->Next();
  EXPECT_FALSE(it->Valid());
  it->SeekForPrev(Key(5));
  EXPECT_FALSE(it->Valid());
  EXPECT_OK(it->status());

  // Only an upper bound; only a lower bound; empty bounds.
  const std::string upper_key = Key(3), lower_key = Key(48);
  const Slice upper(upper_key), lower(lower_key);
  ReadOptions only_upper;
  only_upper.iterate_upper_bound = &upper;
  it = db()->NewIterator(only_upper);
  it->SeekToLast();
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ(Key(2), it->key().ToString());
  ReadOptions only_lower;
  only_lower.iterate_lower_bound = &lower;
  it = db()->NewIterator(only_lower);
  it->SeekToFirst();
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ(Key(48), it->key().ToString());
  ReadOptions empty;
  empty.iterate_lower_bound = &upper;
  empty.iterate_upper_bound = &upper;
  it = db()->NewIterator(empty);
  it->SeekToFirst();
  EXPECT_FALSE(it->Valid());
  it->SeekToLast();
  EXPECT_FALSE(it->Valid());
  it.reset();

  // DB::Scan: the bounds narrow [start, end).
  const std::string from = Key(10), to = Key(30), nothing;
  const Slice from_slice(from), to_slice(to), nothing_slice(nothing);
  ReadOptions scan_bounds;
  scan_bounds.iterate_lower_bound = &from_slice;
  scan_bounds.iterate_upper_bound = &to_slice;
  std::vector<std::pair<std::string, std::string>> got;
  ASSERT_OK(db()->Scan(scan_bounds, Key(0), "", 100, &got));
  ASSERT_EQ(18u, got.size());
  EXPECT_EQ(Key(11), got.front().first);
  EXPECT_EQ(Key(28), got.back().first);
  got.clear();
  ASSERT_OK(db()->Scan(scan_bounds, Key(20), Key(25), 100, &got));
  EXPECT_EQ(5u, got.size());
  got.clear();
  scan_bounds.iterate_upper_bound = &nothing_slice;  // nothing is below ""
  ASSERT_OK(db()->Scan(scan_bounds, Key(0), "", 100, &got));
  EXPECT_TRUE(got.empty());
}

TEST_P(DBBasicTest, IteratorIsASnapshotOfItsCreationTime) {
  Open();
  ASSERT_OK(Put("a", "1"));
  ASSERT_OK(Put("b", "1"));
  std::unique_ptr<Iterator> it = db()->NewIterator(ReadOptions());
  ASSERT_OK(Put("a", "2"));
  ASSERT_OK(Delete("b"));
  ASSERT_OK(Put("c", "2"));
  ASSERT_OK(db()->Flush());
  ASSERT_OK(db()->CompactRange(nullptr, nullptr));
  std::string seen;
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    seen += it->key().ToString() + "=" + it->value().ToString() + ";";
  }
  EXPECT_EQ("a=1;b=1;", seen);
  EXPECT_EQ("a->2, c->2", Contents());
}

TEST_P(DBBasicTest, SnapshotsSurviveFlushAndCompaction) {
  Open();
  ASSERT_OK(Put("k", "v1"));
  const Snapshot* s1 = db()->GetSnapshot();
  ASSERT_OK(Put("k", "v2"));
  ASSERT_OK(Put("gone", "x"));
  const Snapshot* s2 = db()->GetSnapshot();
  ASSERT_OK(Put("k", "v3"));
  ASSERT_OK(Delete("gone"));
  for (int round = 0; round < 3; round++) {
    EXPECT_EQ("v1", Get("k", s1));
    EXPECT_EQ("NOT_FOUND", Get("gone", s1));
    EXPECT_EQ("v2", Get("k", s2));
    EXPECT_EQ("x", Get("gone", s2));
    EXPECT_EQ("v3", Get("k"));
    EXPECT_EQ("NOT_FOUND", Get("gone"));
    EXPECT_EQ("gone->x, k->v2", Contents(s2));
    if (round == 0) {
      ASSERT_OK(db()->Flush());
    } else if (round == 1) {
      ASSERT_OK(db()->CompactRange(nullptr, nullptr));
    }
  }
  EXPECT_GT(s2->sequence(), s1->sequence());
  db()->ReleaseSnapshot(s1);
  db()->ReleaseSnapshot(s2);
  db()->ReleaseSnapshot(nullptr);
  ASSERT_OK(db()->CompactRange(nullptr, nullptr));
  EXPECT_EQ("k->v3", Contents());
}

TEST_P(DBBasicTest, DataSurvivesReopenWithAndWithoutFlush) {
  Open();
  for (int i = 0; i < 500; i++) ASSERT_OK(Put(Key(i), Value(i)));
  Reopen();  // from the WAL
  for (int i = 0; i < 500; i++) ASSERT_EQ(Value(i), Get(Key(i)));
  for (int i = 0; i < 500; i += 3) ASSERT_OK(Delete(Key(i)));
  ASSERT_OK(db()->Flush());
  Reopen();  // from SST files
  for (int i = 0; i < 500; i++) ASSERT_EQ(i % 3 == 0 ? "NOT_FOUND" : Value(i), Get(Key(i)));
  Reopen();
  EXPECT_EQ(333u, ContentsMap().size());
}

TEST_P(DBBasicTest, ManyWritesFlushAndCompactIntoLevels) {
  Options o = DefaultOptions();
  o.level0_file_num_compaction_trigger = 2;
  Open(o);
  constexpr int kKeys = 20000;
  for (int i = 0; i < kKeys; i++) {
    ASSERT_OK(Put(Key((i * 7919) % kKeys), Value(i, 60)));
  }
  ASSERT_OK(db()->Flush());
  ASSERT_OK(db()->CompactRange(nullptr, nullptr));
  EXPECT_EQ(0, NumFilesAtLevel(0));
  EXPECT_GT(TotalFiles(), 1);
  std::map<std::string, std::string> contents = ContentsMap();
  ASSERT_EQ(static_cast<size_t>(kKeys), contents.size());
  for (int i = 0; i < kKeys; i++) {
    ASSERT_EQ(Value(i, 60), Get(Key((i * 7919) % kKeys)));
  }
  Reopen();
  EXPECT_EQ(static_cast<size_t>(kKeys), ContentsMap().size());
  std::string stats;
  ASSERT_TRUE(db()->GetProperty("sluice.stats", &stats));
  EXPECT_NE(std::string::npos, stats.find("Write amplification"));
}

TEST_P(DBBasicTest, FlushesWriteLevel0CompressionAndCompactionsWriteCompression) {
  auto level_bytes = [this](int level) {
    std::string v;
    EXPECT_TRUE(db()->GetProperty("sluice.stats-json", &v));
    return nlohmann::json::parse(v)["levels"][level]["bytes"].get<uint64_t>();
  };
  constexpr int kKeys = 300;
  const std::string compressible(1000, 'z');  // 300 KB of values; snappy makes them ~15 KB
  for (CompressionType level0 : {CompressionType::kNone, CompressionType::kSnappy}) {
    SCOPED_TRACE(static_cast<int>(level0));
    Options o = DefaultOptions();
    o.write_buffer_size = 4 << 20;
    o.initial_write_buffer_size = o.write_buffer_size;  // one component holds the 300 KB
    o.target_file_size_base = 4 << 20;
    o.level0_idle_compaction_ms = 0;
    o.compression = CompressionType::kSnappy;
    o.level0_compression = level0;
    Close();
    ASSERT_OK(DestroyDB(dbname(), o));
    Open(o);
    for (int i = 0; i < kKeys; i++) ASSERT_OK(Put(Key(i), compressible + std::to_string(i)));
    ASSERT_OK(db()->Flush());
    ASSERT_EQ(1, NumFilesAtLevel(0));
    if (level0 == CompressionType::kNone) {
      EXPECT_GT(level_bytes(0), uint64_t{kKeys} * 1000);
    } else {
      EXPECT_LT(level_bytes(0), uint64_t{kKeys} * 200);
    }
    ASSERT_OK(db()->CompactRange(nullptr, nullptr));
    ASSERT_EQ(0, NumFilesAtLevel(0));
    EXPECT_LT(level_bytes(1), uint64_t{kKeys} * 200);  // the compaction output is compressed
    for (int i = 0; i < kKeys; i++) ASSERT_EQ(compressible + std::to_string(i), Get(Key(i)));
  }
}

TEST_P(DBBasicTest, CompactRangeDropsDeletedAndOverwrittenVersions) {
  Open();
  for (int round = 0; round < 3; round++) {
    for (int i = 0; i < 2000; i++) ASSERT_OK(Put(Key(i), Value(i + round)));
    ASSERT_OK(db()->Flush());
  }
  for (int i = 0; i < 2000; i++) ASSERT_OK(Delete(Key(i)));
  ASSERT_OK(db()->CompactRange(nullptr, nullptr));
  EXPECT_EQ("", Contents());
  EXPECT_EQ(0, TotalFiles());
}

TEST_P(DBBasicTest, LargeValues) {
  Open();
  const std::string big(3 << 20, 'x');
  ASSERT_OK(Put("big", big));
  ASSERT_OK(Put("small", "s"));
  EXPECT_EQ(big, Get("big"));
  Reopen();
  EXPECT_EQ(big, Get("big"));
  ASSERT_OK(db()->Flush());
  EXPECT_EQ(big, Get("big"));
}

TEST_P(DBBasicTest, PropertiesReportLevelsMemoryAndFiles) {
  Open();
  std::string v;
  EXPECT_FALSE(db()->GetProperty("sluice.no-such-property", &v));
  EXPECT_FALSE(db()->GetProperty("rocksdb.stats", &v));
  EXPECT_FALSE(db()->GetProperty("sluice.num-files-at-level99", &v));
  EXPECT_FALSE(db()->GetProperty("sluice.num-files-at-levelx", &v));
  ASSERT_TRUE(db()->GetProperty("sluice.num-files-at-level0", &v));
  EXPECT_EQ("0", v);
  for (int i = 0; i < 100; i++) ASSERT_OK(Put(Key(i), Value(i)));
  ASSERT_TRUE(db()->GetProperty("sluice.memory-usage", &v));
  EXPECT_GT(std::stoull(v), 100u * 100u);
  ASSERT_OK(db()->Flush());
  ASSERT_TRUE(db()->GetProperty("sluice.num-files-at-level0", &v));
  EXPECT_EQ("1", v);
  ASSERT_TRUE(db()->GetProperty("sluice.sstables", &v));
  EXPECT_NE(std::string::npos, v.find("L0"));
  ASSERT_TRUE(db()->GetProperty("sluice.stats", &v));
  EXPECT_NE(std::string::npos, v.find("Flushes: 1"));
  // Flush returned and one L0 file is below the trigger: nothing is pending, and the flush
  // thread's bookkeeping (it deletes obsolete files after installing) settles soon (waited for
  // up to a minute, however busy the machine).
  ASSERT_TRUE(db()->GetProperty("sluice.mem-table-flush-pending", &v));
  EXPECT_EQ("0", v);
  ASSERT_TRUE(db()->GetProperty("sluice.compaction-pending", &v));
  EXPECT_EQ("0", v);
  for (const char* name : {"sluice.num-running-compactions", "sluice.num-running-flushes"}) {
    for (int i = 0; i < 12000 && db()->GetProperty(name, &v) && v != "0"; i++) {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    ASSERT_TRUE(db()->GetProperty(name, &v)) << name;
    EXPECT_EQ("0", v) << name;
  }
}

TEST_P(DBBasicTest, EstimateNumKeysIsExactAfterFullCompaction) {
  Open();
  std::string v;
  ASSERT_TRUE(db()->GetProperty("sluice.estimate-num-keys", &v));
  EXPECT_EQ("0", v);
  for (int i = 0; i < 1000; i++) ASSERT_OK(Put(Key(i), Value(i)));
  ASSERT_TRUE(db()->GetProperty("sluice.estimate-num-keys", &v));
  EXPECT_EQ("1000", v);  // all in the memory component, one version each
  ASSERT_OK(db()->Flush());
  for (int i = 0; i < 300; i++) ASSERT_OK(Delete(Key(i)));
  ASSERT_OK(db()->Flush());
  ASSERT_TRUE(db()->GetProperty("sluice.estimate-num-keys", &v));
  EXPECT_EQ("700", v);  // 1000 puts, 300 deletions counted twice
  ASSERT_OK(db()->CompactRange(nullptr, nullptr));
  ASSERT_TRUE(db()->GetProperty("sluice.estimate-num-keys", &v));
  EXPECT_EQ("700", v);
}

TEST_P(DBBasicTest, StatsJsonAgreesWithTheDatabase) {
  Open();
  for (int i = 0; i < 100; i++) ASSERT_OK(Put(Key(i), Value(i)));
  ASSERT_OK(db()->Flush());
  ASSERT_OK(Put("extra", "v"));
  ASSERT_EQ("v", Get("extra"));
  std::string v;
  ASSERT_TRUE(db()->GetProperty("sluice.stats-json", &v));
  const nlohmann::json j = nlohmann::json::parse(v);
  EXPECT_EQ(dbname(), j["db"].get<std::string>());
  ASSERT_EQ(static_cast<size_t>(DefaultOptions().num_levels), j["levels"].size());
  EXPECT_EQ(1u, j["levels"][0]["files"].get<uint64_t>());
  EXPECT_GT(j["levels"][0]["bytes"].get<uint64_t>(), 0u);
  EXPECT_EQ(101u, j["writes"]["keys"].get<uint64_t>());
  EXPECT_EQ(1u, j["flushes"]["count"].get<uint64_t>());
  EXPECT_EQ(1u, j["memory"]["mutable_entries"].get<uint64_t>());
  EXPECT_FALSE(j["memory"]["component"].get<std::string>().empty());
  EXPECT_GT(j["write_amplification"].get<double>(), 1.0);  // WAL + flush bytes > user bytes
  EXPECT_EQ(1u, j["gets"]["found"].get<uint64_t>());
  for (const char* field : {"stalls", "read_modify_writes", "snapshots_live", "last_sequence",
                            "recovery", "block_cache"}) {
    EXPECT_TRUE(j.contains(field)) << field;
  }
}

TEST_P(DBBasicTest, OversizedKeysAndValuesAreInvalidArgument) {
  Options o = DefaultOptions();
  o.max_key_size = 10;
  o.max_value_size = 20;
  Open(o);
  Status s = Put(std::string(11, 'k'), "v");
  EXPECT_TRUE(s.IsInvalidArgument());
  EXPECT_NE(std::string::npos, s.ToString().find("max_key_size"));
  s = Put("k", std::string(21, 'v'));
  EXPECT_TRUE(s.IsInvalidArgument());
  EXPECT_NE(std::string::npos, s.ToString().find("max_value_size"));
  WriteBatch batch;
  batch.Put("ok", "ok");
  batch.Put(std::string(11, 'k'), "v");
  EXPECT_TRUE(db()->Write(WriteOptions(), &batch).IsInvalidArgument());
  EXPECT_EQ("NOT_FOUND", Get("ok"));  // nothing of a rejected batch is applied
  EXPECT_OK(Put(std::string(10, 'k'), std::string(20, 'v')));
}

TEST_P(DBBasicTest, SyncAndDisableWalWrites) {
  Open();
  WriteOptions sync;
  sync.sync = true;
  ASSERT_OK(db()->Put(sync, "synced", "1"));
  WriteOptions nowal;
  nowal.disable_wal = true;
  ASSERT_OK(db()->Put(nowal, "unlogged", "2"));
  EXPECT_EQ("2", Get("unlogged"));
  Reopen();  // a clean close flushes unlogged data
  EXPECT_EQ("1", Get("synced"));
  EXPECT_EQ("2", Get("unlogged"));
}

// With the WAL off a Put or Delete carries no encoded record (only the batch header): the
// update must still reach the component exactly, across component switches and flushes, and be
// counted as the logged path counts it (keys, key + value bytes), with no WAL bytes.
TEST_P(DBBasicTest, UnloggedPutsAndDeletesAreAppliedAndCounted) {
  Open();
  WriteOptions nowal;
  nowal.disable_wal = true;
  std::map<std::string, std::string> model;
  uint64_t user_bytes = 0;
  for (int i = 0; i < 3000; i++) {
    const std::string k = Key(i % 700);
    if (i % 3 == 2) {
      ASSERT_OK(db()->Delete(nowal, k));
      model.erase(k);
      user_bytes += k.size();
    } else {
      const std::string v = Value(i) + std::string(i % 50, 'x');
      ASSERT_OK(db()->Put(nowal, k, v));
      model[k] = v;
      user_bytes += k.size() + v.size();
    }
  }
  for (int i = 0; i < 700; i++) {
    const auto it = model.find(Key(i));
    EXPECT_EQ(it == model.end() ? "NOT_FOUND" : it->second, Get(Key(i))) << i;
  }
  std::string v;
  ASSERT_TRUE(db()->GetProperty("sluice.stats-json", &v));
  const nlohmann::json j = nlohmann::json::parse(v);
  EXPECT_EQ(3000u, j["writes"]["keys"].get<uint64_t>());
  EXPECT_EQ(user_bytes, j["writes"]["user_bytes"].get<uint64_t>());
  EXPECT_EQ(0u, j["writes"]["wal_bytes"].get<uint64_t>());
  Reopen();  // a clean close flushes unlogged data
  for (int i = 0; i < 700; i++) {
    const auto it = model.find(Key(i));
    EXPECT_EQ(it == model.end() ? "NOT_FOUND" : it->second, Get(Key(i))) << i;
  }
}

TEST_P(DBBasicTest, CallsOnAClosedDatabaseFail) {
  Open();
  ASSERT_OK(Put("a", "b"));
  ASSERT_OK(db()->Close());
  EXPECT_OK(db()->Close());  // idempotent
  std::string v;
  EXPECT_TRUE(db()->Put(WriteOptions(), "a", "c").IsInvalidArgument());
  EXPECT_TRUE(db()->Get(ReadOptions(), "a", &v).IsInvalidArgument());
  EXPECT_FALSE(db()->NewIterator(ReadOptions())->Valid());
  EXPECT_TRUE(db()->NewIterator(ReadOptions())->status().IsInvalidArgument());
  EXPECT_TRUE(db()->Flush().IsInvalidArgument());
  EXPECT_EQ(nullptr, db()->GetSnapshot());
  db_.reset();
  Open();
  EXPECT_EQ("b", Get("a"));
}

TEST_P(DBBasicTest, ConcurrentWritersAndReaders) {
  Open();
  constexpr int kThreads = 4, kPerThread = 3000;
  std::vector<std::thread> threads;
  std::atomic<int> errors{0};
  for (int t = 0; t < kThreads; t++) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kPerThread; i++) {
        const int k = t * kPerThread + i;
        if (!Put(Key(k), Value(k)).ok()) errors++;
        if (Get(Key(k)) != Value(k)) errors++;  // read-your-writes
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(0, errors.load());
  EXPECT_EQ(static_cast<size_t>(kThreads * kPerThread), ContentsMap().size());
}

INSTANTIATE_TEST_SUITE_P(AllComponents, DBBasicTest, ::testing::ValuesIn(MemoryComponentNames()),
                         [](const auto& info) {
                           std::string n = info.param;
                           std::replace(n.begin(), n.end(), '-', '_');
                           return n;
                         });

// --- Opening: options and directory errors (component-independent) ---

TEST(DBOpen, MissingDirectoryWithoutCreateIfMissingNamesThePath) {
  TempDir dir;
  const std::string path = dir.File("nope");
  std::unique_ptr<DB> db;
  Status s = DB::Open(Options(), path, &db);
  EXPECT_TRUE(s.IsInvalidArgument());
  EXPECT_NE(std::string::npos, s.ToString().find(path));
  EXPECT_NE(std::string::npos, s.ToString().find("create_if_missing"));
  EXPECT_EQ(nullptr, db);
}

TEST(DBOpen, ErrorIfExists) {
  TempDir dir;
  Options o;
  o.create_if_missing = true;
  std::unique_ptr<DB> db;
  ASSERT_OK(DB::Open(o, dir.path(), &db));
  db.reset();
  o.error_if_exists = true;
  Status s = DB::Open(o, dir.path(), &db);
  EXPECT_TRUE(s.IsInvalidArgument());
  EXPECT_NE(std::string::npos, s.ToString().find("error_if_exists"));
}

TEST(DBOpen, SecondOpenOfTheSameDirectoryIsBusyAndNamesTheLock) {
  TempDir dir;
  Options o;
  o.create_if_missing = true;
  std::unique_ptr<DB> db1, db2;
  ASSERT_OK(DB::Open(o, dir.path(), &db1));
  Status s = DB::Open(o, dir.path(), &db2);
  EXPECT_TRUE(s.IsBusy()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find(dir.File("LOCK")));
  db1.reset();
  EXPECT_OK(DB::Open(o, dir.path(), &db2));
}

// Options is the database-wide DBOptions plus the default family's ColumnFamilyOptions: built
// from the two parts, it opens a database that has both parts' settings.
TEST(DBOpen, OptionsAreDBOptionsPlusColumnFamilyOptions) {
  TempDir dir;
  DBOptions db_options;
  db_options.create_if_missing = true;
  db_options.max_key_size = 10;
  ColumnFamilyOptions family;
  family.memtable = "skiplist";
  family.write_buffer_size = 1 << 20;
  const Options options(db_options, family);
  EXPECT_TRUE(options.create_if_missing);
  EXPECT_EQ("skiplist", options.memtable);
  EXPECT_EQ(size_t{1} << 20, options.write_buffer_size);
  std::unique_ptr<DB> db;
  ASSERT_OK(DB::Open(options, dir.path(), &db));
  ASSERT_OK(db->Put(WriteOptions(), "k", "v"));
  EXPECT_TRUE(db->Put(WriteOptions(), std::string(11, 'k'), "v").IsInvalidArgument());
  std::string stats;
  ASSERT_TRUE(db->GetProperty("sluice.stats-json", &stats));
  EXPECT_NE(std::string::npos, stats.find("skiplist")) << stats.substr(0, 300);
}

TEST(DBOpen, BadOptionsAreInvalidArgumentNamingTheOption) {
  TempDir dir;
  struct Case {
    const char* name;
    std::function<void(Options*)> set;
  };
  const std::vector<Case> cases = {
      {"memtable", [](Options* o) { o->memtable = "bogus"; }},
      {"write_buffer_size", [](Options* o) { o->write_buffer_size = 0; }},
      {"block_size", [](Options* o) { o->block_size = 0; }},
      {"num_levels", [](Options* o) { o->num_levels = 1; }},
      {"max_background_jobs", [](Options* o) { o->max_background_jobs = 0; }},
      {"max_subcompactions", [](Options* o) { o->max_subcompactions = -1; }},
      {"level0_stop_writes_trigger", [](Options* o) { o->level0_stop_writes_trigger = 1; }},
      {"level0_idle_compaction_ms", [](Options* o) { o->level0_idle_compaction_ms = -1; }},
      {"level0_backlog_flush_merge", [](Options* o) { o->level0_backlog_flush_merge = 0; }},
      {"hard_pending_compaction_bytes_limit",
       [](Options* o) {
         o->soft_pending_compaction_bytes_limit = 2 << 20;
         o->hard_pending_compaction_bytes_limit = 1 << 20;  // a stop below the slowdown
       }},
      {"compression", [](Options* o) { o->compression = static_cast<CompressionType>(9); }},
      {"level0_compression",
       [](Options* o) { o->level0_compression = static_cast<CompressionType>(7); }},
      {"max_bytes_for_level_multiplier",
       [](Options* o) { o->max_bytes_for_level_multiplier = 0.5; }},
      {"compaction_pri", [](Options* o) { o->compaction_pri = static_cast<CompactionPri>(5); }},
  };
  for (const Case& c : cases) {
    Options o;
    o.create_if_missing = true;
    c.set(&o);
    std::unique_ptr<DB> db;
    Status s = DB::Open(o, dir.path(), &db);
    EXPECT_TRUE(s.IsInvalidArgument()) << c.name << ": " << s.ToString();
    EXPECT_NE(std::string::npos, s.ToString().find(c.name)) << s.ToString();
  }
}

TEST(DBOpen, DestroyRemovesTheDatabase) {
  TempDir dir;
  const std::string path = dir.File("db");
  Options o;
  o.create_if_missing = true;
  {
    std::unique_ptr<DB> db;
    ASSERT_OK(DB::Open(o, path, &db));
    ASSERT_OK(db->Put(WriteOptions(), "k", "v"));
  }
  ASSERT_OK(DestroyDB(path, o));
  EXPECT_FALSE(Env::Default()->FileExists(path));
  EXPECT_OK(DestroyDB(path, o));  // nothing there: fine
  std::unique_ptr<DB> db;
  ASSERT_OK(DB::Open(o, path, &db));
  std::string v;
  EXPECT_TRUE(db->Get(ReadOptions(), "k", &v).IsNotFound());
}

}  // namespace sluice::test
