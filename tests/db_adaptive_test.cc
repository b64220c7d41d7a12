// Engine tests of the "adaptive" memory component: through the DB, each workload phase makes the
// next memory component the representation the policy prefers for it, the decisions are
// visible in GetProperty("sluice.memtable-choices") and in the stats, WAL replay is not taken
// for a workload, and the I/O counters property counts the flushes.

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "sluice/db.h"
#include "support/db_test_util.h"
#include "support/test_util.h"
#include "util/coding.h"

namespace sluice::test {
namespace {

// Keys whose 8-byte prefixes are all distinct (spread over the hash buckets).
std::string SpreadKey(uint64_t n) {
  std::string k;
  PutFixed64(&k, n * 0x9E3779B97F4A7C15ull);
  return k;
}

class DBAdaptiveTest : public DBTestBase, public ::testing::Test {
 public:
  DBAdaptiveTest() : DBTestBase("adaptive") {}

  Options AdaptiveOptions() const {
    Options o = DefaultOptions();
    o.write_buffer_size = 4 << 20;  // phases end by Flush, not by a full component
    o.bucket_count = 16384;
    return o;
  }

  // The representation of the last decision ("#N name: ...").
  std::string LastChoiceName() {
    const std::string line = LastChoice();
    const size_t space = line.find(' ');
    return line.substr(space + 1, line.find(':') - space - 1);
  }

  // The last line of the choices property.
  std::string LastChoice() {
    std::string v;
    EXPECT_TRUE(db()->GetProperty("sluice.memtable-choices", &v));
    const size_t end = v.find_last_of('\n');
    const size_t begin = v.find_last_of('\n', end - 1);
    return v.substr(begin == std::string::npos ? 0 : begin + 1, end - begin - 1);
  }
};

TEST_F(DBAdaptiveTest, EachWorkloadPhaseChoosesTheNextComponent) {
  Open(AdaptiveOptions());
  EXPECT_EQ("#1 skiplist: initial choice, nothing observed yet", LastChoice());
  uint64_t n = 0;

  // Inserts only: a vector next.
  for (int i = 0; i < 20000; i++) ASSERT_OK(Put(SpreadKey(n++), "v"));
  ASSERT_OK(db()->Flush());
  EXPECT_EQ("vector-prealloc", LastChoiceName()) << LastChoice();
  EXPECT_NE(std::string::npos, LastChoice().find(" inserts, 0 point reads")) << LastChoice();
  std::string stats;
  ASSERT_TRUE(db()->GetProperty("sluice.stats", &stats));
  EXPECT_NE(std::string::npos, stats.find("adaptive:vector-prealloc")) << stats;

  // Four point reads per insert: a hash buffer next.
  for (int i = 0; i < 20000; i++) {
    ASSERT_OK(Put(SpreadKey(n), "v"));
    for (uint64_t r = 1; r <= 4; r++) ASSERT_EQ("v", Get(SpreadKey(n / r)));
    n++;
  }
  ASSERT_OK(db()->Flush());
  EXPECT_EQ("hash-linklist", LastChoiceName()) << LastChoice();

  // Scans interleaved with the inserts: a skiplist next.
  for (int i = 0; i < 20000; i++) {
    ASSERT_OK(Put(SpreadKey(n++), "v"));
    if (i % 100 == 0) {
      std::unique_ptr<Iterator> it = db()->NewIterator(ReadOptions());
      it->Seek(SpreadKey(n / 2));
      for (int k = 0; k < 20 && it->Valid(); k++) it->Next();
      ASSERT_OK(it->status());
    }
  }
  ASSERT_OK(db()->Flush());
  EXPECT_EQ("skiplist", LastChoiceName()) << LastChoice();

  // Every write is still there, whatever held it.
  for (uint64_t k = 0; k < n; k += 97) ASSERT_EQ("v", Get(SpreadKey(k))) << k;
  std::string io;
  ASSERT_TRUE(db()->GetProperty("sluice.io-counters", &io));
  // At least the three Flush calls; components that asked for an early switch add theirs.
  EXPECT_EQ(0u, io.find("flushes=")) << io;
  EXPECT_GE(std::stoi(io.substr(8)), 3) << io;
}

TEST_F(DBAdaptiveTest, RecoveryReplayIsNotAWorkload) {
  Options o = AdaptiveOptions();
  Open(o);
  for (int i = 0; i < 5000; i++) {
    ASSERT_OK(Put(SpreadKey(i), "v"));
    ASSERT_EQ("v", Get(SpreadKey(i)));
  }
  Reopen();  // the log is replayed into components the policy does not observe
  EXPECT_EQ("#1 skiplist: initial choice, nothing observed yet", LastChoice());
  for (int i = 0; i < 5000; i += 7) ASSERT_EQ("v", Get(SpreadKey(i)));
}

TEST_F(DBAdaptiveTest, PropertyOnlyForAdaptive) {
  Options o = AdaptiveOptions();
  o.memtable = "skiplist";
  Open(o);
  std::string v;
  EXPECT_FALSE(db()->GetProperty("sluice.memtable-choices", &v));
  ASSERT_TRUE(db()->GetProperty("sluice.io-counters", &v));
  EXPECT_EQ(0u, v.find("flushes=0 flush_bytes=0 compactions=0 ")) << v;
}

}  // namespace
}  // namespace sluice::test
