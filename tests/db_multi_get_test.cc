// DB::MultiGet: for every memory component, each key's answer is Get's (values in the memory
// components, in L0 and in deeper levels, deleted and missing keys, repeated keys, keys in any
// order), at a snapshot too; all keys read one state even while atomic batches change them
// together; bad input is an InvalidArgument that names it; and keys in one data block read it
// once (the block cache counts the reads).

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "memory/memory_component.h"
#include "sluice/db.h"
#include "support/db_test_util.h"
#include "support/test_util.h"

namespace sluice::test {
namespace {

class DBMultiGetTest : public DBTestBase, public ::testing::TestWithParam<std::string> {
 public:
  DBMultiGetTest() : DBTestBase(GetParam()) {}
  ~DBMultiGetTest() override { Close(); }

  // MultiGet of keys, as "value" / "NOT_FOUND" / the error per key (DBTestBase::Get's form).
  std::vector<std::string> Multi(const std::vector<std::string>& keys,
                                 const Snapshot* snapshot = nullptr) {
    std::vector<Slice> slices(keys.begin(), keys.end());
    std::vector<std::string> values;
    ReadOptions ro;
    ro.snapshot = snapshot;
    std::vector<Status> statuses = db()->MultiGet(ro, slices, &values);
    EXPECT_EQ(keys.size(), statuses.size());
    EXPECT_EQ(keys.size(), values.size());
    std::vector<std::string> out;
    for (size_t i = 0; i < statuses.size(); i++) {
      if (statuses[i].ok()) {
        out.push_back(values[i]);
      } else {
        out.push_back(statuses[i].IsNotFound() ? "NOT_FOUND" : statuses[i].ToString());
        EXPECT_TRUE(values[i].empty()) << "key " << keys[i];
      }
    }
    return out;
  }

  std::vector<std::string> Gets(const std::vector<std::string>& keys,
                                const Snapshot* snapshot = nullptr) {
    std::vector<std::string> out;
    for (const auto& k : keys) out.push_back(Get(k, snapshot));
    return out;
  }
};

TEST_P(DBMultiGetTest, AnswersAsGetsDoAcrossMemoryAndLevels) {
  Options o = DefaultOptions();
  o.level0_idle_compaction_ms = 0;
  Open(o);
  // Keys 0..599 compacted into the deepest level, 200..399 overwritten in an L0 file, every
  // fifth deleted in L0, 300..499 overwritten in memory, every seventh deleted there.
  for (int i = 0; i < 600; i++) ASSERT_OK(Put(Key(i), Value(i, 40)));
  ASSERT_OK(db()->CompactRange(nullptr, nullptr));
  for (int i = 200; i < 400; i++) ASSERT_OK(Put(Key(i), Value(i + 1000, 40)));
  for (int i = 0; i < 600; i += 5) ASSERT_OK(Delete(Key(i)));
  ASSERT_OK(db()->Flush());
  for (int i = 300; i < 500; i++) ASSERT_OK(Put(Key(i), Value(i + 2000, 40)));
  for (int i = 0; i < 600; i += 7) ASSERT_OK(Delete(Key(i)));

  std::mt19937 rng(7);
  for (int round = 0; round < 20; round++) {
    std::vector<std::string> keys;
    const int n = 1 + static_cast<int>(rng() % 200);
    for (int j = 0; j < n; j++) keys.push_back(Key(static_cast<int>(rng() % 700)));  // 600+: none
    if (round % 2 == 0) std::sort(keys.begin(), keys.end());
    ASSERT_EQ(Gets(keys), Multi(keys)) << "round " << round;
  }
  // Repeats, and the empty call.
  EXPECT_EQ(Gets({Key(301), Key(1), Key(301), Key(1), Key(650)}),
            Multi({Key(301), Key(1), Key(301), Key(1), Key(650)}));
  EXPECT_TRUE(Multi({}).empty());

  nlohmann::json j;
  std::string stats;
  ASSERT_TRUE(db()->GetProperty("sluice.stats-json", &stats));
  j = nlohmann::json::parse(stats);
  EXPECT_EQ(21u, j["gets"]["multi_get_calls"].get<uint64_t>());  // the empty call is not one
}

TEST_P(DBMultiGetTest, ReadsTheSnapshotItIsGiven) {
  Open();
  std::vector<std::string> keys;
  for (int i = 0; i < 50; i++) {
    keys.push_back(Key(i));
    ASSERT_OK(Put(Key(i), "old" + std::to_string(i)));
  }
  const Snapshot* snap = db()->GetSnapshot();
  for (int i = 0; i < 50; i += 2) ASSERT_OK(Put(Key(i), "new" + std::to_string(i)));
  for (int i = 1; i < 50; i += 3) ASSERT_OK(Delete(Key(i)));
  ASSERT_OK(db()->Flush());
  std::vector<std::string> at_snapshot = Multi(keys, snap);
  for (int i = 0; i < 50; i++) EXPECT_EQ("old" + std::to_string(i), at_snapshot[i]);
  EXPECT_EQ(Gets(keys), Multi(keys));
  db()->ReleaseSnapshot(snap);
}

// A writer sets all the keys to one value per atomic batch; each MultiGet must see one batch's
// value for every key. (Gets in a loop would see keys from different batches.)
TEST_P(DBMultiGetTest, SeesOneStateWhileBatchesChangeTheKeys) {
  Options o = DefaultOptions();
  o.write_buffer_size = 256 << 10;  // switches and flushes while it runs
  Open(o);
  constexpr int kKeys = 16;
  std::vector<std::string> keys;
  for (int k = 0; k < kKeys; k++) keys.push_back(Key(k * 37));
  std::atomic<bool> stop{false};
  std::thread writer([&] {
    for (int v = 0; !stop.load(std::memory_order_relaxed) && v < 200000; v++) {
      WriteBatch batch;
      const std::string value = std::to_string(v) + std::string(200, 'x');
      for (const auto& k : keys) batch.Put(k, value);
      ASSERT_OK(db()->Write(WriteOptions(), &batch));
    }
  });
  // Reads for a second and at least kMinReads times, however few a busy machine allows in it.
  constexpr int kMinReads = 100;
  int mixed = 0, reads = 0;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(1);
  while (std::chrono::steady_clock::now() < deadline || reads < kMinReads) {
    std::vector<std::string> got = Multi(keys);
    reads++;
    if (got[0] == "NOT_FOUND") {
      EXPECT_TRUE(std::all_of(got.begin(), got.end(), [](auto& v) { return v == "NOT_FOUND"; }));
      continue;
    }
    for (const auto& v : got) mixed += v != got[0];
  }
  stop = true;
  writer.join();
  EXPECT_EQ(0, mixed) << "over " << reads << " MultiGets";
}

TEST_P(DBMultiGetTest, BadInputNamesTheProblem) {
  Open();
  ASSERT_OK(Put("a", "1"));
  std::vector<Slice> keys = {"a", "b"};
  std::vector<std::string> values;
  // As many handles as keys, or nothing is looked up.
  std::vector<Status> s =
      db()->MultiGet(ReadOptions(), {db()->DefaultColumnFamily()}, keys, &values);
  ASSERT_EQ(2u, s.size());
  for (const auto& st : s) {
    EXPECT_TRUE(st.IsInvalidArgument()) << st.ToString();
    EXPECT_NE(std::string::npos, st.ToString().find("1 column family handles for 2 keys"));
  }
  // A handle the DB does not know fails its own key only.
  ForeignColumnFamilyHandle foreign;
  s = db()->MultiGet(ReadOptions(), {&foreign, db()->DefaultColumnFamily()}, {"a", "a"}, &values);
  EXPECT_TRUE(s[0].IsInvalidArgument()) << s[0].ToString();
  EXPECT_NE(std::string::npos, s[0].ToString().find("unknown column family handle for key 0"));
  EXPECT_OK(s[1]);
  EXPECT_EQ("1", values[1]);
  EXPECT_EQ("default", db()->DefaultColumnFamily()->GetName());
  EXPECT_EQ(0u, db()->DefaultColumnFamily()->GetID());
  // A closed DB.
  ASSERT_OK(db()->Close());
  s = db()->MultiGet(ReadOptions(), keys, &values);
  EXPECT_TRUE(s[0].IsInvalidArgument()) << s[0].ToString();
  EXPECT_TRUE(s[1].IsInvalidArgument()) << s[1].ToString();
}

INSTANTIATE_TEST_SUITE_P(AllComponents, DBMultiGetTest, ::testing::ValuesIn(MemoryComponentNames()),
                         [](const auto& info) {
                           std::string n = info.param;
                           std::replace(n.begin(), n.end(), '-', '_');
                           return n;
                         });

// Block reads, counted by the block cache (a hit or a miss per data block a lookup reads):
// keys that share a block read it once in a MultiGet, once each in Gets.
class DBMultiGetBlockTest : public DBTestBase, public ::testing::Test {
 public:
  DBMultiGetBlockTest() : DBTestBase("skiplist") {}
  ~DBMultiGetBlockTest() override { Close(); }

  uint64_t BlockReads() {
    std::string stats;
    EXPECT_TRUE(db()->GetProperty("sluice.stats-json", &stats));
    const auto j = nlohmann::json::parse(stats);
    return j["block_cache"]["hits"].get<uint64_t>() + j["block_cache"]["misses"].get<uint64_t>();
  }
};

TEST_F(DBMultiGetBlockTest, KeysInOneBlockReadItOnce) {
  Options o = DefaultOptions();
  o.block_size = 4096;
  o.block_cache_size = 8 << 20;
  o.bloom_bits_per_key = 10;
  o.level0_idle_compaction_ms = 0;
  Open(o);
  // 2,000 keys of ~26 bytes: about 13 data blocks in one file of the last level.
  for (int i = 0; i < 2000; i++) ASSERT_OK(Put(Key(i), Value(i, 10)));
  ASSERT_OK(db()->CompactRange(nullptr, nullptr));
  std::vector<std::string> keys;
  for (int i = 1000; i < 1020; i++) keys.push_back(Key(i));  // neighbours: one or two blocks
  std::vector<Slice> slices(keys.begin(), keys.end());
  std::vector<std::string> values;

  uint64_t before = BlockReads();
  for (const auto& k : keys) EXPECT_EQ(Value(std::stoi(k.substr(3)), 10), Get(k));
  const uint64_t by_gets = BlockReads() - before;
  before = BlockReads();
  for (const Status& s : db()->MultiGet(ReadOptions(), slices, &values)) EXPECT_OK(s);
  const uint64_t by_multi_get = BlockReads() - before;
  EXPECT_EQ(20u, by_gets);
  EXPECT_LE(by_multi_get, 2u);
  EXPECT_GE(by_multi_get, 1u);
  for (size_t i = 0; i < keys.size(); i++) EXPECT_EQ(Get(keys[i]), values[i]);
}

}  // namespace
}  // namespace sluice::test
